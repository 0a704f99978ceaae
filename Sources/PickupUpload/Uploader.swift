import Foundation
import Pickup
import PickupStore

/// How uploads behave.
public struct UploadOptions: Sendable {
    /// Bytes sent in one request: a tus upload's first chunk, and each S3 part (a large file's
    /// parts grow so that they fit S3's 10,000). A file is sent a request at a time, never held
    /// whole in memory. The journal keeps an upload's chunk sizes, so that a resume sends what
    /// its first run would have.
    public var chunkSize: Int
    /// The largest tus chunk. Chunks start at `chunkSize` and double each time the server takes
    /// one whole in under 5 s, up to this, and halve after one that takes 10 s or more: on a
    /// distant link each chunk waits a round trip for its answer before the next is sent, so
    /// fewer chunks waste less of it, while progress (which counts confirmed chunks) still moves
    /// every 10 s or so. A grown chunk that fails ends the
    /// growth: after a proxy's 413 (a body too large) the rest goes at the largest size that
    /// passed, and this uploader's other uploads to the endpoint grow no larger (in memory, not
    /// kept in the journal); after any other failure at
    /// `chunkSize`. Set it to `chunkSize` for chunks of one size. By default 16 MiB on Apple
    /// platforms, the most `URLSessionTransport` holds in memory (a larger byte range would be
    /// written to a temporary file first), and 64 MiB elsewhere, below the 100 MB a request that
    /// proxies such as Cloudflare's take.
    public var largestTusChunk = UploadOptions.defaultLargestTusChunk
    /// The least `chunkSize` an upload sends with (64 KiB).
    static let smallestChunk = 64 << 10
    #if canImport(Darwin)
        /// `largestTusChunk` when none is given: 16 MiB, what `URLSessionTransport` holds in memory.
        public static let defaultLargestTusChunk = 16 << 20
    #else
        /// `largestTusChunk` when none is given: 64 MiB, below Cloudflare's 100 MB a request.
        public static let defaultLargestTusChunk = 64 << 20
    #endif
    /// Tries of one step before the upload fails.
    public var maxAttempts: Int
    /// First retry delay in seconds; it doubles each time, with jitter, up to `maxDelay`.
    public var baseDelay: Double
    /// The longest delay between tries, in seconds.
    public var maxDelay: Double
    /// Seconds a request may go without progress before it counts as stalled and is retried.
    public var stallTimeout: Double
    /// The stall timeout when none is given: 20 seconds, for every transport and protocol
    /// (`pickup upload --timeout`'s default too).
    public static let defaultStallTimeout: Double = 20
    /// Send each tus chunk's checksum (sha256 or sha1, as the server offers) so the server
    /// can refuse a corrupted chunk (460), which is then sent again.
    public var tusChecksums = true
    /// Form uploads: each upload's POST carries its own `Idempotency-Key`, the same on every try
    /// (and after a restart), so that a server that honours it stores a file whose answer was
    /// lost once. Off for a server that refuses the header. Not kept in the journal: it belongs to
    /// the run, as the headers do, and an upload is the same upload with it or without.
    public var idempotencyKey = true
    /// Headers sent with every request to tus and form servers (an `Authorization`, say);
    /// never stored in the journal or printed. S3 requests are signed instead.
    public var headers: [String: String]
    /// What sends the requests; nil: `HTTPTransports.current` (on Apple platforms URLSession
    /// unless a program installed another; on Linux the one a program installed, as `pickup`
    /// installs AsyncHTTPClient's).
    public var transport: (any HTTPTransport)?
    /// S3 parts of one file in flight at once, a new one starting as soon as one arrives, as
    /// `aws s3 cp` does (memory holds none of them: each is streamed from the file). Four by
    /// default: on a 20 Mbit/s link at 40 and 150 ms they fill 92-94% of it, where one part
    /// at a time fills 89-93% (BENCHMARKS.md).
    public var partConcurrency: Int
    /// S3: files smaller than this many bytes go in one PUT (one round trip, signed with their
    /// SHA-256); larger ones as multipart uploads. 8 MiB by default, as `aws s3 cp`; 0: always
    /// multipart.
    public var multipartThreshold: Int64 = 8 << 20
    /// A budget for S3 parts beyond a file's first: each upload in flight counts one (an
    /// upload waiting out a retry too), and an extra part in flight takes one only while the
    /// count is below this, so a large video and many photos share the link (the video sends
    /// fewer parts at once while photos go). Not a ceiling: an upload's own connection is
    /// never refused, and how many go at once is the queue's `concurrency`. 8 by default,
    /// `pickup upload`'s `--parallel`.
    public var connectionLimit = 8
    /// The clock retries wait on (a test's own, so that nothing sleeps).
    public var clock: any UploadClock = SystemUploadClock()
    /// Numbers in 0..<1 for the backoff's jitter (a test's own, so that delays are known).
    public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

