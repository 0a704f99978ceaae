import Foundation
import PickupTestSupport
import Testing

@testable import PickupHTTP
@testable import PickupUpload

/// Servers that attack the client, on 127.0.0.1 (and a second "other host" on 127.0.0.2),
/// over http and https: no credential leaves its host, no answer crashes, exhausts or hangs
/// Pickup, and nothing the server says makes a failed upload look done.
///
/// The http cases run through every `Transport` (AsyncHTTPClient, and on Linux URLSession
/// through FoundationNetworking); the https ones through the transports that can be given
/// the test CA, AsyncHTTPClient alone (`Transport.trustingTestCA`).
@Suite("hostile servers", .serialized)
struct HostileServerTests {
    static let secret = "Bearer hostile-test-s3cret"
    static let credentials = S3Credentials(
        accessKey: "AKIAHOSTILETEST", secretKey: "hostile-secret-key", sessionToken: "hostile-session-token")

    /// Where a case runs: http or https, through which transport.
    struct Wire: Sendable, CustomTestStringConvertible {
        let https: Bool
        let transport: Transport

        /// http through every transport, https through those that trust the test CA.
        static let all =
            Transport.allCases.map { Wire(https: false, transport: $0) }
            + Transport.trustingTestCA.map { Wire(https: true, transport: $0) }

        var testDescription: String { (https ? "https, " : "http, ") + transport.rawValue }
    }

    /// A server (and the other host it points to) over http or https, and a transport that
    /// trusts the test certificate.
    struct Setting {
        let server: HostileServer
        let other: HostileServer
        let transport: any HTTPTransport

        init(https: Bool, transport kind: Transport = .asyncHTTP) throws {
            let certificate = https ? try TestCertificate.make() : nil
            other = try HostileServer(host: "127.0.0.2", certificate: certificate)
            server = try HostileServer(certificate: certificate, other: other.origin)
            transport = kind.make(caFile: certificate?.certificate)
        }

        init(_ wire: Wire) throws { try self.init(https: wire.https, transport: wire.transport) }

        func uploader(attempts: Int = 1, stall: Double = 20) throws -> Uploader {
            var options = UploadOptions(
                chunkSize: 64 << 10, maxAttempts: attempts, baseDelay: 0.01, maxDelay: 0.02, stallTimeout: stall,
                headers: ["Authorization": HostileServerTests.secret], transport: transport)
            // The hostile S3 behaviours are multipart ones, even for a small photo.
            options.multipartThreshold = 0
            return Uploader(
                journal: try UploadTestFiles.journal(), options: options, s3Credentials: HostileServerTests.credentials)
        }
    }

    enum Kind: String, CaseIterable { case tus, s3, form }

    func upload(
        _ kind: Kind, _ behaviour: String, in setting: Setting, file: String? = nil, attempts: Int = 1,
        stall: Double = 20
    ) async throws -> UploadRecord {
        let uploader = try setting.uploader(attempts: attempts, stall: stall)
        let path = try file ?? Fixtures.path(.jpegPlain)
        let url = setting.server.url(behaviour)
        switch kind {
        case .tus: return await uploader.upload(path: path, to: .tus(endpoint: url))
        case .form: return await uploader.upload(path: path, to: .form(FormTarget(url: url)))
        case .s3:
            let location = S3Location(
                endpoint: URL(string: setting.server.origin + "/" + behaviour) ?? url, bucket: "b", key: "k.jpg")
            return await uploader.upload(path: path, to: .s3(location))
        }
    }

    /// Nothing of a credential in the text.
    func expectNoSecret(_ text: String, _ context: String) {
        for secret in [
            "hostile-test-s3cret", "AKIAHOSTILETEST", "hostile-secret-key", "hostile-session-token", "Signature=",
        ] {
            #expect(!text.contains(secret), "\(context) shows \(secret): \(text)")
        }
    }

