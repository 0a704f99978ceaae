import Foundation
import Pickup
import PickupStore

/// A checksum a tus server can check a chunk against (`Upload-Checksum`).
public enum TusChecksum: String, Sendable, CaseIterable {
    /// SHA-1 and SHA-256.
    case sha1, sha256
}

/// What a tus server says it supports (`OPTIONS`).
public struct TusCapabilities: Sendable, Equatable {
    /// The tus extensions it lists (`Tus-Extension`), such as "creation" and "checksum".
    public var extensions: Set<String> = []
    /// The checksum algorithms it accepts (`Tus-Checksum-Algorithm`).
    public var checksums: [TusChecksum] = []
    /// The largest upload it takes (`Tus-Max-Size`), when it says.
    public var maxSize: Int64?
    /// The largest chunk a proxy in front of it let through when it refused a larger one (413),
    /// found by an earlier upload: later chunks to the endpoint grow no larger.
    var largestChunk: Int?

    /// The checksum Pickup sends: sha256 when offered, else sha1, else none.
    public var preferredChecksum: TusChecksum? {
        checksums.contains(.sha256) ? .sha256 : checksums.contains(.sha1) ? .sha1 : nil
    }
}

/// The requests of the tus 1.0 protocol (core, creation, creation-with-upload,
/// checksum, termination). Each request is one round trip; the upload loop
/// decides what follows. Chunks are streamed from the file.
public struct TusClient: Sendable {
    /// The server's creation URL.
    public let endpoint: URL
    let http: StepSender
    let headers: [String: String]

    /// `headers` go with every request (an `Authorization`, say); `transport` sends them
    /// (nil: `HTTPTransports.current`).
    public init(
        endpoint: URL, timeout: TimeInterval = UploadOptions.defaultStallTimeout, headers: [String: String] = [:],
        transport: (any HTTPTransport)? = nil
    ) {
        self.endpoint = endpoint
        self.headers = headers
        http = StepSender(transport: transport, stall: timeout)
    }

    /// A client for `endpoint` with the options' stall timeout, headers and transport.
    init(endpoint: URL, options: UploadOptions) {
        self.init(
            endpoint: endpoint, timeout: options.stallTimeout, headers: options.headers, transport: options.transport)
    }

    /// What a new upload of `record` is created with: its file's name and type.
    static func metadata(of record: UploadRecord) -> [String: String] {
        var metadata = [
            "filename": SystemPath.readable((record.path as NSString).lastPathComponent), "filetype": record.type,
        ]
        metadata.merge(record.metadata) { _, app in app }
        return metadata
    }

