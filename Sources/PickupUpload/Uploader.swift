import Foundation

/// How uploads behave.
public struct UploadOptions: Sendable {
    /// Bytes sent in one request; memory holds one chunk per upload in flight.
    public var chunkSize: Int
    /// Tries of one step before the upload fails.
    public var maxAttempts: Int
    /// First retry delay in seconds; it doubles each time, with jitter, up to `maxDelay`.
    public var baseDelay: Double
    public var maxDelay: Double
    /// Seconds a request may go without progress before it counts as stalled and is retried.
    public var stallTimeout: Double
    /// Send each tus chunk's checksum (sha256 or sha1, as the server offers) so the server
    /// can refuse a corrupted chunk (460), which is then sent again.
    public var tusChecksums = true
    /// Headers sent with every request to tus and form servers (an `Authorization`, say);
    /// never stored in the journal or printed. S3 requests are signed instead.
    public var headers: [String: String]
    /// What sends the requests; nil: `HTTPTransports.current` (URLSession unless a program
    /// installed another, as `pickup` installs AsyncHTTPClient's on Linux).
    public var transport: (any HTTPTransport)?

    public init(
        chunkSize: Int = 8 << 20, maxAttempts: Int = 8, baseDelay: Double = 0.5, maxDelay: Double = 30,
        stallTimeout: Double = 20, headers: [String: String] = [:], transport: (any HTTPTransport)? = nil
    ) {
        self.headers = headers
        self.transport = transport
        self.stallTimeout = max(0.5, stallTimeout)
        self.chunkSize = max(64 << 10, chunkSize)
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// The delay before try number `attempt` (1-based): exponential, with jitter in [50%, 100%].
    public func delay(attempt: Int) -> Double {
        let full = min(maxDelay, baseDelay * Double(1 << min(attempt - 1, 20)))
        return full * Double.random(in: 0.5...1)
    }
}

/// Uploads files with tus 1.0, streamed from disk a chunk at a time, and
/// resumes them — after a dropped connection, a server restart, or a new
/// process — from the last byte the server confirmed, kept in the journal.
public final class Uploader: Sendable {
    public let journal: UploadJournal
    public let options: UploadOptions
    /// For S3 targets (resuming and cancelling them too).
    public let s3Credentials: S3Credentials?
    /// For S3 targets through presigned URLs, when there are no credentials.
    public let s3Signer: (any S3URLSigner)?

    public init(
        journal: UploadJournal, options: UploadOptions = UploadOptions(), s3Credentials: S3Credentials? = nil,
        s3Signer: (any S3URLSigner)? = nil
    ) {
        self.journal = journal
        self.options = options
        self.s3Credentials = s3Credentials
        self.s3Signer = s3Signer
    }

    /// How this uploader authorizes S3 requests: credentials first, else the signer.
    var s3Authorization: S3Authorization? {
        if let s3Credentials { return .credentials(s3Credentials) }
        return s3Signer.map { .presigned($0) }
    }

    /// Uploads a file to a tus endpoint; returns its final record (done, failed or cancelled).
    /// `type` is the file's MIME type, sent with its name in `Upload-Metadata`.
    public func upload(
        path: String, to endpoint: URL, type: String = "application/octet-stream",
        events: AsyncStream<UploadEvent>.Continuation? = nil
    ) async -> UploadRecord {
        await start(path: path, target: endpoint.absoluteString, type: type, events: events) { record, source in
            await self.run(record, endpoint: endpoint, source: source, events: events)
        }
    }

    /// Opens the file, records a new upload in the journal and runs it with `body`. A file that
    /// cannot be opened or a journal that cannot be written ends as a failed record (its target
    /// redacted, as everywhere), reported on `events`.
    func start(
        path: String, target: String, type: String, events: AsyncStream<UploadEvent>.Continuation?,
        body: (UploadRecord, SourceFile) async -> UploadRecord
    ) async -> UploadRecord {
        var source: SourceFile?
        do {
            let opened = try SourceFile(path: path)
            source = opened
            let record = try await journal.begin(
                path: path, size: opened.size, modified: opened.modified, target: target, type: type)
            return await body(record, opened)
        } catch {
            let failed = UploadRecord.failed(
                path: path, target: redacted(target), type: type, size: source?.size ?? 0,
                modified: source?.modified ?? 0, error: error.description)
            events?.yield(.finished(failed))
            return failed
        }
    }

