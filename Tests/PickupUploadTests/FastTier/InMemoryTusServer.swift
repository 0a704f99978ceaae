import Foundation
import PickupUpload

/// A tus 1.0 server in memory, reached as an `HTTPTransport`: the fast tier beside the suites
/// that start a real server (TusUploadTests). It answers as the tus 1.0 protocol says
/// (https://tus.io/protocols/resumable-upload): `OPTIONS` lists the extensions, `POST` with
/// `Upload-Length` creates an upload (201 and a `Location`), `HEAD` gives its `Upload-Offset`,
/// `PATCH` at the current offset appends (204 and the new offset; 409 at another offset).
/// `cutting` scripts faults: the requests (by number, from 1) that fail as a dropped
/// connection does, before the server takes any byte. `largestBody` puts a proxy in front that
/// refuses larger request bodies with 413 and passes nothing on, as nginx's
/// `client_max_body_size` does ("If the size in a request exceeds the configured value, the 413
/// (Request Entity Too Large) error is returned to the client", nginx.org's
/// ngx_http_core_module) and Cloudflare's limit on request bodies (100 MB on its free plan).
/// `keepingAtMost` keeps no more than that of each PATCH and answers with the offset it reached,
/// which tus 1.0 allows: "The Server SHOULD accept PATCH requests against any upload ... and apply
/// the bytes contained in the message at the given offset"; the new `Upload-Offset` in the answer
/// is what the client resumes from (a server that stored part of a body it lost, say).
actor InMemoryTusServer: InMemoryServer {
    let endpoint: URL
    private var uploads: [String: (length: Int64, bytes: Data)] = [:]
    private var count = 0
    private var cuts: Set<Int>
    private let largestBody: Int?
    private let keepingAtMost: Int?
    /// The method and path of every request, in order.
    private(set) var log: [String] = []
    /// The body size of every PATCH, in order (those cut or refused too).
    private(set) var patches: [Int] = []

    /// A server whose creation endpoint is `endpoint` (`http://tus.test/files/`, say).
    init(
        endpoint: URL, cutting cuts: Set<Int> = [], largestBody: Int? = nil, keepingAtMost: Int? = nil,
        stallingHalfway: Set<Int> = []
    ) {
        self.endpoint = endpoint
        self.cuts = cuts
        self.largestBody = largestBody
        self.keepingAtMost = keepingAtMost
        self.stalls = stallingHalfway
    }

    /// `stallingHalfway`: the requests (by number) whose PATCH the server takes half of, then
    /// never answers, until the client lets go: a chunk a pause cuts short, of which a tus
    /// server keeps what arrived ("apply the bytes contained in the message", tus 1.0; tusd
    /// writes a PATCH's body as it reads it). Any other request so numbered is never answered.
    private let stalls: Set<Int>

    nonisolated func send(_ request: HTTPRequest, limits: HTTPLimits) async throws(UploadError) -> HTTPResponse {
        let body = try request.body.materialized()
        if await takesHalfThenStalls(request, body: body) {
            if request.method == "PATCH" { request.onBodyBytesSent?(Int64(body.count / 2)) }
            // Until the request is let go (a pause cancels its task), or its stall limit passes,
            // as the real transports' watch ends it: then it ends as a dropped one.
            try? await Task.sleep(nanoseconds: UInt64(max(0, limits.stall) * 1_000_000_000))
            throw UploadError(.network, "the connection was closed while the request was going")
        }
        if let told = request.onBodyBytesSent, !body.isEmpty {
            told(Int64(body.count / 2))
            told(Int64(body.count))
        }
        return try await answer(request, body: body)
    }

    /// Counts a request scripted to stall, and of a PATCH keeps the first half of its body.
    private func takesHalfThenStalls(_ request: HTTPRequest, body: Data) -> Bool {
        guard stalls.contains(count + 1) else { return false }
        count += 1
        log.append(request.method + " " + request.url.path)
        if request.method == "PATCH", var upload = uploads[request.url.lastPathComponent] {
            patches.append(body.count)
            upload.bytes.append(body.prefix(body.count / 2))
            uploads[request.url.lastPathComponent] = upload
        }
        return true
    }

    /// What the server holds of an upload.
    func stored(_ remote: String) -> Data? {
        remote.split(separator: "/").last.flatMap { uploads[String($0)]?.bytes }
    }

    /// How many uploads were created.
    private(set) var created = 0

    /// Lets go of an upload, as a server does when it expires unfinished uploads (tusd's
    /// `-expire`): then "the Server SHOULD return either the 404 Not Found, 410 Gone or 403
    /// Forbidden status" for it (tus 1.0, HEAD).
    func forget(_ remote: String) {
        guard let id = remote.split(separator: "/").last else { return }
        uploads[String(id)] = nil
    }

    func answer(_ request: HTTPRequest, body: Data) throws(UploadError) -> HTTPResponse {
        count += 1
        log.append(request.method + " " + request.url.path)
        if request.method == "PATCH" { patches.append(body.count) }
        if cuts.contains(count) { throw UploadError(.network, "the connection was cut (scripted)") }
        let tus = ["Tus-Resumable": "1.0.0"]
        if let largestBody, body.count > largestBody { return HTTPResponse(status: 413, headers: [:], body: Data()) }
        switch request.method {
        case "OPTIONS":
            return HTTPResponse(
                status: 204,
                headers: lower(tus.merging(["Tus-Version": "1.0.0", "Tus-Extension": "creation"]) { a, _ in a }),
                body: Data())
        case "POST":
            guard let length = request.value("Upload-Length").flatMap({ Int64($0) }) else {
                return HTTPResponse(status: 400, headers: lower(tus), body: Data())
            }
            created += 1
            let id = String(created)
            uploads[id] = (length, Data())
            return HTTPResponse(
                status: 201, headers: lower(tus.merging(["Location": endpoint.absoluteString + id]) { a, _ in a }),
                body: Data())
        case "HEAD":
            guard let upload = uploads[request.url.lastPathComponent] else {
                return HTTPResponse(status: 404, headers: lower(tus), body: Data())
            }
            return HTTPResponse(
                status: 200,
                headers: lower(
                    tus.merging([
                        "Upload-Offset": String(upload.bytes.count), "Upload-Length": String(upload.length),
                        "Cache-Control": "no-store",
                    ]) { a, _ in a }), body: Data())
        case "PATCH":
            let id = request.url.lastPathComponent
            guard var upload = uploads[id] else { return HTTPResponse(status: 404, headers: lower(tus), body: Data()) }
            guard request.value("Upload-Offset").flatMap({ Int64($0) }) == Int64(upload.bytes.count) else {
                return HTTPResponse(status: 409, headers: lower(tus), body: Data())
            }
            upload.bytes.append(keepingAtMost.map { body.prefix($0) } ?? body)
            uploads[id] = upload
            return HTTPResponse(
                status: 204, headers: lower(tus.merging(["Upload-Offset": String(upload.bytes.count)]) { a, _ in a }),
                body: Data())
        default:
            return HTTPResponse(status: 405, headers: lower(tus), body: Data())
        }
    }

    /// Header names as `HTTPResponse.value(_:)` looks them up: lowercased.
    private func lower(_ headers: [String: String]) -> [String: String] {
        Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }
}