    /// Options; the defaults suit a phone: 8 MB chunks, 8 tries, waits from 0.5 to 30 s, 20 s stall ceiling.
    public init(
        chunkSize: Int = 8 << 20, maxAttempts: Int = 8, baseDelay: Double = 0.5, maxDelay: Double = 30,
        stallTimeout: Double = UploadOptions.defaultStallTimeout, headers: [String: String] = [:],
        transport: (any HTTPTransport)? = nil,
        partConcurrency: Int = 4
    ) {
        self.headers = headers
        self.transport = transport
        self.partConcurrency = max(1, min(partConcurrency, 64))
        self.stallTimeout = max(0.5, stallTimeout)
        self.chunkSize = max(UploadOptions.smallestChunk, chunkSize)
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }
}

/// Uploads files — to tus servers, S3-compatible stores or web forms — streamed from
/// disk a chunk at a time, and resumes them after a dropped connection, a server restart
/// or a new process, from the last byte the server confirmed, kept in the journal.
public final class Uploader: Sendable {
    /// Where every upload's progress is recorded.
    public let journal: UploadJournal
    /// How uploads behave.
    public let options: UploadOptions
    /// For S3 destinations (resuming and cancelling them too).
    public let s3Credentials: S3Credentials?
    /// For presigned S3 destinations: an app's backend signs each request.
    public let s3Signer: (any S3URLSigner)?
    /// What each tus endpoint said it supports (`OPTIONS`), asked once for all the uploads
    /// there: a folder of photos costs one round trip less per file.
    let tusCapabilities = LockedValue<[String: TusCapabilities]>([:])
    /// The connections its uploads share (`UploadOptions.connectionLimit`).
    package let connections: ConnectionBudget

    /// An uploader that records in `journal`, with S3 credentials or a signer when S3 destinations are used.
    public init(
        journal: UploadJournal, options: UploadOptions = UploadOptions(), s3Credentials: S3Credentials? = nil,
        s3Signer: (any S3URLSigner)? = nil
    ) {
        self.journal = journal
        self.options = options
        self.s3Credentials = s3Credentials
        self.s3Signer = s3Signer
        connections = ConnectionBudget(limit: options.connectionLimit)
    }

    /// Starts uploading a file; the task reports what happens and ends with the final record
    /// (done, failed or cancelled). `type` is the file's MIME type (tus `Upload-Metadata`,
    /// the S3 object's `Content-Type`, the form part's). `metadata`: what a tus upload carries
    /// besides (``UploadRecord/metadata``); other uploads take none (a form has its fields).
    public func start(
        path: String, to destination: UploadDestination, type: String = "application/octet-stream",
        expected: FileIdentity? = nil, metadata: [String: String] = [:]
    ) -> UploadTask {
        UploadTask { events in
            await self.run(
                path: path, to: destination, type: type, expected: expected, metadata: metadata, events: events)
        }
    }