    /// Resumes an upload from the journal, asking the server where it stands.
    /// `endpoint` is needed when the server forgot the upload and it must start over.
    public func resume(
        id: String, endpoint: URL? = nil, events: AsyncStream<UploadEvent>.Continuation? = nil
    ) async
        -> UploadRecord?
    {
        guard let found = try? await journal.record(id: id) else { return nil }
        var record = found
        guard record.state != .done else { return record }
        // One process sends an upload at a time: a second resume says who holds it and leaves
        // the journal as that process keeps it.
        do {
            try await journal.claim(id: record.id)
        } catch {
            var refused = record
            refused.state = .failed
            refused.error = error.description
            events?.yield(.finished(refused))
            return refused
        }
        do {
            let source = try SourceFile(path: record.path)
            guard source.size == record.size, source.modified == record.modified else {
                throw UploadError(.sourceUnreadable, "\(record.path) changed since the upload began")
            }
            if let location = S3Location(journalTarget: record.target) {
                guard let authorization = s3Authorization else {
                    throw UploadError(
                        .unauthorized, "no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
                }
                return await runS3(
                    record, location: location, authorization: authorization, source: source, events: events)
            }
            if let form = FormTarget(journalTarget: record.target) {
                var target = form
                if let endpoint { target.url = endpoint }
                return await runForm(record, target: target, source: source, events: events)
            }
            if endpoint == nil, record.target.hasSuffix(UploadJournal.queryNotStored) {
                throw UploadError(
                    .badTarget,
                    "this upload's endpoint had a query (a token, say) that the journal does not keep; "
                        + "give the endpoint again to resume it")
            }
            guard let target = endpoint ?? URL(string: record.target) else {
                throw UploadError(.badTarget, "the journal's target \(record.target) is not a URL")
            }
            return await run(record, endpoint: target, source: source, events: events)
        } catch {
            record.state = .failed
            record.error = "\(error)"
            try? await journal.save(record)
            events?.yield(.finished(record))
            return record
        }
    }

    private func run(
        _ start: UploadRecord, endpoint: URL, source: SourceFile, events: AsyncStream<UploadEvent>.Continuation?
    ) async -> UploadRecord {
        var record = start
        var client = TusClient(
            endpoint: endpoint, timeout: options.stallTimeout, headers: options.headers, transport: options.transport)
        let began = Date()
        let firstOffset = record.offset
        events?.yield(.started(id: record.id, path: record.path, size: record.size))
        var attempts = 0
        // The most bytes the server ever confirmed: only going past it is progress, so a server
        // that confirms bytes and then forgets them cannot keep the upload going forever.
        var highWater = record.offset
        var remote: URL? = record.remote.flatMap { URL(string: $0) }
        var needsOffset = remote != nil  // after a restart or an error, ask the server
        var capabilities: TusCapabilities?
        while true {
            do {
                if Task.isCancelled { throw UploadError(.cancelled, "the upload was cancelled") }
                if capabilities == nil {
                    let found = try await client.capabilities()
                    if let limit = found.maxSize, record.size > limit {
                        throw UploadError(
                            .tooLarge, "the server takes files up to \(limit) bytes; this one has \(record.size)")
                    }
                    capabilities = found
                }
                let checksum = options.tusChecksums ? capabilities?.preferredChecksum : nil
                if remote == nil {
                    let name = (record.path as NSString).lastPathComponent
                    // creation-with-upload: the first chunk rides with the creation.
                    let first =
                        capabilities?.extensions.contains("creation-with-upload") == true
                        ? TusChunk(
                            source: source, offset: 0, length: Int(min(Int64(options.chunkSize), record.size)),
                            checksum: checksum) : nil
                    let created = try await client.create(
                        length: record.size, metadata: ["filename": name, "filetype": record.type], first: first)
                    remote = created.url
                    record.remote = created.url.absoluteString
                    record.offset = created.offset  // checked by the client: 0...size
                    needsOffset = false
                }
                guard let upload = remote else { continue }
                if needsOffset {
                    let offset = try await client.offset(of: upload)
                    guard (0...record.size).contains(offset) else {
                        throw UploadError(
                            .server, "the server says it holds \(offset) bytes of a \(record.size)-byte file",
                            status: 200)
                    }
                    // Tries count failures in a row without progress: bytes the server kept from
                    // a cut request are progress.
                    if offset > highWater {
                        attempts = 0
                        highWater = offset
                    }
                    if offset < record.offset {
                        events?.yield(.rewound(id: record.id, from: record.offset, to: offset))
                    }
                    record.offset = offset
                    needsOffset = false
                }
                if record.state != .uploading {
                    record.state = .uploading
                    try await journal.save(record)
                }
                if record.offset >= record.size { break }
                let count = Int(min(Int64(options.chunkSize), record.size - record.offset))
                let next = try await client.patch(
                    upload, chunk: TusChunk(source: source, offset: record.offset, length: count, checksum: checksum))
                guard next > record.offset, next <= record.size else {
                    throw UploadError(.server, "the server reported offset \(next) after a chunk at \(record.offset)")
                }
                record.offset = next
                if next > highWater {
                    attempts = 0
                    highWater = next
                }
                try await journal.save(record)
                Uploader.reportProgress(record, since: began, from: firstOffset, to: events)
            } catch {
                let failure = (error as? UploadError) ?? UploadError(.network, "\(error)")
                switch failure.code {
                case .gone:
                    // The server forgot the upload (expired, restarted without storage): start over.
                    remote = nil
                    record.remote = nil
                    record.offset = 0
                    attempts += 1
                case .offsetConflict:
                    needsOffset = true
                    attempts += 1
                default:
                    if failure.code == .network {
                        // A connection cut under the session can leave a dead one in its pool,
                        // which the next request would wait on: start with fresh connections.
                        client = TusClient(
                            endpoint: endpoint, timeout: options.stallTimeout, headers: options.headers,
                            transport: options.transport)
                    }
                    guard failure.isRetryable else { return await finish(record, failure, events) }
                    attempts += 1
                    needsOffset = remote != nil
                }
                if attempts >= options.maxAttempts { return await finish(record, failure, events) }
                let delay =
                    failure.code == .gone || failure.code == .offsetConflict ? 0 : options.delay(attempt: attempts)
                if delay > 0 {
                    events?.yield(.retrying(id: record.id, error: failure, delay: delay))
                    try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
                }
            }
        }
        record.state = .done
        record.error = nil
        try? await journal.save(record)
        events?.yield(.finished(record))
        return record
    }
}

extension Uploader {
    /// Reports the bytes the server confirmed, and the rate since `began`.
    static func reportProgress(
        _ record: UploadRecord, since began: Date, from firstOffset: Int64,
        to events: AsyncStream<UploadEvent>.Continuation?
    ) {
        let seconds = max(0.001, Date().timeIntervalSince(began))
        events?.yield(
            .progress(
                id: record.id, confirmed: record.offset, size: record.size,
                bytesPerSecond: Double(record.offset - firstOffset) / seconds))
    }

