import Foundation
import PickupStore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The requests of the tus 1.0 protocol (core, creation, checksum,
/// termination), over URLSession. Each request is one round trip; the
/// upload loop decides what follows.
public struct TusClient: Sendable {
    public let endpoint: URL
    let session: URLSession
    /// Send an `Upload-Checksum` (sha1) with each chunk when the server offers the extension.
    public var checksums = true

    public init(endpoint: URL, timeout: TimeInterval = 30) {
        self.endpoint = endpoint
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = 4
        session = URLSession(configuration: configuration)
    }

    /// Creates an upload of `length` bytes; returns its URL (a relative `Location` is resolved).
    public func create(length: Int64, metadata: [String: String]) async throws(UploadError) -> URL {
        var request = request(endpoint, method: "POST")
        request.setValue(String(length), forHTTPHeaderField: "Upload-Length")
        let encoded = metadata.sorted { $0.key < $1.key }.map { key, value in
            key + " " + Data(value.utf8).base64EncodedString()
        }
        if !encoded.isEmpty { request.setValue(encoded.joined(separator: ","), forHTTPHeaderField: "Upload-Metadata") }
        let response = try await send(request, expecting: [201], what: "creating the upload")
        guard let location = response.value(forHTTPHeaderField: "Location"),
            let url = URL(string: location, relativeTo: endpoint)?.absoluteURL
        else {
            throw UploadError(
                .server, "the server created the upload but gave no Location", status: response.statusCode)
        }
        return url
    }

    /// How many bytes the server holds for the upload (HEAD).
    public func offset(of upload: URL) async throws(UploadError) -> Int64 {
        var request = request(upload, method: "HEAD")
        request.setValue("no-store", forHTTPHeaderField: "Cache-Control")
        let response = try await send(request, expecting: [200, 204], what: "asking the upload's offset")
        guard let value = response.value(forHTTPHeaderField: "Upload-Offset"), let offset = Int64(value) else {
            throw UploadError(.server, "the server gave no Upload-Offset", status: response.statusCode)
        }
        return offset
    }

    /// Sends `chunk` at `offset`; returns the server's new offset.
    public func patch(_ upload: URL, offset: Int64, chunk: Data) async throws(UploadError) -> Int64 {
        var request = request(upload, method: "PATCH")
        request.setValue("application/offset+octet-stream", forHTTPHeaderField: "Content-Type")
        request.setValue(String(offset), forHTTPHeaderField: "Upload-Offset")
        if checksums {
            let hasher = SHA1Hasher()
            chunk.withUnsafeBytes { hasher.update($0) }
            request.setValue(
                "sha1 " + Data(hasher.finalize()).base64EncodedString(), forHTTPHeaderField: "Upload-Checksum")
        }
        request.httpBody = chunk
        let response = try await send(request, expecting: [204, 200], what: "sending bytes \(offset)...")
        guard let value = response.value(forHTTPHeaderField: "Upload-Offset"), let next = Int64(value) else {
            throw UploadError(.server, "the server gave no Upload-Offset after a chunk", status: response.statusCode)
        }
        return next
    }

    /// Ends an upload on the server (termination extension).
    public func terminate(_ upload: URL) async throws(UploadError) {
        _ = try await send(
            request(upload, method: "DELETE"), expecting: [204, 200, 404, 410], what: "ending the upload")
    }

    private func request(_ url: URL, method: String) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("1.0.0", forHTTPHeaderField: "Tus-Resumable")
        return request
    }

    private func send(
        _ request: URLRequest, expecting: Set<Int>, what: String
    ) async throws(UploadError)
        -> HTTPURLResponse
    {
        let response: URLResponse
        do {
            (_, response) = try await session.data(for: request)
        } catch {
            throw UploadError(.network, "\(what) failed: \(TusClient.describe(error))")
        }
        guard let http = response as? HTTPURLResponse else {
            throw UploadError(.network, "\(what) got no HTTP answer")
        }
        let status = http.statusCode
        if expecting.contains(status) { return http }
        switch status {
        case 404, 410: throw UploadError(.gone, "the server no longer knows the upload", status: status)
        case 409: throw UploadError(.offsetConflict, "the server holds a different offset", status: status)
        case 460: throw UploadError(.checksumMismatch, "the server found the chunk corrupted", status: status)
        case 401, 403: throw UploadError(.unauthorized, "the server refused the credentials", status: status)
        default:
            throw UploadError(
                .server, "\(what) failed at \(redacted(request.url?.absoluteString ?? ""))", status: status)
        }
    }

    static func describe(_ error: Error) -> String {
        let text = (error as NSError).localizedDescription
        return redacted(text)
    }
}
