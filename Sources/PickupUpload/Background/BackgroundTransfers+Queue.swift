import Foundation
import Pickup
import PickupStore

/// Uploads of a queue handed to the background session, taken back, restored at launch and sent.
extension BackgroundTransfers {
    /// The app leaves the screen: every upload of `queue` that runs or waits is paused and
    /// handed over (its place is in the journal; the server's offset is asked first), a few at
    /// once, inside background time held from the first pause to the last task. One that
    /// cannot go (an S3 multipart upload under way, a file larger than S3 takes in one PUT) is
    /// put back in line, for the background time the system gives. Returns how many went.
    /// Hand-offs, take-backs and restores run one after another, in the order asked.
    @discardableResult
    package func handOff(_ queue: UploadQueue) async -> Int {
        await inLane { await self.handOffNow(queue) }
    }

    private func handOffNow(_ queue: UploadQueue) async -> Int {
        await hold.acquire()
        let stopped = await queue.yieldUnfinished()
        var handed: [Int] = []
        var back: [Int] = []
        // A few at once, in slices: each asks its server, some copy a file.
        var start = 0
        while start < stopped.count {
            let slice = stopped[start..<min(stopped.count, start + BackgroundTransfers.handOffsAtOnce)]
            start += slice.count
            let results = await withTaskGroup(of: (Int, HandOff).self) { group in
                for (queueID, uploadID) in slice { group.addTask { (queueID, await self.handOff(id: uploadID)) } }
                var ended: [(Int, HandOff)] = []
                for await result in group { ended.append(result) }
                return ended
            }
            for (queueID, result) in results {
                switch result {
                case .handedOver, .alreadyInBackground: handed.append(queueID)
                case .finished, .staysInForeground: back.append(queueID)
                }
            }
        }
        await queue.sentInBackground(by: self)
        await queue.markInBackground(handed)
        for queueID in back { await queue.resume(queueID) }
        await hold.release()
        return handed.count
    }

    /// How many uploads are handed over at once (each asks its server, some copy a file).
    static let handOffsAtOnce = 4

    /// The app is back on screen: every tus upload of `queue` the background session sends is
    /// taken back and resumed in the queue from the server's offset. An S3 or form upload stays
    /// with the background session: it is one request, and taken back it would start over.
    package func takeBack(_ queue: UploadQueue) async {
        await inLane {
            for (queueID, uploadID) in await queue.inBackground() {
                guard case .tus = try? await self.journal.record(id: uploadID)?.destination else { continue }
                // Only one this session held: another session's (an extension's, restored into the
                // same queue) stays with it, and so does one whose end was recorded meanwhile.
                guard (try? await self.takeBack(id: uploadID)) == true else { continue }
                await queue.backgroundTakenBack(queueID)
            }
        }
    }

    /// At launch: adds to `queue` every unfinished upload, resumed from the server's offset,
    /// and shows those the background session still sends as in the background. Returns the
    /// queue ids of the uploads resumed in the queue.
    @discardableResult
    package func restore(into queue: UploadQueue) async throws(UploadError) -> [Int] {
        let result: Result<[Int], UploadError> = await inLane {
            do throws(UploadError) {
                // One look at the session's tasks: which carry an upload, and how far each is.
                let tasks = await self.session.pendingTasks()
                let found = try await self.restore(from: tasks)
                await queue.sentInBackground(by: self)
                let sent = BackgroundTransfers.bodyBytesSent(tasks)
                for record in found.inBackground {
                    await queue.track(inBackground: record)
                    // The bytes its task sent while no app was there: the row starts from them,
                    // not from where the task began.
                    if let bytes = sent[record.id] { await queue.backgroundSent(journalID: record.id, bytes: bytes) }
                }
                var added: [Int] = []
                for record in found.resume { added.append(await queue.add(restoring: record)) }
                return .success(added)
            } catch {
                return .failure(error)
            }
        }
        switch result {  // not Result.get(): it throws `any Error` in the iOS 17.4 SDK's library
        case .success(let added): return added
        case .failure(let error): throw error
        }
    }

    /// Sends a new upload through the background session from the start, while the app is on
    /// screen: a task started then is not left to the system's discretion, as one started in
    /// the background is. `queue` shows it (as in the background); one that cannot go there is
    /// added to the queue instead. Returns its queue id, or the error that kept it from both.
    package func send(
        path: String, to destination: UploadDestination, type: String, expected: FileIdentity?,
        metadata: [String: String] = [:], on queue: UploadQueue
    ) async throws(UploadError) -> Int {
        // The file as checked is the file recorded and sent: resolved once, here.
        let path = try inSharedFolder(path)
        var record = try await uploader.begin(
            path: path, to: destination, type: type, expected: expected, metadata: metadata)
        record.state = .paused
        try await journal.save(record)
        await queue.sentInBackground(by: self)
        switch await handOff(id: record.id) {
        case .handedOver, .alreadyInBackground, .finished:
            return await queue.track(inBackground: try await journal.record(id: record.id) ?? record)
        case .staysInForeground:
            return await queue.add(restoring: record, endpoint: destination.url)
        }
    }
}
