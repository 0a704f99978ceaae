import Foundation
import PickupHTTP
import PickupStore
import PickupTestSupport
import PickupUpload
import Testing

/// Uploads through a proxy that behaves like a bad network: connections cut
/// after random byte counts, a byte of a chunk flipped on the way. Real servers
/// on 127.0.0.1 behind it; the stored bytes' SHA-256 always equals the source's.
///
/// The plain-http cases run through every `Transport` (AsyncHTTPClient, and on Linux
/// URLSession through FoundationNetworking); the https one through AsyncHTTPClient only,
/// since FoundationNetworking cannot be given the test CA (see `Transport.trustingTestCA`).
@Suite("uploads over a bad network", .serialized)
struct BadNetworkTests {

    /// Collects an upload's events while it runs.
    func upload(_ task: UploadTask) async -> (UploadRecord, [UploadEvent]) {
        var events: [UploadEvent] = []
        for await event in task.events { events.append(event) }
        return (await task.result(), events)
    }

    @Test(
        "tus through 20 random cuts: the upload arrives whole, and each cut costs at most one chunk again",
        .timeLimit(.minutes(10)), arguments: Transport.allCases)
    func twentyCuts(transport: Transport) async throws {
        let server = try TusServer(.tuswsgi)
        let chunk = 256 << 10
        let proxy = try CuttingProxy(to: server.port, cuts: 20, gap: 150_000...450_000)
        let path = try UploadTestFiles.random(megabytes: 8)
        defer { Temporary.remove(path) }
        // A cut lands inside the next chunk when its gap is under a chunk (about 37% of them), and
        // the checksum server keeps nothing of a cut chunk: 12 tries in a row make an unlucky run
        // of cuts (0.37^12) too rare to fail the test; 6 failed about one CI run in twenty.
        let options = UploadOptions(
            chunkSize: chunk, maxAttempts: 12, baseDelay: 0.01, maxDelay: 0.05, stallTimeout: 5,
            transport: transport.make())
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: options)
        let endpoint = try #require(proxy.url("/files"))
        let (record, events) = await upload(uploader.start(path: path, to: .tus(endpoint: endpoint)))
        let why = events.compactMap { event -> String? in
            if case .retrying(_, let error, _) = event { return error.description }
            if case .progress(_, let confirmed, _, _) = event { return "confirmed \(confirmed)" }
            return nil
        }
        #expect(record.state == .done, "\(record.why); \(why.joined(separator: " | "))")
        #expect(proxy.cuts == 20)
        let retries = events.filter { if case .retrying = $0 { return true } else { return false } }.count
        #expect(retries >= 20, "each cut is noticed and retried")
        // Alone this takes about a second. Beside every other suite on two cores the in-process
        // cutting proxy is starved and cuts are found by the 5 s stall rule (109 s seen, 267 s on
        // a machine also building): the time limit above catches a hang only; how fast a cut is
        // noticed is measured by the shaped-link benchmark and decided by `StallRule`'s tests,
        // not by a timed test.
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        #expect(proxy.forwardedBytes - size <= 20 * chunk + 200_000, "at most one chunk sent again per cut")
        let remote = try #require(record.remote)
        #expect(UploadTestFiles.sha256(try server.stored(remote)) == (try UploadTestFiles.sha256(file: path)))
    }

    @Test("tus over https through 10 random cuts of the encrypted stream: arrives whole, each cut noticed at once")
    func cutsOverTLS() async throws {
        let certificate = try TestCertificate.make()
        let server = try TusServer(certificate: certificate)
        let chunk = 256 << 10
        let proxy = try CuttingProxy(to: server.port, cuts: 10, gap: 150_000...450_000)
        let path = try UploadTestFiles.random(megabytes: 4)
        defer { Temporary.remove(path) }
        let transport = AsyncHTTPTransport(caFile: certificate.certificate)
        let options = UploadOptions(
            chunkSize: chunk, maxAttempts: 12, baseDelay: 0.01, maxDelay: 0.05, stallTimeout: 5, transport: transport)
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: options)
        let endpoint = try #require(URL(string: "https://127.0.0.1:\(proxy.port)/files"))
        let (record, events) = await upload(uploader.start(path: path, to: .tus(endpoint: endpoint)))
        await transport.shutdown()
        #expect(record.state == .done, "\(record.why)")
        #expect(proxy.cuts == 10)
        let stalls = events.filter {
            if case .retrying(_, let error, _) = $0 { return error.message.contains("stalled") }
            return false
        }
        #expect(stalls.isEmpty, "a reset over TLS is noticed at once, not by waiting for a stall")
        #expect(record.remote?.hasPrefix("https://") == true)
        let remote = try #require(record.remote)
        #expect(UploadTestFiles.sha256(try server.stored(remote)) == (try UploadTestFiles.sha256(file: path)))
    }

    @Test("a chunk corrupted on the way is refused by the server (460) and sent again", arguments: Transport.allCases)
    func corruptedChunk(transport: Transport) async throws {
        let server = try TusServer(.tuswsgi)
        // Past the first chunk's 128 KiB and the requests before it: inside the second chunk's body.
        let proxy = try CuttingProxy(to: server.port, cuts: 0, gap: 1...1, corruptAt: 200_000)
        let path = try UploadTestFiles.random(megabytes: 1)
        defer { Temporary.remove(path) }
        let options = UploadOptions(
            chunkSize: 128 << 10, maxAttempts: 4, baseDelay: 0.01, maxDelay: 0.05, transport: transport.make())
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: options)
        let endpoint = try #require(proxy.url("/files"))
        let (record, events) = await upload(uploader.start(path: path, to: .tus(endpoint: endpoint)))
        #expect(proxy.didCorrupt)
        #expect(record.state == .done, "\(record.why)")
        let refused = events.contains {
            if case .retrying(_, let error, _) = $0 { return error.code == .checksumMismatch && error.status == 460 }
            return false
        }
        #expect(refused, "the server answered 460 and the chunk was sent again")
        let remote = try #require(record.remote)
        #expect(UploadTestFiles.sha256(try server.stored(remote)) == (try UploadTestFiles.sha256(file: path)))
    }

    @Test(
        "without checksums the corrupted chunk would be stored: the test above can fail", arguments: Transport.allCases)
    func corruptedWithoutChecksums(transport: Transport) async throws {
        let server = try TusServer(.tuswsgi)
        let proxy = try CuttingProxy(to: server.port, cuts: 0, gap: 1...1, corruptAt: 200_000)
        let path = try UploadTestFiles.random(megabytes: 1)
        defer { Temporary.remove(path) }
        var options = UploadOptions(
            chunkSize: 128 << 10, maxAttempts: 4, baseDelay: 0.01, maxDelay: 0.05, transport: transport.make())
        options.tusChecksums = false
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: options)
        let record = await uploader.upload(path: path, to: .tus(endpoint: try #require(proxy.url("/files"))))
        #expect(proxy.didCorrupt && record.state == .done)
        let remote = try #require(record.remote)
        #expect(UploadTestFiles.sha256(try server.stored(remote)) != (try UploadTestFiles.sha256(file: path)))
    }

    @Test(
        "S3 multipart through random cuts: parts resent, ListParts consulted, the object arrives whole",
        arguments: Transport.allCases)
    func s3Cuts(transport: Transport) async throws {
        let server = try SeaweedServer()
        let proxy = try CuttingProxy(to: server.s3Port, cuts: 5, gap: 2_000_000...6_000_000)
        let path = try UploadTestFiles.random(megabytes: 24)
        defer { Temporary.remove(path) }
        let credentials = S3Credentials(accessKey: server.accessKey, secretKey: server.secretKey)
        let options = UploadOptions(
            chunkSize: 5 << 20, maxAttempts: 6, baseDelay: 0.01, maxDelay: 0.05, stallTimeout: 3,
            transport: transport.make())
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: options, s3Credentials: credentials)
        let location = S3Location(endpoint: try #require(proxy.url("")), bucket: server.bucket, key: "cut.bin")
        let (record, _) = await upload(uploader.start(path: path, to: .s3(location)))
        #expect(record.state == .done, "\(record.why)")
        #expect(proxy.cuts == 5)
        #expect(UploadTestFiles.sha256(try server.object("cut.bin")) == (try UploadTestFiles.sha256(file: path)))
    }
}
