import Foundation
import Pickup
import PickupStore
import PickupTestSupport
import PickupUpload
import Testing

extension FastTier {
    /// Upload batches, in milliseconds: through an in-memory tus server (the real-server suites
    /// and `pickup upload`'s end-to-end tests run the same code against real servers).
    @Suite("upload batches: keys decided first, bytes already there not sent again")
    struct UploadBatchTests {
        func files(_ count: Int) throws -> [String] {
            try (0..<count).map { index in
                let path = Temporary.path("batch", suffix: "-\(index).bin")
                try Data((0..<(70_000 + index * 1_000)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }).write(
                    to: URL(fileURLWithPath: path))
                return path
            }
        }

        func uploader(_ server: InMemoryTusServer, journal: String) throws -> Uploader {
            Uploader(
                journal: try UploadJournal(path: journal),
                options: UploadOptions(chunkSize: 16 << 10, baseDelay: 0.01, maxDelay: 0.02, transport: server))
        }

        func batch(_ paths: [String], to target: UploadBatch.Target) throws -> UploadBatch {
            try UploadBatch(
                files: paths.map {
                    UploadBatch.File(path: $0, facts: RemoteKey.Facts(relativePath: ($0 as NSString).lastPathComponent))
                },
                to: target)
        }

        /// Sends `paths` once through a server that cuts its 4th request (the second PATCH), with
        /// one try: the upload fails holding its first chunk. The journal's path and the record.
        func failedMidFile(_ paths: [String], server: InMemoryTusServer) async throws -> (String, UploadRecord) {
            let journal = Temporary.path("batch", suffix: ".sqlite")
            let once = Uploader(
                journal: try UploadJournal(path: journal),
                options: UploadOptions(chunkSize: 16 << 10, maxAttempts: 1, transport: server))
            var first = try batch(paths, to: .tus(server.endpoint))
            let queue = UploadQueue(uploader: once)
            _ = await first.enqueue(on: queue)
            let record = try #require(await queue.waitUntilSettled().first?.record)
            return (journal, record)
        }

        @Test(
            "a batch sends each file whole; run again, every file is already there and nothing is sent; forced, sent again"
        )
        func alreadyThere() async throws {
            let paths = try files(3)
            defer { for path in paths { unlink(path) } }
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")))
            let journal = Temporary.path("batch", suffix: ".sqlite")
            let uploader = try uploader(server, journal: journal)
            let queue = UploadQueue(uploader: uploader, concurrency: 2)
            var first = try batch(paths, to: .tus(server.endpoint))
            #expect(await first.enqueue(on: queue).isEmpty)
            let items = await queue.waitUntilSettled()
            await first.recordFinished(items, in: uploader.journal)
            #expect(items.map(\.state) == [.done, .done, .done])
            for (item, path) in zip(items, paths) {
                let remote = try #require(item.record?.remote)
                let stored = await server.stored(remote)
                #expect(stored == (try Data(contentsOf: URL(fileURLWithPath: path))))
            }
            let requests = await server.log.count

            var second = try batch(paths, to: .tus(server.endpoint))
            let again = UploadQueue(uploader: uploader)
            let there = await second.enqueue(on: again)
            #expect(Set(there.keys) == [0, 1, 2])
            #expect(there[1]?.id == items[1].record?.id)
            #expect(await again.all().isEmpty)
            #expect(await server.log.count == requests)

            var forced = try batch([paths[0]], to: .tus(server.endpoint))
            let third = UploadQueue(uploader: uploader)
            #expect(await forced.enqueue(on: third, force: true).isEmpty)
            #expect(await third.waitUntilSettled().map(\.state) == [.done])
            #expect(await server.created == 4)
        }

        @Test("a connection cut mid-file is retried from the server's offset: the stored bytes equal the file's")
        func cutMidFile() async throws {
            let paths = try files(1)
            defer { unlink(paths[0]) }
            // Request 4 is the second PATCH (OPTIONS, POST, PATCH, PATCH): the server has one chunk.
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")), cutting: [4])
            let journal = Temporary.path("batch", suffix: ".sqlite")
            let uploader = try uploader(server, journal: journal)
            let queue = UploadQueue(uploader: uploader)
            var batch = try batch(paths, to: .tus(server.endpoint))
            _ = await batch.enqueue(on: queue)
            let items = await queue.waitUntilSettled()
            #expect(items.map(\.state) == [.done])
            let remote = try #require(items.first?.record?.remote)
            let stored = await server.stored(remote)
            #expect(stored == (try Data(contentsOf: URL(fileURLWithPath: paths[0]))))
            let log = await server.log
            #expect(log.contains { $0.hasPrefix("HEAD") }, "\(log)")
            #expect(log.filter { $0.hasPrefix("POST") }.count == 1, "\(log)")
        }

