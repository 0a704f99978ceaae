import Foundation
import Pickup
import PickupTestSupport
import PickupUpload
import Testing

extension FastTier {
    /// Resumes and pauses as the driver and the queue see them: what the server kept of an
    /// upload begun earlier (`UploadEvent.resumed`, `UploadQueue.Item.resumedFrom`), a pause
    /// that asks what it kept of a chunk cut short, and what a pause, a cancel and a hand-off
    /// asked meanwhile leave. A 256 KiB file goes in 64 KiB chunks: requests 1 to 3 ask the
    /// extensions, create the upload and send the first chunk; request 4 is the second chunk.
    @Suite("resumes and pauses: what the server kept")
    struct ResumeAndPauseTests {
        static let chunk: Int64 = 64 << 10

        /// A 256 KiB file; the caller removes it.
        func file() throws -> String {
            let path = Temporary.path("resume", suffix: ".bin")
            try Data((0..<(256 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
                .write(to: URL(fileURLWithPath: path))
            return path
        }

        func server(cutting: Set<Int> = [], stallingHalfway: Set<Int> = []) throws -> InMemoryTusServer {
            InMemoryTusServer(
                endpoint: try #require(URL(string: "http://tus.test/files/")), cutting: cutting,
                stallingHalfway: stallingHalfway)
        }

        /// 64 KiB chunks that do not grow, on a clock that lets every count be told.
        func options(_ server: InMemoryTusServer, maxAttempts: Int) -> UploadOptions {
            var options = UploadOptions(chunkSize: Int(Self.chunk), maxAttempts: maxAttempts, transport: server)
            options.largestTusChunk = Int(Self.chunk)
            options.clock = TickingClock()
            return options
        }

        func journal() throws -> UploadJournal { try UploadJournal(path: Temporary.path("resume", suffix: ".sqlite")) }

        /// The counts `resumed` told, in order.
        func resumedCounts(_ task: UploadTask) async -> [Int64] {
            await task.events.reduce(into: [Int64]()) { told, event in
                if case .resumed(_, let confirmed, _) = event { told.append(confirmed) }
            }
        }

        /// A new upload of a fresh file through a server that cuts `cutting` (4: the second
        /// chunk), with `tries`: it fails with the first chunk on the server. Also the counts
        /// `resumed` told (a new upload tells none). The caller removes `path`.
        func failedAfterOneChunk(
            cutting: Set<Int>, tries: Int
        ) async throws -> (path: String, server: InMemoryTusServer, journal: UploadJournal, failed: UploadRecord) {
            let path = try file()
            let server = try server(cutting: cutting)
            let journal = try journal()
            let task = Uploader(journal: journal, options: options(server, maxAttempts: tries))
                .start(path: path, to: .tus(endpoint: server.endpoint))
            #expect(await resumedCounts(task).isEmpty, "a new upload is not a resumed one")
            let failed = await task.result()
            #expect(failed.state == .failed && failed.offset == Self.chunk, "\(failed.why)")
            return (path, server, journal, failed)
        }

        /// Item `id`'s updates until it is done, each failure resumed at once; the failed
        /// updates and the last.
        func doneResumingFailures(
            _ queue: UploadQueue, _ id: Int, _ updates: AsyncStream<UploadQueue.Item>
        ) async -> (failed: [UploadQueue.Item], done: UploadQueue.Item?) {
            var failed: [UploadQueue.Item] = []
            for await item in updates where item.id == id {
                if case .failed = item.state {
                    failed.append(item)
                    await queue.resume(id)
                }
                if item.state == .done { return (failed, item) }
            }
            return (failed, nil)
        }

        /// Sends the file through a server whose requests `stalling` take half a PATCH and
        /// never answer (request 4 is the second chunk); `midChunk` runs once while it goes.
        /// Returns the item as it settles, and the journal.
        func settled(
            stalling: Set<Int>, midChunk: (UploadQueue, Int) async throws -> Void
        ) async throws -> (item: UploadQueue.Item?, journal: UploadJournal) {
            let path = try file()
            defer { unlink(path) }
            let server = try server(stallingHalfway: stalling)
            let journal = try journal()
            let queue = UploadQueue(uploader: Uploader(journal: journal, options: options(server, maxAttempts: 8)))
            let updates = queue.updates
            let id = await queue.add(.upload(path: path, to: .tus(endpoint: server.endpoint)))
            var ran = false
            for await item in updates where item.id == id {
                if !ran, item.state == .uploading, item.sent > Self.chunk {
                    ran = true
                    try await midChunk(queue, id)
                }
                if item.state.isSettled {
                    await queue.close()
                    return (item, journal)
                }
            }
            return (nil, journal)
        }

        @Test("a resumed upload tells once what the server kept, more than the journal when a request landed unseen")
        func resumedFromTheServersCount() async throws {
            var (path, server, journal, failed) = try await failedAfterOneChunk(cutting: [4], tries: 1)
            defer { unlink(path) }
            // A process killed after the chunk landed and before the journal kept it leaves the
            // journal behind the server.
            failed.offset = 0
            try await journal.save(failed)
            let queue = UploadQueue(uploader: Uploader(journal: journal, options: options(server, maxAttempts: 8)))
            let updates = queue.updates
            let id = await queue.add(.journal(id: failed.id))
            let done = try #require(await doneResumingFailures(queue, id, updates).done)
            #expect(done.resumedFrom == Self.chunk, "the server's count, not the journal's 0")
            #expect(await server.stored(try #require(done.record?.remote))?.count == 256 << 10)
        }

        @Test("an upload the server forgot tells it kept nothing (resumed from 0), and starts over")
        func resumedAfterTheServerForgot() async throws {
            // Two tries (the journal keeps them for the resume): the second chunk and the sync after it cut.
            let (path, server, journal, failed) = try await failedAfterOneChunk(cutting: [4, 5], tries: 2)
            defer { unlink(path) }
            await server.forget(try #require(failed.remote))
            let task = Uploader(journal: journal, options: options(server, maxAttempts: 2)).resume(id: failed.id)
            #expect(await resumedCounts(task) == [0], "once, and nothing kept")
            #expect(await task.result().state == .done)
            #expect(await server.created == 2)
        }

        @Test("a new upload failed and resumed in the queue has no resumedFrom: its bytes are all the queue's")
        func resumedInTheQueue() async throws {
            let path = try file()
            defer { unlink(path) }
            let server = try server(cutting: [4])
            let queue = UploadQueue(
                uploader: Uploader(journal: try journal(), options: options(server, maxAttempts: 1)))
            let updates = queue.updates
            let id = await queue.add(.upload(path: path, to: .tus(endpoint: server.endpoint)))
            let (failed, done) = await doneResumingFailures(queue, id, updates)
            #expect(failed.map(\.confirmed) == [Self.chunk])
            #expect(try #require(done).resumedFrom == nil, "the queue sent those bytes itself")
            #expect(await server.created == 1)
        }

        @Test("a restored upload whose first run fails before the server answers takes resumedFrom from the next")
        func restoredFailingFirst() async throws {
            // Request 4, the second chunk, is cut; so is request 5, the restored run's first.
            let (path, server, journal, _) = try await failedAfterOneChunk(cutting: [4, 5], tries: 1)
            defer { unlink(path) }
            let queue = UploadQueue(uploader: Uploader(journal: journal, options: options(server, maxAttempts: 1)))
            let updates = queue.updates
            let id = try #require(try await queue.restoreUnfinished().first)
            let (failures, done) = await doneResumingFailures(queue, id, updates)
            #expect(failures.map(\.resumedFrom) == [nil], "the server never answered that run")
            #expect(done?.resumedFrom == Self.chunk)
        }

        @Test("paused while a chunk goes, a tus upload shows and keeps what the server holds of it")
        func pausedMidChunk() async throws {
            let (settled, journal) = try await settled(stalling: [4]) { queue, id in await queue.pause(id) }
            let item = try #require(settled)
            #expect(item.state == .paused)
            #expect(item.confirmed == Self.chunk + Self.chunk / 2, "the server's count, not the last confirmed chunk's")
            let uploadID = try #require(item.uploadID)
            let record = try #require(try await journal.record(id: uploadID))
            #expect(record.offset == item.confirmed && record.state == .paused)
        }

        @Test("cancelled while its paused server is asked what it kept, the upload is cancelled, not left paused")
        func cancelledWhileAsked() async throws {
            // The pause's question (request 5) stalls too: it takes up to 2 s.
            let (item, _) = try await settled(stalling: [4, 5]) { queue, id in
                await queue.pause(id)
                try await Task.sleep(nanoseconds: 300_000_000)
                await queue.cancel(id)
                // A second pause does not undo the cancel.
                await queue.pause(id)
            }
            #expect(item?.state == .cancelled, "\(String(describing: item?.state))")
        }

        @Test("an upload being paused is not handed to the background session: it settles paused, as asked")
        func pausedNotHandedOver() async throws {
            let (item, _) = try await settled(stalling: [4, 5]) { queue, id in
                await queue.pause(id)
                // The app leaves the screen while the server is asked.
                let handed = await queue.yieldUnfinished()
                #expect(handed.isEmpty, "\(handed)")
            }
            #expect(item?.state == .paused)
        }
    }
}