    /// Uploads a file and waits for its final record.
    /// `expected`: which file `path` led to when it was found; a file swapped since is refused.
    /// `metadata`: what a tus upload carries besides its file's name and type.
    public func upload(
        path: String, to destination: UploadDestination, type: String = "application/octet-stream",
        expected: FileIdentity? = nil, metadata: [String: String] = [:]
    ) async -> UploadRecord {
        await run(path: path, to: destination, type: type, expected: expected, metadata: metadata, events: nil)
    }

    /// Refuses metadata that cannot be sent: on an upload that is not tus, or with a key tus refuses.
    static func check(metadata: [String: String], for destination: UploadDestination) throws(UploadError) {
        guard !metadata.isEmpty else { return }
        guard destination.isTusUpload else {
            throw UploadError(
                .badTarget,
                "metadata goes with tus uploads only; nothing was sent (a form takes its fields, FormTarget.fields)")
        }
        if let problem = TusClient.problem(metadata: metadata) {
            throw UploadError(.badTarget, problem + "; nothing was sent")
        }
    }

    /// Resumes an upload of the journal, asking the server where it stands. `endpoint` gives a
    /// tus endpoint or form URL again: one whose query (a token) the journal did not keep. It
    /// must name the upload's own place (``UploadDestination``'s URL, however written): another
    /// host, port or path, or any for S3, ends in a failed record
    /// (``UploadError/TargetProblem/otherPlace``) with the journal left as it was. To send a file
    /// to another place (a server moved, a form's signed path that expired), cancel the upload
    /// (``cancel(id:)``) and start a new one there.
    /// An id the journal does not hold ends in a failed record.
    public func resume(id: String, endpoint: URL? = nil) -> UploadTask {
        UploadTask { events in await self.resume(id: id, endpoint: endpoint, events: events) }
    }

    /// Opens the file, records a new upload in the journal and runs it. A file that cannot be
    /// opened or a journal that cannot be written ends as a failed record, reported on `events`.
    func run(
        path: String, to destination: UploadDestination, type: String, expected: FileIdentity? = nil,
        metadata: [String: String] = [:], events: AsyncStream<UploadEvent>.Continuation?
    ) async -> UploadRecord {
        var source: SourceFile?
        // The journal keeps where the file is, not how it was typed: `uploads resume` may run
        // from another folder.
        let path = SystemPath.absolute(path)
        do {
            try Uploader.check(metadata: metadata, for: destination)
            let opened = try SourceFile(path: path, expected: expected)
            source = opened
            let record = try await journal.begin(
                path: path, size: opened.size, modified: opened.modified, destination: destination, type: type,
                maxAttempts: options.maxAttempts, chunkSize: options.chunkSize,
                largestTusChunk: options.largestTusChunk, metadata: metadata)
            return await drive(record, to: destination, source: opened, events: events)
        } catch {
            let failed = UploadRecord.failed(
                path: path, destination: destination, type: type, size: source?.size ?? 0,
                modified: source?.modified ?? 0, error: error)
            events?.yield(.finished(failed))
            return failed
        }
    }

    /// Records a new upload in the journal without sending anything (a queue handing it to the
    /// background session). Throws when the file cannot be opened or the journal written.
    func begin(
        path: String, to destination: UploadDestination, type: String, expected: FileIdentity?,
        metadata: [String: String] = [:]
    ) async throws(UploadError) -> UploadRecord {
        try Uploader.check(metadata: metadata, for: destination)
        let path = SystemPath.absolute(path)
        let opened = try SourceFile(path: path, expected: expected)
        return try await journal.begin(
            path: path, size: opened.size, modified: opened.modified, destination: destination, type: type,
            maxAttempts: options.maxAttempts, chunkSize: options.chunkSize,
            largestTusChunk: options.largestTusChunk, metadata: metadata)
    }