        @Test(
            "the same batch run again after an upload failed mid-file continues it from the server's offset, not from zero"
        )
        func runAgainContinues() async throws {
            let paths = try files(1)
            defer { unlink(paths[0]) }
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")), cutting: [4])
            let (journal, failed) = try await failedMidFile(paths, server: server)
            #expect(failed.state == .failed, "\(String(describing: failed.error))")
            #expect(failed.offset > 0 && failed.offset < 70_000, "\(failed.offset)")

            let uploader = try uploader(server, journal: journal)
            var second = try batch(paths, to: .tus(server.endpoint))
            let again = UploadQueue(uploader: uploader)
            _ = await second.enqueue(on: again)
            let items = await again.waitUntilSettled()
            #expect(items.map(\.state) == [.done])
            #expect(items.first?.record?.id == failed.id, "the same journal entry, continued")
            #expect(await server.created == 1, "no second upload created")
            let remote = try #require(items.first?.record?.remote)
            #expect(await server.stored(remote) == (try Data(contentsOf: URL(fileURLWithPath: paths[0]))))
        }

        @Test(
            "run again after a killed process (its upload still 'uploading'), a batch continues it; one this process holds it leaves alone"
        )
        func cutOffContinues() async throws {
            let paths = try files(1)
            defer { unlink(paths[0]) }
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")), cutting: [4])
            let (journal, failed) = try await failedMidFile(paths, server: server)
            // As the journal is while this process sends it: uploading, owned here. Another queue
            // of this process must not send it beside the first: it starts its own.
            var sending = failed
            sending.state = .uploading
            try await UploadJournal(path: journal).save(sending)
            let uploader = try uploader(server, journal: journal)
            var beside = try batch(paths, to: .tus(server.endpoint))
            let besideQueue = UploadQueue(uploader: uploader)
            _ = await beside.enqueue(on: besideQueue)
            let own = await besideQueue.waitUntilSettled()
            #expect(own.first?.record?.id != failed.id, "a new upload, not the one held here")
            #expect(await server.created == 2)
            // That one let go (cancelled): done, it would make the file already there, whole.
            let besideID = try #require(own.first?.record?.id)
            try SQLiteDatabase(path: journal).prepare("UPDATE uploads SET state = 'cancelled' WHERE id = ?1")
                .run([.text(besideID)])
            // As a killed process leaves it: uploading, owned by a process that is gone (pid 0 never is one).
            try SQLiteDatabase(path: journal).prepare("UPDATE uploads SET owner = 0, state = 'uploading' WHERE id = ?1")
                .run([.text(failed.id)])
            var again = try batch(paths, to: .tus(server.endpoint))
            let queue = UploadQueue(uploader: uploader)
            _ = await again.enqueue(on: queue)
            let items = await queue.waitUntilSettled()
            #expect(items.map(\.state) == [.done])
            #expect(items.first?.record?.id == failed.id, "the killed process's upload, continued")
            #expect(items.first?.resumedFrom == failed.offset)
            #expect(await server.created == 2, "no third upload created")
        }

        @Test(
            "a file another live process sends, tus or a form's POST, is left to it: not queued, told in sentElsewhere",
            arguments: [false, true])
        func sentElsewhere(form: Bool) async throws {
            let paths = try files(1)
            defer { unlink(paths[0]) }
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")))
            let journalPath = Temporary.path("batch", suffix: ".sqlite")
            let uploader = try uploader(server, journal: journalPath)
            let target: UploadBatch.Target = form ? .form(FormTarget(url: server.endpoint)) : .tus(server.endpoint)
            let status = try #require(FileStatus(path: paths[0]))
            let destination = try batch(paths, to: target).destinations[0]
            let record = try await uploader.journal.begin(
                path: SystemPath.absolute(paths[0]), size: status.size, modified: status.modified,
                destination: destination, type: "application/octet-stream")
            // Another process (pid 1, alive: init) claimed it and sends it now, its lease running.
            try SQLiteDatabase(path: journalPath).prepare(
                "UPDATE uploads SET owner = 1, lease = ?2, state = 'uploading' WHERE id = ?1"
            ).run([.text(record.id), .real(Date().timeIntervalSince1970 + 60)])
            var again = try batch(paths, to: target)
            let queue = UploadQueue(uploader: uploader)
            _ = await again.enqueue(on: queue)
            #expect(await queue.all().isEmpty, "nothing queued: it would be sent twice")
            #expect(again.sentElsewhere[0]?.record.id == record.id)
            #expect(again.sentElsewhere[0]?.process == 1)
            #expect(await server.created == 0)
        }