    /// Ends an upload that failed (or was cancelled): records why, reports it.
    func finish(
        _ start: UploadRecord, _ failure: UploadError, _ events: AsyncStream<UploadEvent>.Continuation?
    )
        async -> UploadRecord
    {
        var record = start
        record.state = failure.code == .cancelled ? .cancelled : .failed
        record.error = failure.description
        try? await journal.save(record)
        events?.yield(.finished(record))
        return record
    }
}

extension Uploader {
    /// Cancels an upload: ends it on the server (tus termination) and marks it cancelled.
    public func cancel(id: String) async -> UploadRecord? {
        guard var record = try? await journal.record(id: id) else { return nil }
        guard record.state != .done else { return record }
        if S3Location(journalTarget: record.target) != nil {
            if let authorization = s3Authorization { await abortS3(record, authorization: authorization) }
        } else if let remote = record.remote.flatMap({ URL(string: $0) }), let target = URL(string: record.target) {
            try? await TusClient(endpoint: target, headers: options.headers, transport: options.transport).terminate(
                remote)
        }
        record.state = .cancelled
        record.error = nil
        try? await journal.save(record)
        return record
    }
}

/// Where `pickup upload --to` sends files.
public enum UploadTarget: Sendable, Equatable {
    case tus(URL)
    /// A bucket and key prefix; the store's endpoint comes from `--endpoint`.
    case s3(bucket: String, prefix: String)
    /// A web form that takes the file in a `multipart/form-data` POST.
    case form(URL)

    /// Parses `tus+http://host/path`, `tus+https://...`, `s3://bucket/prefix` or
    /// `http(s)://host/path` (a form).
    public init(parsing text: String) throws(UploadError) {
        if text.hasPrefix("tus+http://") || text.hasPrefix("tus+https://"),
            let url = URL(string: String(text.dropFirst(4))), url.host != nil
        {
            self = .tus(url)
            return
        }
        if text.hasPrefix("s3://") {
            let rest = text.dropFirst(5)
            let parts = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let bucket = parts.first, !bucket.isEmpty else {
                throw UploadError(.badTarget, "'\(text)' names no bucket; use s3://BUCKET/PREFIX")
            }
            self = .s3(bucket: bucket, prefix: parts.count > 1 ? parts[1] : "")
            return
        }
        if text.hasPrefix("http://") || text.hasPrefix("https://"), let url = URL(string: text), url.host != nil {
            self = .form(url)
            return
        }
        throw UploadError(.badTarget, "'\(redacted(text))' is not an upload target")
    }
}
