import Foundation
import PickupStore
import PickupTestSupport
import PickupUpload
import Testing

/// Multipart uploads to a real S3-compatible store (SeaweedFS) on 127.0.0.1.
@Suite("S3 multipart uploads", .serialized)
struct S3UploadTests {

    @Test("part sizes: 5 MiB at least, 10,000 parts at most, whole MiB")
    func partSizes() {
        #expect(Uploader.partSize(for: 1_000, preferred: 1 << 20) == 5 << 20)
        #expect(Uploader.partSize(for: 10 << 30, preferred: 8 << 20) == 8 << 20)
        let huge: Int64 = 1 << 40  // 1 TiB
        let part = Uploader.partSize(for: huge, preferred: 8 << 20)
        #expect(part % (1 << 20) == 0)
        #expect((huge + part - 1) / part <= 10_000)
    }

    @Test("a file goes up in parts and the stored object equals it")
    func multipart() async throws {
        let server = try SeaweedServer()
        let path = try UploadTestFiles.random(megabytes: 12)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let credentials = S3Credentials(accessKey: server.accessKey, secretKey: server.secretKey)
        let uploader = Uploader(
            journal: try UploadTestFiles.journal(), options: UploadOptions(chunkSize: 5 << 20),
            s3Credentials: credentials)
        let location = S3Location(endpoint: server.endpoint, bucket: server.bucket, key: "2026/random.bin")
        let record = await uploader.upload(path: path, to: location, credentials: credentials)
        #expect(record.state == .done, "\(record.error ?? "")")
        #expect(record.target == "s3+http://127.0.0.1:\(server.s3Port)/photos/2026/random.bin")
        #expect(
            UploadTestFiles.sha256(try server.object("2026/random.bin")) == (try UploadTestFiles.sha256(file: path)))
    }

    @Test("cancelled after a part, resumed from the store's part list by a new uploader")
    func resume() async throws {
        let server = try SeaweedServer()
        let path = try UploadTestFiles.random(megabytes: 16)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let credentials = S3Credentials(accessKey: server.accessKey, secretKey: server.secretKey)
        let journalPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pickup-s3-j-\(UUID().uuidString).sqlite"
        ).path
        let first = Uploader(
            journal: try UploadJournal(path: journalPath), options: UploadOptions(chunkSize: 5 << 20),
            s3Credentials: credentials)
        let location = S3Location(endpoint: server.endpoint, bucket: server.bucket, key: "resumed.bin")
        let (events, continuation) = AsyncStream<UploadEvent>.makeStream()
        let task = Task { await first.upload(path: path, to: location, credentials: credentials, events: continuation) }
        for await event in events {
            if case .progress = event {
                task.cancel()
                break
            }
        }
        let stopped = await task.value
        continuation.finish()
        #expect(stopped.state == .cancelled)
        #expect(stopped.offset >= 5 << 20 && stopped.offset < stopped.size)
        let second = Uploader(
            journal: try UploadJournal(path: journalPath), options: UploadOptions(chunkSize: 5 << 20),
            s3Credentials: credentials)
        let finished = try #require(await second.resume(id: stopped.id))
        #expect(finished.state == .done, "\(finished.error ?? "")")
        #expect(finished.remote == stopped.remote)
        #expect(UploadTestFiles.sha256(try server.object("resumed.bin")) == (try UploadTestFiles.sha256(file: path)))
    }

    @Test("wrong credentials: a clear error at once, no retry storm, nothing secret in it")
    func wrongCredentials() async throws {
        let server = try SeaweedServer()
        let credentials = S3Credentials(accessKey: server.accessKey, secretKey: "not-the-secret")
        let uploader = Uploader(
            journal: try UploadTestFiles.journal(), options: UploadOptions(maxAttempts: 8, baseDelay: 1))
        let (events, continuation) = AsyncStream<UploadEvent>.makeStream()
        let record = await uploader.upload(
            path: try Fixtures.path(.jpegPlain),
            to: S3Location(endpoint: server.endpoint, bucket: server.bucket, key: "x.jpg"),
            credentials: credentials, events: continuation)
        continuation.finish()
        var retries = 0
        for await event in events { if case .retrying = event { retries += 1 } }
        #expect(record.state == .failed)
        #expect(record.error?.contains("refused") == true || record.error?.contains("credentials") == true)
        #expect(record.error?.contains("not-the-secret") == false)
        #expect(retries == 0, "no retries with wrong credentials")
    }

    /// A backend that presigns each request, counting what it was asked for.
    actor Backend: S3URLSigner {
        let presigner: S3Presigner
        var asked: [String] = []

        init(_ credentials: S3Credentials) { presigner = S3Presigner(credentials: credentials, expires: 60) }

        nonisolated func presignedURL(
            method: String, location: S3Location, query: [(String, String)]
        ) async throws
            -> URL
        {
            await record(method + " " + query.map(\.0).joined(separator: "&"))
            return try await presigner.presignedURL(method: method, location: location, query: query)
        }

        func record(_ request: String) { asked.append(request) }
    }

    @Test("presigned URLs from a backend: no credentials in the uploader, parts listed and completed, object whole")
    func presigned() async throws {
        let server = try SeaweedServer()
        let path = try UploadTestFiles.random(megabytes: 12)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let backend = Backend(S3Credentials(accessKey: server.accessKey, secretKey: server.secretKey))
        let uploader = Uploader(
            journal: try UploadTestFiles.journal(), options: UploadOptions(chunkSize: 5 << 20), s3Signer: backend)
        let location = S3Location(endpoint: server.endpoint, bucket: server.bucket, key: "signed/movie.bin")
        let record = await uploader.upload(path: path, to: location, signer: backend)
        #expect(record.state == .done, "\(record.error ?? "")")
        #expect(
            UploadTestFiles.sha256(try server.object("signed/movie.bin")) == (try UploadTestFiles.sha256(file: path)))
        let asked = await backend.asked
        #expect(asked.first == "POST uploads")
        #expect(asked.filter { $0 == "PUT partNumber&uploadId" }.count == 3)
        #expect(asked.last == "POST uploadId")

        let forged = Backend(S3Credentials(accessKey: server.accessKey, secretKey: "wrong"))
        let (events, continuation) = AsyncStream<UploadEvent>.makeStream()
        let refused = await Uploader(journal: try UploadTestFiles.journal(), options: UploadOptions(baseDelay: 1))
            .upload(path: path, to: location, signer: forged, events: continuation)
        continuation.finish()
        var retries = 0
        for await event in events { if case .retrying = event { retries += 1 } }
        #expect(refused.state == .failed && refused.error?.contains("HTTP 403") == true, "\(refused.error ?? "")")
        #expect(retries == 0, "no retries with a bad signature")
        #expect(refused.error?.contains("X-Amz-Signature") == false)
    }
}