        @Test(
            "an upload resumed from the journal, once done, has its SHA-256 recorded: the same bytes are then already there"
        )
        func resumedThenAlreadyThere() async throws {
            let paths = try files(1)
            defer { unlink(paths[0]) }
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")), cutting: [4])
            let (journal, failed) = try await failedMidFile(paths, server: server)
            let id = failed.id
            // As 'pickup uploads resume' does: the journal's entry, resumed, then its bytes recorded.
            let uploader = try uploader(server, journal: journal)
            let resuming = UploadQueue(uploader: uploader)
            await resuming.add(.journal(id: id))
            let resumed = await resuming.waitUntilSettled()
            #expect(resumed.map(\.state) == [.done])
            await UploadBatch.recordFinished(resumed: resumed, in: uploader.journal)
            var again = try batch(paths, to: .tus(server.endpoint))
            #expect(await again.enqueue(on: UploadQueue(uploader: uploader))[0]?.id == id)
        }

        @Test(
            "uploads done before their SHA-256 was recorded (a killed run) get it from the next run that finds them there: a copy under another name is then there too"
        )
        func unhashedThenRecorded() async throws {
            let paths = try files(2)
            let copy = Temporary.path("batch", suffix: "-copy.bin")
            defer { for path in paths + [copy] { unlink(path) } }
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")))
            let journal = Temporary.path("batch", suffix: ".sqlite")
            let uploader = try uploader(server, journal: journal)
            // Sent, and the process gone before `recordFinished`: done, without a SHA-256.
            var killed = try batch(paths, to: .tus(server.endpoint))
            let first = UploadQueue(uploader: uploader)
            _ = await killed.enqueue(on: first)
            #expect(await first.waitUntilSettled().map(\.state) == [.done, .done])
            try FileManager.default.copyItem(atPath: paths[1], toPath: copy)
            var before = try batch([copy], to: .tus(server.endpoint))
            #expect(await before.alreadySent(in: uploader.journal).isEmpty, "nothing to compare the copy with yet")
            // The same files again: there by path, size and time; hashed and recorded by this run.
            var again = try batch(paths, to: .tus(server.endpoint))
            let second = UploadQueue(uploader: uploader)
            #expect(Set(await again.enqueue(on: second).keys) == [0, 1])
            await again.recordFinished(await second.waitUntilSettled(), in: uploader.journal)
            var after = try batch([copy], to: .tus(server.endpoint))
            #expect(await after.alreadySent(in: uploader.journal)[0] != nil, "the copy's bytes are known there now")
            #expect(await server.created == 2)
        }

        @Test("a run interrupted records the SHA-256 of the small files it finished: the same bytes are there")
        func interruptedRecordsSmallFiles() async throws {
            let paths = try files(2)
            let copy = Temporary.path("batch", suffix: "-copy.bin")
            defer { for path in paths + [copy] { unlink(path) } }
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")))
            let uploader = try uploader(server, journal: Temporary.path("batch", suffix: ".sqlite"))
            var run = try batch(paths, to: .tus(server.endpoint))
            let queue = UploadQueue(uploader: uploader)
            _ = await run.enqueue(on: queue)
            await run.recordFinished(await queue.waitUntilSettled(), in: uploader.journal, waitForHashes: false)
            try FileManager.default.copyItem(atPath: paths[0], toPath: copy)
            var after = try batch([copy], to: .tus(server.endpoint))
            #expect(await after.alreadySent(in: uploader.journal)[0] != nil)
        }

        @Test("S3 keys: the prefix, then the template; two files on one key are refused before anything is sent")
        func keys() throws {
            let endpoint = try #require(URL(string: "http://s3.test"))
            let template = try RemoteKey.parse("{name}").get()
            let files = [
                UploadBatch.File(path: "/card/A/IMG_1.HEIC", facts: RemoteKey.Facts(relativePath: "A/IMG_1.HEIC")),
                UploadBatch.File(path: "/card/B/IMG_2.HEIC", facts: RemoteKey.Facts(relativePath: "B/IMG_2.HEIC")),
            ]
            let batch = try UploadBatch(
                files: files, to: .s3(endpoint: endpoint, bucket: "b", prefix: "2026", key: template))
            #expect(
                batch.destinations == [
                    .s3(S3Location(endpoint: endpoint, bucket: "b", key: "2026/IMG_1.HEIC")),
                    .s3(S3Location(endpoint: endpoint, bucket: "b", key: "2026/IMG_2.HEIC")),
                ])
            var same = files
            same[1].path = "/card/B/IMG_1.HEIC"
            same[1].facts.relativePath = "B/IMG_1.HEIC"
            same[1].madeFrom = "/card/B/IMG_1.MOV"
            let collision = #expect(throws: UploadBatch.KeyCollision.self) {
                try UploadBatch(files: same, to: .s3(endpoint: endpoint, bucket: "b", prefix: "2026/", key: template))
            }
            #expect(collision?.key == "2026/IMG_1.HEIC")
            #expect(collision?.sources == ["/card/A/IMG_1.HEIC", "/card/B/IMG_1.MOV"])
        }
    }
}