    @Test(
        "a redirect to another host is not followed: the other host sees nothing, the upload fails",
        arguments: Wire.all)
    func redirects(wire: Wire) async throws {
        let setting = try Setting(wire)
        for code in [301, 302, 307, 308] {
            for kind in Kind.allCases {
                let record = try await upload(kind, "redirect-\(code)", in: setting)
                #expect(record.state == .failed, "\(kind) \(code): \(record.state)")
                #expect(record.why.contains("redirect") == true, "\(kind) \(code): \(record.why)")
                expectNoSecret(record.why, "\(kind) \(code)")
            }
        }
        #expect(setting.other.requests().isEmpty, "the other host was reached: \(setting.other.requests())")
    }

    @Test(
        "a tus Location that leaves https, or http and https altogether, is refused", arguments: Transport.allCases)
    func tusLocations(transport: Transport) async throws {
        // Over https only where the transport can be given the test CA.
        if Transport.trustingTestCA.contains(transport) {
            let secure = try Setting(https: true, transport: transport)
            let downgraded = try await upload(.tus, "tus-http-location", in: secure)
            #expect(downgraded.state == .failed)
            #expect(downgraded.why.contains("in the clear") == true, "\(downgraded.why)")
            #expect(secure.other.requests().isEmpty)
            let ftp = try await upload(.tus, "tus-ftp-location", in: secure)
            #expect(ftp.state == .failed && ftp.why.contains("ftp") == true, "\(ftp.why)")
        }
        // A Location whose port no socket can have (99999): refused in words, not a trap in the transport.
        let badPort = try await upload(
            .tus, "tus-bad-port-location", in: try Setting(https: false, transport: transport))
        #expect(badPort.state == .failed && badPort.why.contains("port 99999") == true, "\(badPort.why)")
        // Over http, a Location on another host gets the upload, never the endpoint's credentials.
        let plain = try Setting(https: false, transport: transport)
        _ = try await upload(.tus, "tus-http-location", in: plain)
        let seen = plain.other.requests()
        #expect(!seen.isEmpty)
        #expect(
            seen.allSatisfy { ($0["headers"] as? [String: String])?["authorization"] == nil },
            "the other host got the Authorization: \(seen)")
    }

    @Test("endless answers, plain or chunked, are cut at a bound: an error, not gigabytes", arguments: Wire.all)
    func endlessAnswers(wire: Wire) async throws {
        for behaviour in ["endless", "endless-chunked"] {
            // Each answer from a server of its own. FoundationNetworking leaves a refused answer's
            // connection open (AsyncHTTPClient closes it), so the server goes on writing it for a
            // minute, and a second connection to that server was measured to wait behind that
            // writer for up to 74 s: the test server's threads, not what this test is about.
            let setting = try Setting(wire)
            let started = Date()
            let record = try await upload(.tus, behaviour, in: setting)
            #expect(record.state == .failed)
            #expect(record.why.contains("more than Pickup reads") == true, "\(behaviour): \(record.why)")
            #expect(Date().timeIntervalSince(started) < 20, "\(behaviour) took too long")
        }
    }

    @Test(
        "a server that goes back on bytes it confirmed: said as it happens, never taken as done",
        arguments: Transport.allCases)
    func rewound(transport: Transport) async throws {
        let setting = try Setting(https: false, transport: transport)
        let uploader = try setting.uploader(attempts: 3)
        let path = try UploadTestFiles.random(megabytes: 1)
        defer { Temporary.remove(path) }
        let task = uploader.start(path: path, to: .tus(endpoint: setting.server.url("tus-rewind")))
        let record = await task.result()
        let events = task.events
        var rewinds: [(Int64, Int64)] = []
        for await event in events { if case .rewound(_, let from, let to) = event { rewinds.append((from, to)) } }
        #expect(record.state == .failed)
        #expect(rewinds.first.map { $0.0 == 64 << 10 && $0.1 == 0 } == true, "\(rewinds)")
    }

    /// `path` sent by tus to the server behind a proxy that takes bodies of up to 200,000 bytes
    /// (`tus-body-limit`), in chunks from `chunks` bytes growing up to `upTo`.
    func behindBodyLimit(
        _ path: String, chunks: Int, upTo largest: Int, attempts: Int, in setting: Setting
    ) async throws -> UploadRecord {
        var options = UploadOptions(
            chunkSize: chunks, maxAttempts: attempts, baseDelay: 0.01, maxDelay: 0.02, transport: setting.transport)
        options.largestTusChunk = largest
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: options)
        return await uploader.upload(path: path, to: .tus(endpoint: setting.server.url("tus-body-limit")))
    }

    @Test(
        "a proxy that answers 413 to a grown chunk's head and reads no more: seen at once, the rest in chunks that pass",
        arguments: Wire.all)
    func earlyRefusal(wire: Wire) async throws {
        let setting = try Setting(wire)
        let path = try UploadTestFiles.random(megabytes: 1)
        defer { Temporary.remove(path) }
        let started = Date()
        let record = try await behindBodyLimit(path, chunks: 64 << 10, upTo: 1 << 20, attempts: 2, in: setting)
        #expect(record.state == .done, "\(record.why)")
        // Not the 20 s stall ceiling: the 413 ends the exchange as soon as it is read.
        #expect(Date().timeIntervalSince(started) < 10)
        let patches = setting.server.requests().filter { $0["method"] as? String == "PATCH" }.compactMap {
            $0["body"] as? Int
        }
        // 64 and 128 KB taken, 256 KB refused (logged as its negative length), then 128 KB chunks.
        #expect(Array(patches.prefix(4)) == [65_536, 131_072, -262_144, 131_072], "\(patches)")
        #expect(patches.filter { $0 > 0 }.reduce(0, +) == 1 << 20)
    }

    @Test(
        "chunks of one size over a proxy's limit: the upload fails at once, saying a request was refused, not the file",
        arguments: Wire.all)
    func chunkOverTheLimit(wire: Wire) async throws {
        let setting = try Setting(wire)
        let path = try UploadTestFiles.random(megabytes: 40)
        defer { Temporary.remove(path) }
        let started = Date()
        let record = try await behindBodyLimit(path, chunks: 32 << 20, upTo: 32 << 20, attempts: 3, in: setting)
        #expect(record.state == .failed)
        #expect(record.error?.code == .tooLarge && record.error?.targetProblem == .requestTooLarge, "\(record.why)")
        #expect(record.why.contains("refused a request of 33554432 bytes") == true, "\(record.why)")
        // 32 MiB cannot all wait in the sockets' buffers: the 413 is read while the body is sent.
        #expect(Date().timeIntervalSince(started) < 10)
        // The file is let go with the request: the body's writer stops when the request ends,
        // where it waited on a paused write that AsyncHTTPClient drops unfulfilled when the
        // request fails (`RequestBag.StateMachine.fail`; seen over https under load).
        if wire.transport == .asyncHTTP {
            let file = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            func open() -> Int {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
                return names.filter {
                    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == file
                }.count
            }
            var waited = 0
            while open() > 0, waited < 40 {
                try await Task.sleep(nanoseconds: 50_000_000)
                waited += 1
            }
            #expect(open() == 0, "the file is still open after the refused upload ended")
        }
    }

    @Test(
        "an early error answer with no length (chunked, as S3's error XML) is read whole before the body ends",
        arguments: ["early-chunked-error", "early-chunked-error-open"])
    func earlyChunkedAnswer(behaviour: String) async throws {
        let setting = try Setting(https: false)
        var request = HTTPRequest("PUT", setting.server.url(behaviour))
        request.body = .data(Data(count: 32 << 20))
        let started = Date()
        let response = try await setting.transport.send(request, limits: HTTPLimits(stall: 20))
        #expect(response.status == 400)
        #expect(String(decoding: response.body, as: UTF8.self).contains("<Code>EarlyCode</Code>"))
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("a tus server that keeps one byte of each chunk fails the upload within its tries", arguments: Wire.all)
    func drippingOffsets(wire: Wire) async throws {
        let setting = try Setting(wire)
        let path = try UploadTestFiles.random(megabytes: 1)
        defer { Temporary.remove(path) }
        for attempts in [1, 3] {
            let started = setting.server.requests().count
            let record = try await upload(.tus, "tus-drip", in: setting, file: path, attempts: attempts)
            #expect(record.state == .failed, "\(attempts) tries: \(record.state)")
            #expect(record.why.contains("at least 8192 count as progress") == true, "\(record.why)")
            let patches = setting.server.requests().dropFirst(started).filter { $0["method"] as? String == "PATCH" }
            #expect(patches.count == attempts, "\(attempts) tries sent \(patches.count) chunks")
        }
    }

    @Test("Retry-After is honoured within the budget; a longer one ends the upload at once", arguments: Wire.all)
    func retryAfter(wire: Wire) async throws {
        let setting = try Setting(wire)
        let record = try await upload(.form, "retry-after", in: setting, attempts: 3)
        #expect(record.state == .done, "\(record.why)")
        let times = setting.server.requests().compactMap { $0["at"] as? Double }
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1] - times[0] >= 1.9, "retried after \(times[1] - times[0]) s, not 2") }
        let started = Date()
        let refused = try await upload(.form, "retry-after-long", in: setting, attempts: 5)
        #expect(refused.state == .failed)
        #expect(refused.why.contains("asks to wait 100000 s") == true, "\(refused.why)")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(
            setting.server.requests().filter { ($0["path"] as? String)?.contains("retry-after-long") == true }.count
                == 1)
    }

    @Test("a tus offset past the end of the file is refused, never taken as done", arguments: Wire.all)
    func offsetsAreChecked(wire: Wire) async throws {
        let setting = try Setting(wire)
        let record = try await upload(.tus, "tus-big-offset", in: setting)
        #expect(record.state == .failed)
        #expect(record.why.contains("999999999") == true, "\(record.why)")
        #expect(record.offset == 0)
    }

    @Test(
        "an S3 error that echoes the request shows no credential, in errors or the journal", arguments: Wire.all)
    func echoedSecrets(wire: Wire) async throws {
        let setting = try Setting(wire)
        let uploader = try setting.uploader()
        let location = S3Location(
            endpoint: URL(string: setting.server.origin + "/s3-echo") ?? setting.server.url("s3-echo"), bucket: "b",
            key: "k.jpg")
        let record = await uploader.upload(
            path: try Fixtures.path(.jpegPlain), to: .s3(location))
        #expect(record.state == .failed)
        expectNoSecret(record.why, "the error")
        let saved = try #require(try await uploader.journal.record(id: record.id))
        expectNoSecret((saved.why) + saved.target + (saved.remote ?? ""), "the journal")
        let raw = try Data(contentsOf: URL(fileURLWithPath: uploader.journal.path))
        expectNoSecret(String(decoding: raw, as: UTF8.self), "the journal file")
    }

    @Test("a completion answered 200 with an error, or with nothing, is not done", arguments: Wire.all)
    func completionErrors(wire: Wire) async throws {
        let setting = try Setting(wire)
        for behaviour in ["s3-complete-error", "s3-complete-empty"] {
            let record = try await upload(.s3, behaviour, in: setting, attempts: 2)
            #expect(record.state == .failed, "\(behaviour)")
            #expect(record.why.contains("completing the upload failed") == true, "\(record.why)")
        }
    }

    @Test(
        "S3 parts go in a sliding window: a slow part holds its own slot, not the next parts",
        arguments: Transport.allCases)
    func partsInASlidingWindow(transport: Transport) async throws {
        let setting = try Setting(https: false, transport: transport)
        let path = try UploadTestFiles.random(megabytes: 30)
        defer { Temporary.remove(path) }
        let uploader = Uploader(
            journal: try UploadTestFiles.journal(),
            options: UploadOptions(
                chunkSize: 5 << 20, maxAttempts: 1, transport: setting.transport, partConcurrency: 2),
            s3Credentials: HostileServerTests.credentials)
        let location = S3Location(
            endpoint: URL(string: setting.server.origin + "/s3-slow-first") ?? setting.server.url("x"), bucket: "b",
            key: "k.bin")
        let record = await uploader.upload(path: path, to: .s3(location))
        #expect(record.state == .done, "\(record.why)")
        var arrived: [Int: Double] = [:]
        var firstAnswered: Double?
        for request in setting.server.requests() {
            guard let path = request["path"] as? String, let at = request["at"] as? Double,
                let number = path.components(separatedBy: "partNumber=").last?.split(separator: "&").first
                    .flatMap({ Int($0) })
            else { continue }
            switch request["method"] as? String {
            case "PUT": arrived[number] = at
            case "ANSWER": firstAnswered = at
            default: continue
            }
        }
        #expect(arrived.count == 6, "\(arrived)")
        // Part 1 is answered only once the five others arrived, or after 10 s: in a sliding window
        // they go through the other slot meanwhile; in batches of two, part 3 waits for part 1's answer.
        let first = try #require(arrived[1])
        let answered = try #require(firstAnswered)
        #expect(answered - first < 10, "part 1 waited for the others in vain: \(arrived.sorted { $0.key < $1.key })")
        for (number, at) in arrived where number != 1 {
            #expect(at < answered, "part \(number) arrived after part 1 was answered")
        }
    }

    @Test(
        "slow servers: headers or a body a byte at a time, endless 100 Continue: given up within the stall bound",
        arguments: Wire.all)
    func slowServers(wire: Wire) async throws {
        let setting = try Setting(wire)
        for behaviour in ["trickle", "continue-forever", "drip-body"] {
            let started = Date()
            let record = try await upload(.tus, behaviour, in: setting, stall: 2)
            #expect(record.state == .failed, "\(behaviour)")
            #expect(Date().timeIntervalSince(started) < 15, "\(behaviour) took \(Date().timeIntervalSince(started)) s")
        }
    }

    /// Posts a form of `megabytes` random bytes, sent as one chunk, to `behaviour` with one try
    /// and a stall ceiling of `stall` seconds: the record, and the seconds it took.
    func postOnce(
        megabytes: Int, to behaviour: String, stall: Double, in setting: Setting
    ) async throws -> (UploadRecord, Double) {
        let path = try UploadTestFiles.random(megabytes: megabytes)
        defer { Temporary.remove(path) }
        let uploader = Uploader(
            journal: try UploadTestFiles.journal(),
            options: UploadOptions(
                chunkSize: megabytes << 20, maxAttempts: 1, stallTimeout: stall, transport: setting.transport))
        let started = Date()
        let record = await uploader.upload(path: path, to: .form(FormTarget(url: setting.server.url(behaviour))))
        return (record, Date().timeIntervalSince(started))
    }

    @Test("a silent link mid-request is noticed in seconds", arguments: Wire.all)
    func silentLink(wire: Wire) async throws {
        let (record, seconds) = try await postOnce(
            megabytes: 64, to: "silent", stall: 20, in: try Setting(wire))
        #expect(record.state == .failed)
        #expect(record.why.contains("stalled") == true, "\(record.why)")
        #expect(seconds < 8, "a silent link cost \(seconds) s")
    }

    @Test(
        "a link that goes silent once the whole body is handed to the kernel is noticed in seconds, not at the ceiling",
        arguments: [false, true])
    // AsyncHTTPClient only: it is AsyncHTTPTransport's dead-link watch (TCP_USER_TIMEOUT on its
    // sockets). URLSession, Apple's and FoundationNetworking's alike, sets no socket option a
    // caller can reach: once the kernel took the whole body it waits for the answer up to the
    // stall ceiling (`StallRule`), as `URLSessionTransport`'s doc comment says.
    func silentLinkAfterTheBody(https: Bool) async throws {
        let (record, seconds) = try await postOnce(
            megabytes: 1, to: "silent-window", stall: 30, in: try Setting(https: https))
        #expect(record.state == .failed)
        #expect(record.why.contains("acknowledged nothing for 4 s") == true, "\(record.why)")
        #expect(seconds < 8, "a silent link cost \(seconds) s")
    }

    // AsyncHTTPClient only: FoundationNetworking reports a certificate it does not trust as URL
    // error -1 (unknown: seen here, retried as a network failure), where Apple's URLSession says -1202
    // (untrusted), which `URLSessionTransport` turns into `.certificate`.
    @Test(
        "a certificate not trusted fails at once, is not retried, and says what to do", arguments: [Transport.asyncHTTP]
    )
    func untrustedCertificate(transport: Transport) async throws {
        let setting = try Setting(https: true)
        let uploader = Uploader(
            journal: try UploadTestFiles.journal(),
            options: UploadOptions(maxAttempts: 5, baseDelay: 1, transport: transport.make()))
        let started = Date()
        let record = await uploader.upload(
            path: try Fixtures.path(.jpegPlain), to: .tus(endpoint: setting.server.url("anything")))
        #expect(record.state == .failed)
        #expect(record.why.contains("not trusted") == true, "\(record.why)")
        #expect(record.why.contains("SSL_CERT_FILE") == true)
        #expect(Date().timeIntervalSince(started) < 5, "not retried")
    }

    @Test("a certificate naming only IP addresses is refused for a host name: nothing sent, not retried, a hint")
    func addressCertificateForAHostName() async throws {
        let certificate = try TestCertificate.make()  // IP:127.0.0.1, IP:127.0.0.2 only
        let server = try HostileServer(certificate: certificate)
        let uploader = Uploader(
            journal: try UploadTestFiles.journal(),
            options: UploadOptions(
                maxAttempts: 5, baseDelay: 1, headers: ["Authorization": HostileServerTests.secret],
                transport: AsyncHTTPTransport(caFile: certificate.certificate)))
        let path = try Fixtures.path(.jpegPlain)
        let byName = try #require(URL(string: "https://localhost:\(server.port)/tus-big-offset/files"))
        let started = Date()
        let record = await uploader.upload(path: path, to: .tus(endpoint: byName))
        #expect(record.state == .failed)
        #expect(record.error?.code == .certificate, "\(record.why)")
        #expect(record.why.contains("does not name localhost") == true, "\(record.why)")
        #expect(record.why.contains("SSL_CERT_FILE") == true, "the certificate hint: \(record.why)")
        #expect(Date().timeIntervalSince(started) < 5, "not retried")
        #expect(server.requests().isEmpty, "the impostor got a request: \(server.requests())")
        // By the address it names, the same certificate is fine: past TLS, to the offset check.
        let byAddress = await uploader.upload(path: path, to: .tus(endpoint: server.url("tus-big-offset")))
        #expect(byAddress.why.contains("999999999") == true, "\(byAddress.why)")
        // A certificate that names the host is accepted for it.
        let named = try TestCertificate.make(names: "DNS:localhost")
        let namedServer = try HostileServer(certificate: named)
        let trusting = Uploader(
            journal: try UploadTestFiles.journal(),
            options: UploadOptions(maxAttempts: 1, transport: AsyncHTTPTransport(caFile: named.certificate)))
        let good = try #require(URL(string: "https://localhost:\(namedServer.port)/tus-big-offset/files"))
        let accepted = await trusting.upload(path: path, to: .tus(endpoint: good))
        #expect(accepted.why.contains("999999999") == true, "\(accepted.why)")
    }

    @Test(
        "certificate names: exact and one-label wildcards, in any case; nothing else",
        arguments: [
            ("uploads.example.com", "uploads.example.com", true), ("Uploads.Example.COM.", "uploads.example.com", true),
            ("a.example.com", "*.example.com", true), ("example.com", "*.example.com", false),
            ("a.b.example.com", "*.example.com", false), ("evil.com", "example.com", false),
            ("localhost", "127.0.0.1", false), ("a.example.com", "a*.example.com", false),
        ])
    func certificateNames(host: String, name: String, matches: Bool) {
        #expect(CertificateHostCheck.matches(host: host, name: name) == matches)
    }

    @Test("an S3 ListParts page of 100,000 parts is read in linear time")
    func largeListPartsPage() {
        let page =
            "<ListPartsResult>"
            + String(
                repeating: "<Part><PartNumber>1</PartNumber><ETag>\"e\"</ETag><Size>5242880</Size></Part>",
                count: 100_000)
            + "</ListPartsResult>"
        let started = Date()
        let parts = XMLText.blocks("Part", in: page)
        #expect(parts.count == 100_000)
        // Linear: well under a second alone (5.4 s seen with two builds beside it, debug build);
        // a quadratic scan of this page takes minutes.
        #expect(Date().timeIntervalSince(started) < 30)
    }
}

