#if canImport(URLSessionTransportLinux)
    import Foundation
    import PickupTestSupport
    import PickupUpload
    import Testing
    import URLSessionTransportLinux

    /// The transport an iPhone uses, `URLSessionTransport`, run on Linux through
    /// FoundationNetworking against the same real servers as `AsyncHTTPTransport`.
    ///
    /// Besides these, it runs the http cases of `BadNetworkTests` (cuts, a corrupted chunk),
    /// `HostileServerTests` and `MisbehavingServerTests` as their `Transport.urlSession`
    /// argument, and `URLSessionMemoryTests` measures a 1 GB form through it.
    ///
    /// What differs from Apple's URLSession: FoundationNetworking runs on libcurl, has no
    /// background sessions, and reads TLS trust only from the system's store (libcurl's CA
    /// file is set to `/etc/ssl/certs/ca-certificates.crt` for every request, and no
    /// server-trust challenge reaches the delegate): the tests' own CA cannot be given to it,
    /// so the https cases of those suites run through AsyncHTTPClient alone
    /// (`Transport.trustingTestCA`). The task delegate calls (`didSendBodyData`, `didReceive`,
    /// `willPerformHTTPRedirection`, `didCompleteWithError`) are the ones the transport uses on both.
    @Suite("URLSession transport (FoundationNetworking)", .serialized)
    struct URLSessionTransportTests {
        func options(chunk: Int = 8 << 20, threshold: Int64? = nil, parts: Int = 4) -> UploadOptions {
            var options = UploadOptions(chunkSize: chunk, transport: URLSessionTransport(), partConcurrency: parts)
            if let threshold { options.multipartThreshold = threshold }
            return options
        }

        @Test("a movie goes up to tus in chunks and arrives whole")
        func tus() async throws {
            let server = try TusServer()
            let path = try UploadTestFiles.random(megabytes: 20)
            defer { Temporary.remove(path) }
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
            defer { Temporary.remove(path) }
            let uploader = Uploader(journal: try UploadTestFiles.journal(), options: options())
            let before = try temporaryBodies()
            let target = FormTarget(url: server.url, field: "media", fields: [FormField(name: "album", value: "trip")])
            let record = await uploader.upload(path: path, to: .form(target), type: "video/mp4")
            #expect(record.state == .done, "\(record.why)")
            let name = (path as NSString).lastPathComponent
            #expect(UploadTestFiles.sha256(try server.stored(name)) == (try UploadTestFiles.sha256(file: path)))
            // Other suites' URLSession uploads (HostileServerTests, URLSessionMemoryTests) write
            // their own bodies meanwhile, and remove them when they end: wait for theirs to go.
            var left = try temporaryBodies().subtracting(before)
            for _ in 0..<120 where !left.isEmpty {
                try await Task.sleep(nanoseconds: 500_000_000)
                left = try temporaryBodies().subtracting(before)
            }
            #expect(left.isEmpty, "the temporary body is removed: \(left)")
        }

        /// The request bodies `URLSessionTransport` has in the temporary folder now.
        func temporaryBodies() throws -> Set<String> {
            Set(
                try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter {
                    $0.hasPrefix("pickup-body-")
                })
        }

        @Test("S3 parts go up and the stored object equals the file")
        func s3() async throws {
            let server = try SeaweedServer()
            let path = try UploadTestFiles.random(megabytes: 12)
            defer { Temporary.remove(path) }
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

        /// Runs `task` until `bytes` are confirmed, then leaves it as a killed process would:
        /// the task stopped, its uploader let go of by the caller, and the journal on disk
        /// saying "uploading" at the offset reached (a cancel would have said "cancelled").
        func interrupt(_ task: UploadTask, after bytes: Int64, journal: UploadJournal) async throws -> UploadRecord {
            for await event in task.events {
                if case .progress(_, let confirmed, _, _) = event, confirmed >= bytes {
                    task.cancel()
                    break
                }
            }
            var stopped = await task.result()
            stopped.state = .uploading
            stopped.error = nil
            try await journal.save(stopped)
            return stopped
        }

        @Test("killed mid-upload to tus: a new uploader on a new transport goes on from the server's offset")
        func tusRestart() async throws {
            let server = try TusServer()
            let path = try UploadTestFiles.random(megabytes: 8)
            defer { Temporary.remove(path) }
            let journalPath = UploadTestFiles.journalPath()
            let stopped: UploadRecord
            do {
                let journal = try UploadJournal(path: journalPath)
                let first = Uploader(journal: journal, options: options(chunk: 256 << 10))
                let task = first.start(path: path, to: .tus(endpoint: server.endpoint))
                stopped = try await interrupt(task, after: 512 << 10, journal: journal)
            }
            #expect(stopped.offset > 0 && stopped.offset < stopped.size, "\(stopped.offset) of \(stopped.size)")
            // A new process: a new journal connection, a new uploader, a new URLSession transport.
            let journal = try UploadJournal(path: journalPath)
            #expect(try await journal.record(id: stopped.id)?.state == .uploading)
            let second = Uploader(journal: journal, options: options(chunk: 256 << 10))
            let resuming = second.resume(id: stopped.id)
            let resumed = await resuming.result()
            var firstConfirmed: Int64?
            for await event in resuming.events {
                if case .progress(_, let bytes, _, _) = event, firstConfirmed == nil { firstConfirmed = bytes }
            }
            #expect(resumed.state == .done, "\(resumed.why)")
            #expect(resumed.remote == stopped.remote)
            // The first chunk after resuming starts where the server stood, not at 0.
            #expect((firstConfirmed ?? 0) > stopped.offset, "first confirmed \(firstConfirmed ?? 0)")
            let remote = try #require(resumed.remote)
            #expect(UploadTestFiles.sha256(try server.stored(remote)) == (try UploadTestFiles.sha256(file: path)))
        }

        @Test("killed mid-upload to S3: a new uploader on a new transport goes on from the store's part list")
        func s3Restart() async throws {
            let server = try SeaweedServer()
            let path = try UploadTestFiles.random(megabytes: 16)
            defer { Temporary.remove(path) }
            let credentials = S3Credentials(accessKey: server.accessKey, secretKey: server.secretKey)
            let location = S3Location(endpoint: server.endpoint, bucket: server.bucket, key: "restarted.bin")
            let journalPath = UploadTestFiles.journalPath()
            let stopped: UploadRecord
            do {
                // One part at a time, so that the stop lands between parts.
                let journal = try UploadJournal(path: journalPath)
                let first = Uploader(
                    journal: journal, options: options(chunk: 5 << 20, threshold: 0, parts: 1),
                    s3Credentials: credentials)
                stopped = try await interrupt(first.start(path: path, to: .s3(location)), after: 1, journal: journal)
            }
            #expect(stopped.offset >= 5 << 20 && stopped.offset < stopped.size, "\(stopped.offset) of \(stopped.size)")
            let journal = try UploadJournal(path: journalPath)
            #expect(try await journal.record(id: stopped.id)?.state == .uploading)
            let second = Uploader(
                journal: journal, options: options(chunk: 5 << 20, threshold: 0), s3Credentials: credentials)
            let finished = await second.resume(id: stopped.id).result()
            #expect(finished.state == .done, "\(finished.why)")
            #expect(finished.remote == stopped.remote)
            #expect(
                UploadTestFiles.sha256(try server.object("restarted.bin")) == (try UploadTestFiles.sha256(file: path)))
        }
    }
#endif
