import Foundation
import PickupStore
import PickupTestSupport
import PickupUpload
import Testing

extension FastTier {
    /// S3 uploads, in milliseconds: through an in-memory store that answers as the S3 API Reference
    /// says and checks every signature (S3UploadTests runs the same code against SeaweedFS).
    @Suite("S3 uploads through an in-memory store: one PUT, parts, resume, retries, refusals")
    struct S3FastTests {
        static let credentials = S3Credentials(
            accessKey: "AKIDFAST", secretKey: "fast-tier-secret", region: "eu-west-3")

        /// A file of `bytes` bytes of a known pattern in the temporary folder; the caller removes it.
        func file(_ bytes: Int) throws -> String {
            let path = Temporary.path("s3fast", suffix: ".bin")
            // A block of a prime length, repeated: no two 5 MiB parts alike, and quick to make.
            var block = Data(count: min(bytes, 65_521))
            block.withUnsafeMutableBytes { buffer in
                for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index &* 7 &+ index >> 13) }
            }
            var data = Data(capacity: bytes)
            while data.count < bytes { data.append(block.prefix(bytes - data.count)) }
            try data.write(to: URL(fileURLWithPath: path))
            return path
        }

        func store(
            minimumPartSize: Int = 5 << 20, listPage: Int = 1_000, cutting: Set<Int> = [], losing: Set<Int> = [],
            failing: [Int: InMemoryS3Server.Failure] = [:]
        ) throws -> InMemoryS3Server {
            InMemoryS3Server(
                endpoint: try #require(URL(string: "http://s3.test")), credentials: S3FastTests.credentials,
                minimumPartSize: minimumPartSize, listPage: listPage, cutting: cutting, losing: losing,
                failing: failing)
        }

        func uploader(
            _ store: InMemoryS3Server, journal: String? = nil, maxAttempts: Int = 8, partConcurrency: Int = 4,
            chunkSize: Int = 5 << 20
        ) throws -> Uploader {
            let path =
                journal
                ?? Temporary.path("s3fast", suffix: ".sqlite")
            return Uploader(
                journal: try UploadJournal(path: path),
                options: UploadOptions(
                    chunkSize: chunkSize, maxAttempts: maxAttempts, baseDelay: 0.01, maxDelay: 0.02, transport: store,
                    partConcurrency: partConcurrency),
                s3Credentials: S3FastTests.credentials)
        }

        func location(_ store: InMemoryS3Server, _ key: String) -> S3Location {
            S3Location(endpoint: store.endpoint, bucket: "photos", key: key)
        }

        func contents(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

        @Test("a file below the multipart threshold goes in one signed PUT; the object equals it, with its type")
        func singlePut() async throws {
            let path = try file(300_000)
            defer { unlink(path) }
            let store = try store()
            let record = try await uploader(store).upload(
                path: path, to: .s3(location(store, "2026/small one.jpg")), type: "image/jpeg")
            #expect(record.state == .done, "\(record.why)")
            #expect(record.remote == nil, "no multipart upload")
            #expect(await store.log == ["PUT /photos/2026/small one.jpg"])
            let object = try #require(await store.object("photos", "2026/small one.jpg"))
            #expect(object.bytes == (try contents(path)))
            #expect(object.type == "image/jpeg")
        }

        @Test("a file above the threshold goes in 5 MiB parts, completed with what the store lists")
        func multipart() async throws {
            let path = try file(11 << 20)
            defer { unlink(path) }
            let store = try store()
            let record = try await uploader(store).upload(path: path, to: .s3(location(store, "big.bin")))
            #expect(record.state == .done, "\(record.why)")
            let uploadID = try #require(record.remote)
            let object = try #require(await store.object("photos", "big.bin"))
            #expect(object.bytes == (try contents(path)))
            #expect(object.etag.hasSuffix("-3\""), "an ETag of 3 parts: \(object.etag)")
            let log = await store.log
            #expect(log.first == "POST /photos/big.bin?uploads")
            #expect(log.filter { $0.hasPrefix("PUT /photos/big.bin?partNumber=") }.count == 3, "\(log)")
            #expect(log.suffix(2).first?.hasPrefix("GET /photos/big.bin?uploadId=") == true, "\(log)")
            #expect(log.last?.hasPrefix("POST /photos/big.bin?uploadId=") == true, "\(log)")
            #expect(await store.openUploads == 0)
            #expect(await store.parts(of: uploadID).isEmpty, "the parts became the object")
        }

        @Test("cut at its second part, the upload fails; resumed by a new uploader it lists the parts, sends the rest")
        func resumeAfterCut() async throws {
            let path = try file(11 << 20)
            defer { unlink(path) }
            // One part at a time: 1 starts the upload, 2 sends part 1, 3 (part 2) is cut.
            let store = try store(cutting: [3])
            let journal = Temporary.path("s3fast", suffix: ".sqlite")
            let failed = try await uploader(store, journal: journal, maxAttempts: 1, partConcurrency: 1)
                .upload(path: path, to: .s3(location(store, "resumed.bin")))
            #expect(failed.state == .failed)
            #expect(failed.error?.code == .network, "\(failed.why)")
            #expect(failed.offset == 5 << 20, "part 1 confirmed")
            let uploadID = try #require(failed.remote)
            #expect(await store.parts(of: uploadID) == [1])
            let before = await store.log.count

            // Resumed by a run with another part size: the upload's own, from the journal, is kept
            // (with 8 MB parts, the 5 MB part 1 would not be usable, and every part sent again).
            let resumed = try await uploader(store, journal: journal, partConcurrency: 1, chunkSize: 8 << 20)
                .resume(id: failed.id).result()
            #expect(resumed.state == .done, "\(resumed.why)")
            #expect(resumed.remote == uploadID, "the same multipart upload, continued")
            #expect(await store.object("photos", "resumed.bin")?.bytes == (try contents(path)))
            let again = await store.log.dropFirst(before).map { $0.split(separator: "&").first.map(String.init) ?? $0 }
            let listing = "GET /photos/resumed.bin?uploadId=\(uploadID)"
            #expect(
                again == [
                    listing, "PUT /photos/resumed.bin?partNumber=2", "PUT /photos/resumed.bin?partNumber=3", listing,
                    "POST /photos/resumed.bin?uploadId=\(uploadID)",
                ], "only the missing parts are sent: \(again)")
        }

        @Test("a part the store took whose answer was lost is listed, not sent again")
        func lostAnswer() async throws {
            let path = try file(11 << 20)
            defer { unlink(path) }
            // 3 (part 2) is stored, then its answer is lost: the retry's ListParts shows parts 1 and 2.
            let store = try store(losing: [3])
            let record = try await uploader(store, partConcurrency: 1).upload(
                path: path, to: .s3(location(store, "l.bin")))
            #expect(record.state == .done, "\(record.why)")
            #expect(await store.object("photos", "l.bin")?.bytes == (try contents(path)))
            let parts = await store.log.filter { $0.hasPrefix("PUT /photos/l.bin?partNumber=") }
                .compactMap { $0.split(separator: "&").first.map(String.init) }
            #expect(
                parts == [
                    "PUT /photos/l.bin?partNumber=1", "PUT /photos/l.bin?partNumber=2",
                    "PUT /photos/l.bin?partNumber=3",
                ])
        }

        @Test("503 SlowDown and 500 InternalError are retried, with the status on the retry event")
        func retried() async throws {
            let path = try file(200_000)
            defer { unlink(path) }
            let store = try store(failing: [1: .slowDown, 2: .internalError])
            let task = try uploader(store).start(path: path, to: .s3(location(store, "retried.bin")))
            let record = await task.result()
            var statuses: [Int?] = []
            for await event in task.events {
                if case .retrying(_, let error, _) = event { statuses.append(error.status) }
            }
            #expect(record.state == .done, "\(record.why)")
            #expect(statuses == [503, 500])
            #expect(await store.log.count == 3)
            #expect(await store.object("photos", "retried.bin")?.bytes == (try contents(path)))
        }

        @Test("403 AccessDenied fails at once, naming the step and the code, never retried")
        func refused() async throws {
            let path = try file(200_000)
            defer { unlink(path) }
            let store = try store(failing: [1: .accessDenied])
            let record = try await uploader(store).upload(path: path, to: .s3(location(store, "no.bin")))
            #expect(record.state == .failed)
            let error = try #require(record.error)
            #expect(error.code == .unauthorized)
            #expect(error.status == 403)
            #expect(error.message == "sending the object failed: AccessDenied")
            #expect(await store.log.count == 1)
        }

        @Test("wrong credentials: the store's own signature check refuses them, 403 SignatureDoesNotMatch")
        func wrongSecret() async throws {
            let path = try file(1_000)
            defer { unlink(path) }
            let store = try store()
            let wrong = S3Credentials(accessKey: "AKIDFAST", secretKey: "not-the-secret", region: "eu-west-3")
            let uploader = Uploader(
                journal: try UploadJournal(
                    path: Temporary.path("s3f", suffix: ".sqlite")),
                options: UploadOptions(transport: store), s3Credentials: wrong)
            let record = await uploader.upload(path: path, to: .s3(location(store, "x.bin")))
            #expect(record.error?.code == .unauthorized)
            #expect(record.error?.message == "sending the object failed: SignatureDoesNotMatch")
            #expect(await store.object("photos", "x.bin") == nil)
        }

        @Test("a store whose minimum part is larger refuses the completion (400 EntityTooSmall): a clear, final error")
        func entityTooSmall() async throws {
            let path = try file(11 << 20)
            defer { unlink(path) }
            let store = try store(minimumPartSize: 6 << 20)
            let record = try await uploader(store).upload(path: path, to: .s3(location(store, "small-parts.bin")))
            #expect(record.state == .failed)
            #expect(record.error?.code == .server)
            #expect(record.error?.status == 400)
            #expect(record.error?.message == "completing the upload failed: EntityTooSmall")
            #expect(await store.log.filter { $0.hasPrefix("POST /photos/small-parts.bin?uploadId=") }.count == 1)
            #expect(await store.object("photos", "small-parts.bin") == nil)
        }

        @Test(
            "a batch run again is already there (the store's HEAD says so): nothing sent; an object the store lost is sent again"
        )
        func alreadyThere() async throws {
            let paths = [try file(100_000), try file(150_000)]
            defer { for path in paths { unlink(path) } }
            let store = try store()
            let uploader = try uploader(store)
            let target = UploadBatch.Target.s3(
                endpoint: store.endpoint, bucket: "photos", prefix: "2026", key: try RemoteKey.parse("{name}").get())
            let files = paths.map {
                UploadBatch.File(path: $0, facts: RemoteKey.Facts(relativePath: ($0 as NSString).lastPathComponent))
            }
            var first = try UploadBatch(files: files, to: target)
            let queue = UploadQueue(uploader: uploader)
            #expect(await first.enqueue(on: queue).isEmpty)
            let items = await queue.waitUntilSettled()
            await first.recordFinished(items, in: uploader.journal)
            #expect(items.map(\.state) == [.done, .done])
            let sent = await store.log.count

            var second = try UploadBatch(files: files, to: target)
            let again = UploadQueue(uploader: uploader)
            #expect(Set(await second.enqueue(on: again, check: true).keys) == [0, 1])
            #expect(await again.all().isEmpty)
            #expect(await store.log.dropFirst(sent).map { $0.prefix(5) } == ["HEAD ", "HEAD "])

            let lostKey = "2026/" + (paths[0] as NSString).lastPathComponent
            await store.remove("photos", lostKey)
            var third = try UploadBatch(files: files, to: target)
            let resend = UploadQueue(uploader: uploader)
            #expect(Set(await third.enqueue(on: resend, check: true).keys) == [1])
            #expect(Set(third.lost.keys) == [0])
            #expect(await resend.waitUntilSettled().map(\.state) == [.done])
            #expect(await store.object("photos", lostKey)?.bytes == (try contents(paths[0])))
        }

        @Test("a store that lists one part a page: the client follows NextPartNumberMarker to the end")
        func pagedListing() async throws {
            let path = try file(11 << 20)
            defer { unlink(path) }
            let store = try store(listPage: 1)
            let key = "2026/été+plage/vidéo 1.mov"
            let record = try await uploader(store).upload(path: path, to: .s3(location(store, key)))
            #expect(record.state == .done, "\(record.why)")
            #expect(await store.object("photos", key)?.bytes == (try contents(path)))
            let markers = await store.log.filter { $0.hasPrefix("GET ") }.compactMap { $0.split(separator: "&").last }
            #expect(markers == ["part-number-marker=0", "part-number-marker=1", "part-number-marker=2"])
        }

        @Test("a completion answered 200 with an InternalError in its body is retried, as S3 documents")
        func errorInsideOK() async throws {
            let path = try file(11 << 20)
            defer { unlink(path) }
            // 1 starts, 2-4 send the parts, 5 lists them, 6 completes: answered 200 with an <Error>.
            let store = try store(failing: [6: InMemoryS3Server.Failure(status: 200, code: "InternalError")])
            let record = try await uploader(store, partConcurrency: 1).upload(
                path: path, to: .s3(location(store, "ok.bin")))
            #expect(record.state == .done, "\(record.why)")
            #expect(await store.object("photos", "ok.bin")?.bytes == (try contents(path)))
            #expect(await store.log.filter { $0.hasPrefix("POST /photos/ok.bin?uploadId=") }.count == 2)
        }

        @Test("cancelling a failed multipart upload aborts it on the store: its parts are freed")
        func cancelAborts() async throws {
            let path = try file(11 << 20)
            defer { unlink(path) }
            let store = try store(cutting: [3])
            let uploader = try uploader(store, maxAttempts: 1, partConcurrency: 1)
            let failed = await uploader.upload(path: path, to: .s3(location(store, "gone.bin")))
            let uploadID = try #require(failed.remote)
            #expect(await store.openUploads == 1)
            let cancelled = await uploader.cancel(id: failed.id)
            #expect(cancelled?.state == .cancelled)
            #expect(await store.log.last == "DELETE /photos/gone.bin?uploadId=\(uploadID)")
            #expect(await store.openUploads == 0)
            #expect(await store.parts(of: uploadID).isEmpty)
        }

        /// A transport that flips one byte of every body on its way to the store.
        struct Corrupting: HTTPTransport {
            let store: InMemoryS3Server

            func send(_ request: HTTPRequest, limits: HTTPLimits) async throws(UploadError) -> HTTPResponse {
                var bytes = try request.body.materialized()
                if !bytes.isEmpty { bytes[bytes.count / 2] ^= 0xFF }
                var corrupted = request
                corrupted.body = .data(bytes)
                return try await store.send(corrupted, limits: limits)
            }
        }

        @Test("a body corrupted on the way fails the signed SHA-256 (400 XAmzContentSHA256Mismatch): nothing stored")
        func corruptedOnTheWay() async throws {
            let path = try file(50_000)
            defer { unlink(path) }
            let store = try store()
            let uploader = Uploader(
                journal: try UploadJournal(
                    path: Temporary.path("s3f", suffix: ".sqlite")),
                options: UploadOptions(transport: Corrupting(store: store)), s3Credentials: S3FastTests.credentials)
            let record = await uploader.upload(path: path, to: .s3(location(store, "bent.bin")))
            #expect(record.state == .failed)
            #expect(record.error?.status == 400)
            #expect(record.error?.message == "sending the object failed: XAmzContentSHA256Mismatch")
            #expect(await store.object("photos", "bent.bin") == nil)
            #expect(await store.log.count == 1)
        }
    }
}