    func resume(id: String, endpoint: URL?, events: AsyncStream<UploadEvent>.Continuation?) async -> UploadRecord {
        let found: UploadRecord?
        do {
            found = try await journal.record(id: id)
        } catch {
            var failed = UploadRecord.missing(id: id)
            failed.error = error
            events?.yield(.finished(failed))
            return failed
        }
        guard var record = found else {
            events?.yield(.finished(.missing(id: id)))
            return .missing(id: id)
        }
        guard record.state != .done else {
            events?.yield(.finished(record))
            return record
        }
        // An endpoint given again brings back its query, never another place: refused before
        // anything is claimed or saved, so the upload stays as it was.
        if let endpoint, let destination = record.destination, !destination.isSamePlace(as: endpoint) {
            var problem = UploadError(
                .badTarget,
                "\(redacted(endpoint.absoluteString)) is not where upload \(record.id) goes "
                    + "(\(destination.displayName)): an endpoint given again may bring back its query (a token), "
                    + "not send the upload elsewhere")
            problem.targetProblem = .otherPlace
            // Failed, as returned and reported; the journal keeps the upload as it was.
            var refused = record
            refused.state = .failed
            refused.error = problem
            events?.yield(.finished(refused))
            return refused
        }
        do {
            // One process sends an upload at a time: a second resume says who holds it and
            // leaves the journal as that process keeps it.
            try await journal.claim(id: record.id)
        } catch {
            record.state = .failed
            record.error = error
            events?.yield(.finished(record))
            return record
        }
        do throws(UploadError) {
            let source = try SourceFile(path: record.path)
            guard source.size == record.size, source.modified == record.modified else {
                throw UploadError(.sourceChanged, "\(record.path) changed since the upload began")
            }
            guard var destination = record.destination else {
                throw UploadError(.badTarget, "the journal cannot read where upload \(record.id) goes")
            }
            if let endpoint {
                destination = destination.moved(to: endpoint)
            } else if record.target.hasSuffix(UploadJournal.queryNotStored) {
                throw UploadError(
                    .badTarget,
                    "this upload's endpoint had a query (a token, say) that the journal does not keep; "
                        + "give the endpoint again to resume it")
            }
            return await drive(record, to: destination, source: source, events: events)
        } catch {
            record.state = .failed
            record.error = error
            try? await journal.save(record)
            events?.yield(.finished(record))
            return record
        }
    }

    /// Runs an upload the journal holds with the steps of its protocol.
    private func drive(
        _ record: UploadRecord, to destination: UploadDestination, source: SourceFile,
        events: AsyncStream<UploadEvent>.Continuation?
    ) async -> UploadRecord {
        // A resume sends with the chunk sizes its upload began with: S3's parts must keep their
        // size; a tus chunk may be smaller, should the resuming run ask for smaller ones (a
        // first chunk that a proxy refused, say).
        var options = self.options
        if let size = record.chunkSize {
            if case .tus = destination {
                options.chunkSize = min(size, options.chunkSize)
            } else {
                options.chunkSize = size
            }
            options.chunkSize = max(UploadOptions.smallestChunk, options.chunkSize)
        }
        if let largest = record.largestTusChunk { options.largestTusChunk = min(largest, options.largestTusChunk) }
        let driver = UploadDriver(journal: journal, options: options)
        connections.enter()
        defer { connections.leave() }
        if let problem = HeaderCheck.problem(options.headers) {
            // Not sent, not retried: the header cannot go on the wire as it is.
            var failed = record
            failed.state = .failed
            failed.error = UploadError(.badTarget, problem)
            try? await journal.save(failed)
            events?.yield(.finished(failed))
            return failed
        }
        switch destination {
        case .tus(let endpoint):
            var steps = TusSteps(endpoint: endpoint, source: source, options: options, known: tusCapabilities)
            return await driver.run(record, steps: &steps, events: events)
        case .form(let target):
            var steps = FormSteps(target: target, source: source, options: options)
            return await driver.run(record, steps: &steps, events: events)
        case .s3(let location), .s3Presigned(let location):
            guard let authorization = s3Authorization(for: destination) else {
                var failed = record
                failed.state = .failed
                failed.error = UploadError(
                    .unauthorized,
                    destination == .s3(location)
                        ? "no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
                        : "no S3 signer was given to the uploader for presigned URLs")
                try? await journal.save(failed)
                events?.yield(.finished(failed))
                return failed
            }
            var steps = S3Steps(
                location: location, authorization: authorization, source: source, options: options,
                connections: connections)
            return await driver.run(record, steps: &steps, events: events)
        }
    }

