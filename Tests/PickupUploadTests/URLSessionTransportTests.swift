#if canImport(URLSessionTransportLinux)
    import Foundation
    import PickupTestSupport
    import PickupUpload
    import Testing
    import URLSessionTransportLinux

    /// The transport an iPhone uses, `URLSessionTransport`, run on Linux through
    /// FoundationNetworking against the same real servers as `AsyncHTTPTransport`.
    ///
    /// What differs from Apple's URLSession: FoundationNetworking runs on libcurl, has no
    /// background sessions, and reads TLS trust from the system's OpenSSL store; the task
    /// delegate calls (`didSendBodyData`, `didReceive`, `willPerformHTTPRedirection`,
    /// `didCompleteWithError`) are the ones the transport uses on both.
    @Suite("URLSession transport (FoundationNetworking)", .serialized)
    struct URLSessionTransportTests {
        func options(chunk: Int = 8 << 20, threshold: Int64? = nil) -> UploadOptions {
            var options = UploadOptions(chunkSize: chunk, transport: URLSessionTransport())
            if let threshold { options.multipartThreshold = threshold }
            return options
        }

        @Test("a movie goes up to tus in chunks and arrives whole")
        func tus() async throws {
            let server = try TusServer()
            let path = try UploadTestFiles.random(megabytes: 20)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let uploader = Uploader(journal: try UploadTestFiles.journal(), options: options(chunk: 4 << 20))
            let record = await uploader.upload(path: path, to: .tus(endpoint: server.endpoint))
            #expect(record.state == .done, "\(record.why)")
            let remote = try #require(record.remote)
            #expect(UploadTestFiles.sha256(try server.stored(remote)) == (try UploadTestFiles.sha256(file: path)))
        }

        @Test("a form larger than memory's share goes through a temporary file and arrives whole")
        func largeForm() async throws {
            let server = try FormServer()
            let path = try UploadTestFiles.random(megabytes: 40)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let uploader = Uploader(journal: try UploadTestFiles.journal(), options: options())
            let target = FormTarget(url: server.url, field: "media", fields: [FormField(name: "album", value: "trip")])
            let record = await uploader.upload(path: path, to: .form(target), type: "video/mp4")
            #expect(record.state == .done, "\(record.why)")
            let name = (path as NSString).lastPathComponent
            #expect(UploadTestFiles.sha256(try server.stored(name)) == (try UploadTestFiles.sha256(file: path)))
            let left = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
            #expect(!left.contains { $0.hasPrefix("pickup-body-") }, "the temporary body is removed")
        }

        @Test("S3 parts go up and the stored object equals the file")
        func s3() async throws {
            let server = try SeaweedServer()
            let path = try UploadTestFiles.random(megabytes: 12)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let uploader = Uploader(
                journal: try UploadTestFiles.journal(), options: options(chunk: 5 << 20, threshold: 0),
                s3Credentials: S3Credentials(accessKey: server.accessKey, secretKey: server.secretKey))
            let location = S3Location(endpoint: server.endpoint, bucket: server.bucket, key: "urlsession.bin")
            let record = await uploader.upload(path: path, to: .s3(location))
            #expect(record.state == .done, "\(record.why)")
            #expect(
                UploadTestFiles.sha256(try server.object("urlsession.bin")) == (try UploadTestFiles.sha256(file: path)))
        }

        @Test("a redirect is refused, not followed", arguments: [301, 307])
        func redirect(code: Int) async throws {
            let server = try HostileServer()
            let uploader = Uploader(
                journal: try UploadTestFiles.journal(),
                options: UploadOptions(maxAttempts: 1, transport: URLSessionTransport()))
            let record = await uploader.upload(
                path: try Fixtures.path(.jpegPlain), to: .tus(endpoint: server.url("redirect-\(code)")))
            #expect(record.state == .failed)
            #expect(record.why.contains("redirect"), "\(record.why)")
        }

        @Test("a server that goes silent is noticed by the stall rule, not at the deadline")
        func silent() async throws {
            let server = try HostileServer()
            let options = UploadOptions(maxAttempts: 1, stallTimeout: 3, transport: URLSessionTransport())
            let uploader = Uploader(journal: try UploadTestFiles.journal(), options: options)
            let started = Date()
            let record = await uploader.upload(
                path: try Fixtures.path(.jpegPlain), to: .tus(endpoint: server.url("silent")))
            #expect(record.state == .failed)
            #expect(Date().timeIntervalSince(started) < 30, "\(record.why)")
        }

        @Test("nothing listens: the endpoint is unreachable, and said so")
        func refused() async throws {
            let uploader = Uploader(
                journal: try UploadTestFiles.journal(),
                options: UploadOptions(maxAttempts: 1, transport: URLSessionTransport()))
            let record = await uploader.upload(
                path: try Fixtures.path(.jpegPlain),
                to: .tus(endpoint: try #require(URL(string: "http://127.0.0.1:9/files"))))
            #expect(record.state == .failed)
            #expect(record.error?.code == .network)
        }
    }
#endif