@Suite("a secret query across resume")
struct SecretQueryTests {
    @Test("a tus endpoint's ?token= is not written to the journal, and resuming asks for the endpoint again")
    func tokenQuery() async throws {
        let server = try TusServer()
        let journal = try UploadTestFiles.journal()
        let endpoint = try #require(URL(string: server.endpoint.absoluteString + "?token=hunter2"))
        let path = try UploadTestFiles.random(megabytes: 1)
        defer { Temporary.remove(path) }
        let uploader = Uploader(journal: journal, options: UploadOptions(chunkSize: 256 << 10))
        let task = uploader.start(path: path, to: .tus(endpoint: endpoint))
        for await event in task.events {
            if case .progress = event {
                task.cancel()
                break
            }
        }
        let stopped = await task.result()
        let saved = try #require(try await journal.record(id: stopped.id))
        #expect(!saved.target.contains("hunter2"))
        #expect(saved.target.hasSuffix(UploadJournal.queryNotStored))
        let raw = try Data(contentsOf: URL(fileURLWithPath: journal.path))
        #expect(!String(decoding: raw, as: UTF8.self).contains("hunter2"))
        let refused = await uploader.resume(id: stopped.id).result()
        #expect(refused.why.contains("give the endpoint again") == true, "\(refused.why)")
        // Given again, it may bring back the query, never another place: refused, the upload as it was.
        let before = try await journal.record(id: stopped.id)
        let otherServer = try #require(URL(string: "http://127.0.0.1:9/files/?token=hunter2"))
        let otherPath = try #require(URL(string: server.endpoint.absoluteString + "x?token=hunter2"))
        for elsewhere in [otherServer, otherPath] {
            let moved = await uploader.resume(id: stopped.id, endpoint: elsewhere).result()
            #expect(moved.error?.code == .badTarget && moved.error?.targetProblem == .otherPlace, "\(moved.why)")
            #expect(try await journal.record(id: stopped.id) == before)
        }
        let resumed = await uploader.resume(id: stopped.id, endpoint: endpoint).result()
        #expect(resumed.state == .done, "\(resumed.why)")
    }
}