    /// Why `metadata` cannot go in `Upload-Metadata`, if it cannot: a key "MUST NOT contain
    /// spaces and commas and MUST NOT be empty" (tus 1.0.0, Upload-Metadata), and a header
    /// carries no line break.
    public static func problem(metadata: [String: String]) -> String? {
        for key in metadata.keys.sorted() {
            if key.isEmpty { return "a tus metadata key is empty: each needs a name" }
            // A header's visible ASCII (0x21-0x7E), but the comma that separates the pairs.
            if key.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value > 0x7E || $0 == "," }) {
                return "the tus metadata key '\(key)' has a space, a comma, or a character that is not "
                    + "visible ASCII: tus keys take none"
            }
        }
        return nil
    }

    /// The server's extensions and checksum algorithms. A server that does not
    /// answer `OPTIONS` is taken to support the core protocol and creation only.
    public func capabilities() async throws(UploadError) -> TusCapabilities {
        let response = try await http.send(request(endpoint, "OPTIONS"), what: "asking the server's tus extensions")
        var found = TusCapabilities()
        guard (200..<300).contains(response.status) else { return found }
        let list = { (name: String) in
            (response.value(name) ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
        }
        found.extensions = Set(list("Tus-Extension"))
        found.checksums = list("Tus-Checksum-Algorithm").compactMap(TusChecksum.init(rawValue:))
        found.maxSize = response.value("Tus-Max-Size").flatMap { Int64($0) }
        return found
    }

    /// Creates an upload of `length` bytes; returns its URL (a relative `Location`
    /// is resolved) and the server's offset. With `first` (creation-with-upload),
    /// the first chunk goes in the same request.
    public func create(
        length: Int64, metadata: [String: String], first: TusChunk? = nil
    ) async throws(UploadError) -> (url: URL, offset: Int64) {
        var request = request(endpoint, "POST")
        request.set("Upload-Length", String(length))
        let encoded = metadata.sorted { $0.key < $1.key }.map { key, value in
            key + " " + Data(value.utf8).base64EncodedString()
        }
        if !encoded.isEmpty { request.set("Upload-Metadata", encoded.joined(separator: ",")) }
        if let first { try attach(first, to: &request) }
        let response: HTTPResponse
        do {
            response = try await send(request, expecting: [201], what: "creating the upload")
        } catch  where error.code == .gone {
            // No upload to forget yet: the endpoint itself is wrong.
            var wrong = UploadError(
                .badTarget, "the server has no tus endpoint at \(redacted(endpoint.absoluteString))",
                status: error.status)
            wrong.targetProblem = .noTusEndpoint
            throw wrong
        }
        guard let location = response.value("Location"),
            let url = URL(string: location, relativeTo: endpoint)?.absoluteURL
        else {
            throw UploadError(.server, "the server created the upload but gave no Location", status: response.status)
        }
        try TusClient.check(location: url, for: endpoint)
        let offset = response.value("Upload-Offset").flatMap { Int64($0) } ?? 0
        guard (0...length).contains(offset) else {
            throw UploadError(
                .server, "the server says it holds \(offset) bytes of a new \(length)-byte upload", status: 201)
        }
        return (url, offset)
    }

    /// Refuses an upload URL that would take the file somewhere the endpoint did not say: a
    /// scheme other than http and https, or http for an https endpoint (the file and its
    /// credentials in the clear).
    static func check(location: URL, for endpoint: URL) throws(UploadError) {
        let scheme = location.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            throw UploadError(
                .server,
                "the server named an upload URL with the scheme '\(scheme)'; Pickup uploads over http and https only")
        }
        if endpoint.scheme?.lowercased() == "https", scheme == "http" {
            throw UploadError(
                .server,
                "the server answered an https upload with an http:// Location (\(redacted(location.absoluteString))); "
                    + "Pickup does not send the file and its credentials in the clear. Configure the server's "
                    + "public address as https (behind a TLS proxy, its forwarded-scheme setting)")
        }
    }

    /// Whether `url` is the endpoint's origin (scheme, host, port): headers given for the
    /// endpoint (an `Authorization`) go there and nowhere else.
    func sameOrigin(_ url: URL) -> Bool { url.hasSameOrigin(as: endpoint) }

    /// How many bytes the server holds for the upload (HEAD).
    public func offset(of upload: URL) async throws(UploadError) -> Int64 {
        var request = request(upload, "HEAD")
        request.set("Cache-Control", "no-store")
        let response = try await send(request, expecting: [200, 204], what: "asking the upload's offset")
        guard let value = response.value("Upload-Offset"), let offset = Int64(value) else {
            throw UploadError(.server, "the server gave no Upload-Offset", status: response.status)
        }
        return offset
    }

    /// Sends `chunk`; returns the server's new offset.
    public func patch(_ upload: URL, chunk: TusChunk) async throws(UploadError) -> Int64 {
        var request = patchRequest(upload, offset: chunk.offset)
        try attach(chunk, to: &request)
        let response = try await send(
            request, expecting: [204, 200], what: "sending the chunk at \(ByteCountLabel.string(chunk.offset))")
        guard let value = response.value("Upload-Offset"), let next = Int64(value) else {
            throw UploadError(.server, "the server gave no Upload-Offset after a chunk", status: response.status)
        }
        return next
    }

    /// A PATCH of bytes from `offset`, without its body: the headers go only to the endpoint's
    /// origin, as every request of the client's.
    func patchRequest(_ upload: URL, offset: Int64) -> HTTPRequest {
        var request = request(upload, "PATCH")
        request.set("Upload-Offset", String(offset))
        return request
    }

    /// Ends an upload on the server (termination extension).
    public func terminate(_ upload: URL) async throws(UploadError) {
        _ = try await send(request(upload, "DELETE"), expecting: [204, 200, 404, 410], what: "ending the upload")
    }

    private func attach(_ chunk: TusChunk, to request: inout HTTPRequest) throws(UploadError) {
        request.set("Content-Type", "application/offset+octet-stream")
        if let checksum = chunk.checksum {
            request.set("Upload-Checksum", checksum.rawValue + " " + (try chunk.digest(checksum)))
        }
        request.body = .file(chunk.source, offset: chunk.offset, length: Int64(chunk.length))
    }

    private func request(_ url: URL, _ method: String) -> HTTPRequest {
        let own = sameOrigin(url) ? headers.sorted { $0.key < $1.key } : []
        return HTTPRequest(method, url, headers: own + [("Tus-Resumable", "1.0.0")])
    }

    private func send(
        _ request: HTTPRequest, expecting: Set<Int>, what: String
    ) async throws(UploadError) -> HTTPResponse {
        let response = try await http.send(request, what: what)
        let status = response.status
        if expecting.contains(status) { return response }
        switch status {
        case 404, 410: throw UploadError(.gone, "the server no longer knows the upload", status: status)
        case 409: throw UploadError(.offsetConflict, "the server holds a different offset", status: status)
        case 460: throw UploadError(.checksumMismatch, "the server found the chunk corrupted", status: status)
        case 401, 403: throw UploadError(.unauthorized, "the server refused the credentials", status: status)
        // A PATCH's 413 is its body's (a proxy's limit); a creation's, with its first chunk or
        // not, is most often the file's (tusd refusing Upload-Length).
        case 413 where request.method == "PATCH" && request.body.length > 0:
            var refused = UploadError(
                .tooLarge,
                "the server, or a proxy in front of it, refused a request of \(request.body.length) bytes as too large",
                status: status)
            refused.targetProblem = .requestTooLarge
            throw refused
        case 413: throw UploadError(.tooLarge, "the server refuses a file this large", status: status)
        default:
            throw UploadError(
                .server, "\(what) failed at \(redacted(request.url.absoluteString))", status: status,
                retryAfter: response.retryAfter())
        }
    }
}

/// A range of the file sent in one request, with the checksum to send beside it.
public struct TusChunk: Sendable {
    let source: SourceFile
    /// Where the chunk starts in the file.
    public let offset: Int64
    /// The chunk's length in bytes.
    public let length: Int
    /// The checksum sent with it, if any.
    public let checksum: TusChecksum?

    init(source: SourceFile, offset: Int64, length: Int, checksum: TusChecksum?) {
        self.source = source
        self.offset = offset
        self.length = length
        self.checksum = checksum
    }

    /// The chunk's digest, base64, read from the file a block at a time.
    func digest(_ checksum: TusChecksum) throws(UploadError) -> String {
        let digest: [UInt8]
        switch checksum {
        case .sha1:
            let hasher = DigestHasher(.sha1)
            try source.forEachBlock(at: offset, count: length) { hasher.update($0) }
            digest = hasher.finalize()
        case .sha256:
            let hasher = DigestHasher()
            try source.forEachBlock(at: offset, count: length) { hasher.update($0) }
            digest = hasher.finalize()
        }
        return Data(digest).base64EncodedString()
    }
}
