import Foundation
import Pickup
import PickupTestSupport
import PickupUpload
import Testing

/// A clock a quarter second or more later each time it is read, so that the meter tells every
/// count (it tells one a quarter second after the last at most) however fast the test runs; its
/// waits end at once.
final class TickingClock: UploadClock {
    private let seconds = LockedValue<Double>(0)
    var now: Double {
        seconds.withValue {
            $0 += 1
            return $0
        }
    }
    func sleep(seconds: Double) async {}
}

extension FastTier {
    /// Progress between confirmations: `UploadEvent.sending` counts the bytes the transport has
    /// handed to the network, so a progress bar moves while a chunk, a part or a form is in
    /// flight; a failed request takes its bytes back. The in-memory servers tell each body as
    /// sent in two halves before they answer, as a transport does while it writes, and a
    /// `TickingClock` lets every count be told.
    @Suite("progress between confirmations: the bytes sent")
    struct SendingProgressTests {
        /// A file of `bytes` bytes that are not all alike; the caller removes it.
        func file(_ bytes: Int) throws -> String {
            let path = Temporary.path("sending", suffix: ".bin")
            try Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 11) })
                .write(to: URL(fileURLWithPath: path))
            return path
        }

        func journal() throws -> UploadJournal {
            try UploadJournal(path: Temporary.path("sending", suffix: ".sqlite"))
        }

        /// What a progress bar would follow: `sent` of `sending`, `confirmed` of `progress`.
        enum Seen: Equatable, CustomStringConvertible {
            case sending(Int64)
            case confirmed(Int64)
            case retrying

            init?(_ event: UploadEvent) {
                switch event {
                case .sending(_, let sent, _, _): self = .sending(sent)
                case .progress(_, let confirmed, _, _): self = .confirmed(confirmed)
                case .retrying: self = .retrying
                default: return nil
                }
            }

            var description: String {
                switch self {
                case .sending(let bytes): return "sending \(bytes >> 10) KiB"
                case .confirmed(let bytes): return "confirmed \(bytes >> 10) KiB"
                case .retrying: return "retrying"
                }
            }
        }

        @Test("S3 parts: the bytes sent rise within each part; a part cut takes its bytes back, then goes again")
        func partsAndACut() async throws {
            let mebibyte: Int64 = 1 << 20
            let path = try file(11 << 20)
            defer { unlink(path) }
            // One part at a time: request 1 starts the upload, 2 sends part 1, 3 (part 2) is cut.
            let store = InMemoryS3Server(
                endpoint: try #require(URL(string: "http://s3.test")), credentials: S3FastTests.credentials,
                cutting: [3])
            var options = UploadOptions(
                chunkSize: 5 << 20, baseDelay: 0.001, maxDelay: 0.002, transport: store, partConcurrency: 1)
            options.clock = TickingClock()
            let uploader = Uploader(journal: try journal(), options: options, s3Credentials: S3FastTests.credentials)
            let task = uploader.start(
                path: path, to: .s3(S3Location(endpoint: store.endpoint, bucket: "photos", key: "cut.bin")))
            let seen = await task.events.reduce(into: [Seen]()) { seen, event in Seen(event).map { seen.append($0) } }
            let record = await task.result()
            #expect(record.state == .done, "\(record.why)")
            let part = 5 * mebibyte
            #expect(
                Array(seen.prefix(7)) == [
                    .sending(part / 2), .sending(part), .confirmed(part),  // part 1, in two halves
                    .sending(part + part / 2), .sending(2 * part),  // part 2, then cut:
                    .sending(part), .retrying,  // its bytes taken back
                ], "\(seen)")
            let sent = seen.compactMap { if case .sending(let bytes) = $0 { return bytes } else { return nil } }
            #expect(sent.allSatisfy { $0 <= record.size })
            #expect(
                Array(seen.suffix(3)) == [
                    .sending(record.size - mebibyte / 2), .sending(record.size), .confirmed(record.size),
                ], "\(seen)")
        }

        @Test("a form, one request for the whole file, shows its bytes going before the server answers")
        func form() async throws {
            let path = try file(4 << 20)
            defer { unlink(path) }
            let server = InMemoryFormServer(url: try #require(URL(string: "http://forms.test/upload")))
            var options = UploadOptions(transport: server)
            options.clock = TickingClock()
            let uploader = Uploader(journal: try journal(), options: options)
            let task = uploader.start(path: path, to: .form(FormTarget(url: server.url, field: "media")))
            let seen = await task.events.reduce(into: [Seen]()) { seen, event in Seen(event).map { seen.append($0) } }
            #expect(await task.result().state == .done)
            // The form's head (boundary, names) is not the file's: half the body is a little less of the file.
            guard case .sending(let half) = seen.first else {
                Issue.record("no bytes sent before the answer: \(seen)")
                return
            }
            #expect(half > 0 && half < 4 << 20, "\(seen)")
            #expect(Array(seen.suffix(2)) == [.sending(4 << 20), .confirmed(4 << 20)], "\(seen)")
        }

        @Test("a photo whose whole body goes in one write is told at once, before the server answers")
        func photo() async throws {
            let path = try file(300_000)
            defer { unlink(path) }
            let server = InMemoryFormServer(url: try #require(URL(string: "http://forms.test/upload")))
            // The machine's own clock: the first count is told at once, and a request's whole body too.
            let uploader = Uploader(journal: try journal(), options: UploadOptions(transport: server))
            let task = uploader.start(path: path, to: .form(FormTarget(url: server.url, field: "media")))
            let seen = await task.events.reduce(into: [Seen]()) { seen, event in Seen(event).map { seen.append($0) } }
            #expect(await task.result().state == .done)
            #expect(seen.first.map { if case .sending = $0 { true } else { false } } == true, "\(seen)")
            #expect(Array(seen.suffix(2)) == [.sending(300_000), .confirmed(300_000)], "\(seen)")
        }

        @Test("a resumed upload shows the bytes the server holds as soon as it has asked, before a request ends")
        func resumed() async throws {
            let path = try file(256 << 10)
            defer { unlink(path) }
            // One try; requests 1 to 3 ask the extensions, create and send the first chunk, 4 is cut.
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")), cutting: [4])
            let journalPath = Temporary.path("sending", suffix: ".sqlite")
            var options = UploadOptions(chunkSize: 64 << 10, maxAttempts: 1, transport: server)
            options.largestTusChunk = 64 << 10
            options.clock = TickingClock()
            let failed = await Uploader(journal: try UploadJournal(path: journalPath), options: options)
                .upload(path: path, to: .tus(endpoint: server.endpoint))
            let before = failed.offset
            #expect(failed.state == .failed && before > 0, "\(failed.why)")
            options.maxAttempts = 8
            let task = Uploader(journal: try UploadJournal(path: journalPath), options: options).resume(id: failed.id)
            let seen = await task.events.reduce(into: [Seen]()) { seen, event in Seen(event).map { seen.append($0) } }
            #expect(await task.result().state == .done)
            // Its bytes before this run, then the next chunk's halves.
            #expect(Array(seen.prefix(2)) == [.sending(before), .sending(before + 32 << 10)], "\(seen)")
        }

        @Test("a resumed upload tells once what the server kept, more than the journal when a request landed unseen")
        func resumedFromTheServersCount() async throws {
            let path = try file(256 << 10)
            defer { unlink(path) }
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")), cutting: [4])
            let journalPath = Temporary.path("sending", suffix: ".sqlite")
            var options = UploadOptions(chunkSize: 64 << 10, maxAttempts: 1, transport: server)
            options.largestTusChunk = 64 << 10
            options.clock = TickingClock()
            let journal = try UploadJournal(path: journalPath)
            let new = Uploader(journal: journal, options: options).start(
                path: path, to: .tus(endpoint: server.endpoint))
            let told = await new.events.reduce(into: [Int64]()) { told, event in
                if case .resumed(_, let confirmed, _) = event { told.append(confirmed) }
            }
            var failed = await new.result()
            #expect(failed.state == .failed && failed.offset == 64 << 10, "\(failed.why)")
            #expect(told.isEmpty, "a new upload is not a resumed one")
            // A process killed after the chunk landed and before the journal kept it leaves the
            // journal behind the server.
            failed.offset = 0
            try await journal.save(failed)
            options.maxAttempts = 8
            let queue = UploadQueue(uploader: Uploader(journal: journal, options: options))
            let updates = queue.updates
            await queue.add(.journal(id: failed.id))
            var item: UploadQueue.Item?
            for await update in updates where update.state.isSettled {
                item = update
                break
            }
            let done = try #require(item)
            #expect(done.state == .done)
            #expect(done.resumedFrom == 64 << 10, "the server's count, not the journal's 0")
            #expect(await server.stored(try #require(done.record?.remote))?.count == 256 << 10)
        }

        @Test("an upload the server forgot tells it kept nothing (resumed from 0), and starts over")
        func resumedAfterTheServerForgot() async throws {
            let path = try file(256 << 10)
            defer { unlink(path) }
            // Two tries (the journal keeps them for the resume): the second chunk and the sync after it cut.
            let server = InMemoryTusServer(
                endpoint: try #require(URL(string: "http://tus.test/files/")), cutting: [4, 5])
            var options = UploadOptions(chunkSize: 64 << 10, maxAttempts: 2, transport: server)
            options.largestTusChunk = 64 << 10
            options.clock = TickingClock()
            let journal = try UploadJournal(path: Temporary.path("sending", suffix: ".sqlite"))
            let failed = await Uploader(journal: journal, options: options)
                .upload(path: path, to: .tus(endpoint: server.endpoint))
            #expect(failed.offset == 64 << 10, "\(failed.why)")
            await server.forget(try #require(failed.remote))
            let task = Uploader(journal: journal, options: options).resume(id: failed.id)
            let told = await task.events.reduce(into: [Int64]()) { told, event in
                if case .resumed(_, let confirmed, _) = event { told.append(confirmed) }
            }
            #expect(await task.result().state == .done)
            #expect(told == [0], "once, and nothing kept: \(told)")
            #expect(await server.created == 2)
        }

        @Test("a new upload failed and resumed in the queue has no resumedFrom: its bytes are all the queue's")
        func resumedInTheQueue() async throws {
            let path = try file(256 << 10)
            defer { unlink(path) }
            // One try: request 4, the second chunk, is cut; the queue's second run goes on from the first.
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")), cutting: [4])
            var options = UploadOptions(chunkSize: 64 << 10, maxAttempts: 1, transport: server)
            options.largestTusChunk = 64 << 10
            let queue = UploadQueue(uploader: Uploader(journal: try journal(), options: options))
            let updates = queue.updates
            let id = await queue.add(.upload(path: path, to: .tus(endpoint: server.endpoint)))
            var failedAt: Int64?
            var final: UploadQueue.Item?
            for await item in updates where item.id == id {
                if case .failed = item.state {
                    failedAt = item.confirmed
                    await queue.resume(id)
                }
                if item.state == .done {
                    final = item
                    break
                }
            }
            let done = try #require(final)
            #expect(failedAt == 64 << 10)
            #expect(done.resumedFrom == nil, "the queue sent those bytes itself")
            #expect(await server.created == 1)
        }

        @Test("paused while a chunk goes, a tus upload shows and keeps what the server holds of it")
        func pausedMidChunk() async throws {
            let path = try file(256 << 10)
            defer { unlink(path) }
            // Requests 1 to 3 ask the extensions, create and send the first chunk; the server takes
            // half of the second, request 4, and waits.
            let server = InMemoryTusServer(
                endpoint: try #require(URL(string: "http://tus.test/files/")), stallingHalfway: [4])
            var options = UploadOptions(chunkSize: 64 << 10, transport: server)
            options.largestTusChunk = 64 << 10
            options.clock = TickingClock()
            let journalPath = Temporary.path("sending", suffix: ".sqlite")
            let queue = UploadQueue(uploader: Uploader(journal: try UploadJournal(path: journalPath), options: options))
            let updates = queue.updates
            let id = await queue.add(.upload(path: path, to: .tus(endpoint: server.endpoint)))
            var paused: UploadQueue.Item?
            for await item in updates where item.id == id {
                // Half of the second chunk sent: the request is in flight.
                if item.state == .uploading, item.sent > 64 << 10 { await queue.pause(id) }
                if item.state == .paused {
                    paused = item
                    break
                }
            }
            let item = try #require(paused)
            #expect(item.confirmed == (64 << 10) + (32 << 10), "the server's count, not the last confirmed chunk's")
            let uploadID = try #require(item.uploadID)
            let record = try #require(try await UploadJournal(path: journalPath).record(id: uploadID))
            #expect(record.offset == item.confirmed && record.state == .paused)
            await queue.close()
        }

        @Test("cancelled while its paused server is asked what it kept, the upload is cancelled, not left paused")
        func cancelledWhileAsked() async throws {
            let path = try file(256 << 10)
            defer { unlink(path) }
            // The second chunk (request 4) stalls halfway, and so does the pause's question (5).
            let server = InMemoryTusServer(
                endpoint: try #require(URL(string: "http://tus.test/files/")), stallingHalfway: [4, 5])
            var options = UploadOptions(chunkSize: 64 << 10, transport: server)
            options.largestTusChunk = 64 << 10
            options.clock = TickingClock()
            let queue = UploadQueue(uploader: Uploader(journal: try journal(), options: options))
            let updates = queue.updates
            let id = await queue.add(.upload(path: path, to: .tus(endpoint: server.endpoint)))
            var final: UploadQueue.Item?
            var stopped = false
            for await item in updates where item.id == id {
                if item.state == .uploading, item.sent > 64 << 10, !stopped {
                    stopped = true
                    await queue.pause(id)
                    // The question takes up to 2 s: cancelled meanwhile.
                    try await Task.sleep(nanoseconds: 300_000_000)
                    await queue.cancel(id)
                }
                if item.state.isSettled {
                    final = item
                    break
                }
            }
            #expect(final?.state == .cancelled, "\(String(describing: final?.state))")
            await queue.close()
        }

        @Test("a restored upload whose first run fails before the server answers takes resumedFrom from the next")
        func restoredFailingFirst() async throws {
            let path = try file(256 << 10)
            defer { unlink(path) }
            // Request 4, the second chunk, is cut; so is request 5, the restored run's first.
            let server = InMemoryTusServer(
                endpoint: try #require(URL(string: "http://tus.test/files/")), cutting: [4, 5])
            var options = UploadOptions(chunkSize: 64 << 10, maxAttempts: 1, transport: server)
            options.largestTusChunk = 64 << 10
            let journal = try journal()
            let failed = await Uploader(journal: journal, options: options)
                .upload(path: path, to: .tus(endpoint: server.endpoint))
            #expect(failed.offset == 64 << 10, "\(failed.why)")
            let queue = UploadQueue(uploader: Uploader(journal: journal, options: options))
            let updates = queue.updates
            let id = try #require(try await queue.restoreUnfinished().first)
            var final: UploadQueue.Item?
            for await item in updates where item.id == id {
                if case .failed = item.state {
                    #expect(item.resumedFrom == nil, "the server never answered that run")
                    await queue.resume(id)
                }
                if item.state == .done {
                    final = item
                    break
                }
            }
            #expect(final?.resumedFrom == 64 << 10)
        }

        @Test("an upload being paused is not handed to the background session: it settles paused, as asked")
        func pausedNotHandedOver() async throws {
            let path = try file(256 << 10)
            defer { unlink(path) }
            // The second chunk stalls halfway, and so does the pause's question.
            let server = InMemoryTusServer(
                endpoint: try #require(URL(string: "http://tus.test/files/")), stallingHalfway: [4, 5])
            var options = UploadOptions(chunkSize: 64 << 10, transport: server)
            options.largestTusChunk = 64 << 10
            options.clock = TickingClock()
            let queue = UploadQueue(uploader: Uploader(journal: try journal(), options: options))
            let updates = queue.updates
            let id = await queue.add(.upload(path: path, to: .tus(endpoint: server.endpoint)))
            for await item in updates where item.id == id && item.state == .uploading && item.sent > 64 << 10 {
                await queue.pause(id)
                break
            }
            // The app leaves the screen while the server is asked: the paused one is not handed over.
            let handed = await queue.yieldUnfinished()
            #expect(handed.isEmpty, "\(handed)")
            _ = await queue.waitUntilSettled()
            #expect(await queue.item(id)?.state == .paused)
            await queue.close()
        }

        @Test("the queue's item and its row follow the bytes sent, not only the confirmed ones")
        func queueRow() async throws {
            let path = try file(4 << 20)
            defer { unlink(path) }
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")))
            // One chunk for the whole file: nothing is confirmed until it lands.
            var options = UploadOptions(chunkSize: 4 << 20, transport: server)
            options.clock = TickingClock()
            let uploader = Uploader(journal: try journal(), options: options)
            let queue = UploadQueue(uploader: uploader)
            let updates = queue.updates
            await queue.add(.upload(path: path, to: .tus(endpoint: server.endpoint)))
            var midway: UploadQueue.Item?
            for await item in updates {
                if midway == nil, item.state == .uploading, item.sent > item.confirmed { midway = item }
                if item.state.isSettled { break }
            }
            let item = try #require(midway, "an update with bytes sent beyond the confirmed ones")
            #expect(item.confirmed == 0 && item.sent == 2 << 20)
            let row = UploadRow(item)
            #expect(row.progress == 0.5)
            #expect(row.status.hasPrefix("50%"), "\(row.status)")
        }
    }
}