@Suite("an endpoint given again on resume")
struct SamePlaceTests {
    func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test(
        "the same place however written (case, default port, trailing slash, query) is taken; another host, port or path is not"
    )
    func samePlace() throws {
        let tus = UploadDestination.tus(endpoint: try url("https://example.com/files/")).stored
        for same in [
            "https://example.com/files/?token=1", "HTTPS://Example.COM:443/files/", "https://example.com/files",
            "https://example.com/%66iles/", "https://example.com/a/../files/",
        ] {
            #expect(tus.isSamePlace(as: try url(same)), "\(same)")
        }
        for other in [
            "https://example.org/files/", "https://example.com:8443/files/", "https://example.com/other/",
            "http://example.com/files/",
        ] {
            #expect(!tus.isSamePlace(as: try url(other)), "\(other)")
        }
        // `~` and its escape in either case (RFC 3986, 6.2.2): one place.
        let tilde = UploadDestination.tus(endpoint: try url("https://example.com/~me/files")).stored
        #expect(tilde.isSamePlace(as: try url("https://example.com/%7Eme/files/")))
        #expect(tilde.isSamePlace(as: try url("https://example.com/%7eme/files")))
        // An S3 upload has no URL to give again: any is refused.
        let s3 = UploadDestination.s3(
            S3Location(endpoint: try url("http://127.0.0.1:9000"), bucket: "b", key: "k"))
        #expect(!s3.isSamePlace(as: try url("http://127.0.0.1:9000")))
        // A server's root, with or without its slash.
        let root = UploadDestination.form(FormTarget(url: try url("http://127.0.0.1:8765"))).stored
        #expect(root.isSamePlace(as: try url("http://127.0.0.1:8765/?token=x")))
        #expect(!root.isSamePlace(as: try url("http://127.0.0.1:8766/")))
    }
}
