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
        defer { Temporary.remove(path) }
        let credentials = S3Credentials(accessKey: server.accessKey, secretKey: server.secretKey)
        let uploader = Uploader(
            journal: try UploadTestFiles.journal(), options: UploadOptions(chunkSize: 5 << 20),
            s3Credentials: credentials)
        let location = S3Location(endpoint: server.endpoint, bucket: server.bucket, key: "2026/random.bin")
        let record = await uploader.upload(path: path, to: .s3(location))
        #expect(record.state == .done, "\(record.why)")
        #expect(record.target == "s3://photos/2026/random.bin at http://127.0.0.1:\(server.s3Port)")
        #expect(record.destination == .s3(location))
        #expect(
            UploadTestFiles.sha256(try server.object("2026/random.bin")) == (try UploadTestFiles.sha256(file: path)))
    }

    @Test("a file below the multipart threshold goes in one PUT; at threshold 0, in parts")
    func smallFileInOnePut() async throws {
        let server = try SeaweedServer()
        let path = try UploadTestFiles.random(megabytes: 1)
        defer { Temporary.remove(path) }
        let credentials = S3Credentials(accessKey: server.accessKey, secretKey: server.secretKey)
        let uploader = Uploader(journal: try UploadTestFiles.journal(), s3Credentials: credentials)
        let location = S3Location(endpoint: server.endpoint, bucket: server.bucket, key: "small.bin")
        let record = await uploader.upload(path: path, to: .s3(location))
        #expect(record.state == .done, "\(record.why)")
        #expect(record.remote == nil)  // no multipart upload was made
        #expect(UploadTestFiles.sha256(try server.object("small.bin")) == (try UploadTestFiles.sha256(file: path)))

        var options = UploadOptions()
        options.multipartThreshold = 0
        let inParts = Uploader(journal: try UploadTestFiles.journal(), options: options, s3Credentials: credentials)
        let parts = S3Location(endpoint: server.endpoint, bucket: server.bucket, key: "parts.bin")
        let multipart = await inParts.upload(path: path, to: .s3(parts))
        #expect(multipart.state == .done, "\(multipart.why)")
        #expect(multipart.remote != nil)  // the multipart upload's id
        #expect(UploadTestFiles.sha256(try server.object("parts.bin")) == (try UploadTestFiles.sha256(file: path)))
    }

    @Test("an empty file goes in one PUT too")
    func emptyFileInOnePut() async throws {
        let server = try SeaweedServer()
        let path = Temporary.path("empty")
        try Data().write(to: URL(fileURLWithPath: path))
        defer { Temporary.remove(path) }
        let credentials = S3Credentials(accessKey: server.accessKey, secretKey: server.secretKey)
        let uploader = Uploader(journal: try UploadTestFiles.journal(), s3Credentials: credentials)
        let location = S3Location(endpoint: server.endpoint, bucket: server.bucket, key: "empty.bin")
        let record = await uploader.upload(path: path, to: .s3(location))
        #expect(record.state == .done, "\(record.why)")
        #expect(try server.object("empty.bin").isEmpty)
    }

    @Test("cancelled after a part, resumed from the store's part list by a new uploader")
    func resume() async throws {
        let server = try SeaweedServer()
        let path = try UploadTestFiles.random(megabytes: 16)
        defer { Temporary.remove(path) }
        let credentials = S3Credentials(accessKey: server.accessKey, secretKey: server.secretKey)
        let journalPath = Temporary.path("s3-j", suffix: ".sqlite")
        // One part at a time, so that the cancel lands between parts.
        let first = Uploader(
            journal: try UploadJournal(path: journalPath),
            options: UploadOptions(chunkSize: 5 << 20, partConcurrency: 1),
            s3Credentials: credentials)
        let location = S3Location(endpoint: server.endpoint, bucket: server.bucket, key: "resumed.bin")
        let task = first.start(path: path, to: .s3(location))
        for await event in task.events {
            if case .progress = event {
                task.cancel()
                break
            }
        }
        let stopped = await task.result()
        #expect(stopped.state == .cancelled)
        #expect(stopped.offset >= 5 << 20 && stopped.offset < stopped.size)
        let second = Uploader(
            journal: try UploadJournal(path: journalPath), options: UploadOptions(chunkSize: 5 << 20),
            s3Credentials: credentials)
        let finished = await second.resume(id: stopped.id).result()
        #expect(finished.state == .done, "\(finished.why)")
        #expect(finished.remote == stopped.remote)
        #expect(UploadTestFiles.sha256(try server.object("resumed.bin")) == (try UploadTestFiles.sha256(file: path)))
    }

    @Test("wrong credentials: a clear error at once, no retry storm, nothing secret in it")
    func wrongCredentials() async throws {
        let server = try SeaweedServer()
        let credentials = S3Credentials(accessKey: server.accessKey, secretKey: "not-the-secret")
        let uploader = Uploader(
            journal: try UploadTestFiles.journal(), options: UploadOptions(maxAttempts: 8, baseDelay: 1),
            s3Credentials: credentials)
        let task = uploader.start(
            path: try Fixtures.path(.jpegPlain),
            to: .s3(S3Location(endpoint: server.endpoint, bucket: server.bucket, key: "x.jpg")))
        let record = await task.result()
        var retries = 0
        for await event in task.events { if case .retrying = event { retries += 1 } }
        #expect(record.state == .failed)
        #expect(record.why.contains("refused") == true || record.why.contains("credentials") == true)
        #expect(record.why.contains("not-the-secret") == false)
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
        defer { Temporary.remove(path) }
        let backend = Backend(S3Credentials(accessKey: server.accessKey, secretKey: server.secretKey))
        let uploader = Uploader(
            journal: try UploadTestFiles.journal(), options: UploadOptions(chunkSize: 5 << 20), s3Signer: backend)
        let location = S3Location(endpoint: server.endpoint, bucket: server.bucket, key: "signed/movie.bin")
        let record = await uploader.upload(path: path, to: .s3Presigned(location))
        #expect(record.state == .done, "\(record.why)")
        #expect(
            UploadTestFiles.sha256(try server.object("signed/movie.bin")) == (try UploadTestFiles.sha256(file: path)))
        let asked = await backend.asked
        #expect(asked.first == "POST uploads")
        #expect(asked.filter { $0 == "PUT partNumber&uploadId" }.count == 3)
        #expect(asked.last == "POST uploadId")

        let forged = Backend(S3Credentials(accessKey: server.accessKey, secretKey: "wrong"))
        let task = Uploader(
            journal: try UploadTestFiles.journal(), options: UploadOptions(baseDelay: 1), s3Signer: forged
        ).start(path: path, to: .s3Presigned(location))
        let refused = await task.result()
        var retries = 0
        for await event in task.events { if case .retrying = event { retries += 1 } }
        #expect(refused.state == .failed && refused.why.contains("HTTP 403") == true, "\(refused.why)")
        #expect(retries == 0, "no retries with a bad signature")
        #expect(refused.why.contains("X-Amz-Signature") == false)
    }
}
