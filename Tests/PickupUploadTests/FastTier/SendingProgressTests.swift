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
