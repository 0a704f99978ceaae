import Foundation
import PickupTestSupport
import PickupUpload
import Testing

extension FastTier {
    /// A task's and a queue's events reach every observer: a second loop over `events` or
    /// `updates` does not take events from the first (as two loops over one AsyncStream would).
    @Suite("observers: every one sees every event")
    struct ObserverTests {
        func file() throws -> String {
            let path = Temporary.path("observe", suffix: ".bin")
            try Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0) }).write(to: URL(fileURLWithPath: path))
            return path
        }

        func uploader(_ server: InMemoryTusServer) throws -> Uploader {
            let journal = Temporary.url("observe", suffix: ".sqlite")
            return Uploader(
                journal: try UploadJournal(path: journal.path),
                options: UploadOptions(chunkSize: 64 << 10, transport: server))
        }

        @Test("two observers of one upload both see it finish; one that comes after the end gets the final event")
        func uploadTask() async throws {
            let path = try file()
            defer { unlink(path) }
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")))
            let task = try uploader(server).start(path: path, to: .tus(endpoint: server.endpoint))
            let first = task.events
            let second = task.events
            async let one = first.reduce(into: [UploadEvent]()) { $0.append($1) }
            async let two = second.reduce(into: [UploadEvent]()) { $0.append($1) }
            let (a, b) = await (one, two)
            let record = await task.result()
            #expect(record.state == .done)
            #expect(a.count == b.count && !a.isEmpty)
            let late = await task.events.reduce(into: [UploadEvent]()) { $0.append($1) }
            #expect(late.count == 1, "\(late)")
            #expect("\(late)" == "\([a.last].compactMap { $0 })")
        }

        @Test("two observers of a queue both see every upload end")
        func queue() async throws {
            let paths = [try file(), try file()]
            defer { for path in paths { unlink(path) } }
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")))
            let queue = UploadQueue(uploader: try uploader(server))
            let screen = queue.updates
            let badge = queue.updates
            func done(_ stream: AsyncStream<UploadQueue.Item>) async -> Set<Int> {
                var ended: Set<Int> = []
                for await item in stream where item.state == .done {
                    ended.insert(item.id)
                    if ended.count == 2 { break }
                }
                return ended
            }
            async let seenByScreen = done(screen)
            async let seenByBadge = done(badge)
            for path in paths { await queue.add(.upload(path: path, to: .tus(endpoint: server.endpoint))) }
            let (a, b) = await (seenByScreen, seenByBadge)
            #expect(a.count == 2 && a == b)
        }

        @Test("an observer that comes late (a view shown again) starts with every item as it stands")
        func lateObserver() async throws {
            let paths = [try file(), try file()]
            defer { for path in paths { unlink(path) } }
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")))
            let queue = UploadQueue(uploader: try uploader(server))
            for path in paths { await queue.add(.upload(path: path, to: .tus(endpoint: server.endpoint))) }
            _ = await queue.waitUntilSettled()
            var seen: [UploadQueue.Item] = []
            for await item in queue.updates {
                seen.append(item)
                if seen.count == 2 { break }
            }
            #expect(seen.map(\.state) == [.done, .done])
            #expect(Set(seen.map(\.id)).count == 2)
        }

        @Test("an upload the queue holds is not added again from the journal (restoreUnfinished, a batch run again)")
        func oneSenderPerUpload() async throws {
            let path = try file()
            defer { unlink(path) }
            // The second PATCH is cut and there is one try: the upload fails with its journal id.
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")), cutting: [4])
            let journal = Temporary.url("observe", suffix: ".sqlite")
            let uploader = Uploader(
                journal: try UploadJournal(path: journal.path),
                options: UploadOptions(chunkSize: 64 << 10, maxAttempts: 1, transport: server))
            let queue = UploadQueue(uploader: uploader)
            let id = await queue.add(.upload(path: path, to: .tus(endpoint: server.endpoint)))
            let settled = await queue.waitUntilSettled()
            let journalID = try #require(settled.first?.uploadID)
            #expect(settled.first?.record?.state == .failed)
            #expect(await queue.add(.journal(id: journalID)) == id)
            #expect(try await queue.restoreUnfinished().isEmpty)
            #expect(await queue.all().count == 1)
        }

        @Test("a waiting file shows its size, and an upload restored from the journal its file, size and bytes")
        func shownBeforeTheyStart() async throws {
            let paths = [try file(), try file()]
            defer { for path in paths { unlink(path) } }
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")), cutting: [4])
            let journal = Temporary.url("observe", suffix: ".sqlite")
            let options = UploadOptions(chunkSize: 64 << 10, maxAttempts: 1, transport: server)
            // One at a time, so that request 4 is the first file's second chunk: it fails with 64 KiB confirmed.
            let queue = UploadQueue(
                uploader: Uploader(journal: try UploadJournal(path: journal.path), options: options), concurrency: 1)
            for path in paths { await queue.add(.upload(path: path, to: .tus(endpoint: server.endpoint))) }
            // Started or not, each shows its size from the moment it is added.
            #expect(await queue.all().map(\.size) == [200_000, 200_000])
            let failed = try #require(await queue.waitUntilSettled().first { $0.record?.state == .failed })
            // A new queue, as after the app was killed: the row says what the journal says at once.
            let again = UploadQueue(
                uploader: Uploader(journal: try UploadJournal(path: journal.path), options: options))
            let updates = again.updates
            let restored = try await again.restoreUnfinished()
            let item = try #require(await again.all().first { $0.id == restored.first })
            #expect(item.path == failed.path && item.size == 200_000)
            #expect(failed.confirmed == 64 << 10 && item.confirmed == failed.confirmed, "\(item) \(failed)")
            _ = await again.waitUntilSettled()
            await again.close()
            // From its first update: never its journal id as its file, nor 0 bytes of 0.
            let first = await updates.first { $0.id == item.id }
            #expect(first?.path == failed.path && first?.size == 200_000, "\(String(describing: first))")
        }
    }
}