    /// How S3 requests to `destination` are authorized: with credentials, or presigned.
    func s3Authorization(for destination: UploadDestination) -> S3Authorization? {
        switch destination {
        case .s3: return s3Credentials.map { .credentials($0) }
        case .s3Presigned: return s3Signer.map { .presigned($0) }
        case .tus, .form: return nil
        }
    }

    /// How long a paused upload's server is asked what it holds, at most (`heldOffset(of:)`).
    static let pauseQuestionSeconds = 2.0

    /// What a tus server holds of a paused upload, asked once and briefly: a tus server keeps the
    /// part of a chunk that arrived before the pause cut it ("The Server SHOULD accept PATCH
    /// requests against any upload ... and apply the bytes contained in the message", tus 1.0;
    /// tusd does), which with chunks of up to 64 MiB can be most of what the run sent. Nil when
    /// it is not a tus upload, or the server does not answer in time, or says less than the
    /// journal (the resume's sync tells a rewind).
    package func heldOffset(of record: UploadRecord) async -> Int64? {
        guard case .tus(let endpoint) = record.destination, let remote = record.remote.flatMap({ URL(string: $0) })
        else { return nil }
        var brief = options
        brief.stallTimeout = min(options.stallTimeout, Uploader.pauseQuestionSeconds)
        guard let held = try? await TusClient(endpoint: endpoint, options: brief).offset(of: remote),
            held >= record.offset, held <= record.size
        else { return nil }
        return held
    }

    /// Asks the server whether a finished upload's bytes are still there: a tus upload's
    /// offset (HEAD) equals the file's size, an S3 object (HEAD) has its size. A form cannot be
    /// asked (true). False when the server has lost or deleted it; an error when it cannot say.
    public func isStillThere(_ record: UploadRecord) async throws(UploadError) -> Bool {
        switch record.destination {
        case .tus(let endpoint):
            guard let remote = record.remote.flatMap({ URL(string: $0) }) else { return false }
            let client = TusClient(endpoint: endpoint, options: options)
            do {
                return try await client.offset(of: remote) == record.size
            } catch  where error.code == .gone {
                return false
            }
        case .s3(let location), .s3Presigned(let location):
            guard let destination = record.destination, let authorization = s3Authorization(for: destination) else {
                throw UploadError(.unauthorized, "no S3 credentials to ask whether \(location.key) is there")
            }
            let client = S3Client(location: location, authorization: authorization, options: options)
            return try await client.objectSize() == record.size
        case .form, nil: return true
        }
    }

    /// Cancels an upload: ends it on the server (tus termination, S3 abort) and marks it cancelled.
    public func cancel(id: String) async -> UploadRecord? {
        guard var record = try? await journal.record(id: id) else { return nil }
        guard record.state != .done else { return record }
        switch record.destination {
        case .tus(let endpoint):
            if let remote = record.remote.flatMap({ URL(string: $0) }) {
                // The same client as the upload's, held to the same stall timeout (--timeout).
                try? await TusClient(endpoint: endpoint, options: options).terminate(remote)
            }
        case .s3(let location), .s3Presigned(let location):
            if let destination = record.destination, let authorization = s3Authorization(for: destination),
                let uploadID = record.remote
            {
                try? await S3Client(location: location, authorization: authorization, options: options).abort(uploadID)
            }
        case .form, nil: break
        }
        record.state = .cancelled
        record.error = nil
        try? await journal.save(record)
        return record
    }
}
