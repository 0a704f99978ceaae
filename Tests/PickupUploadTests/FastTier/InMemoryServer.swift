import Foundation
import PickupUpload

/// A server in memory, reached as an `HTTPTransport`: the request's body is read whole (the
/// test files are small) and answered on the server's actor, one request at a time.
///
/// Like the real transports, it tells the request's `onBodyBytesSent` as the body goes: half of it,
/// then all of it, before the server answers (`AsyncHTTPTransport` tells each piece the
/// connection wrote; Apple's `NSURLSession.h` on `didSendBodyData`: "Sent periodically to
/// notify the delegate of upload progress").
protocol InMemoryServer: Actor, HTTPTransport {
    /// The server's answer to `request`, whose body is `body`.
    func answer(_ request: HTTPRequest, body: Data) throws(UploadError) -> HTTPResponse
}

extension InMemoryServer {
    nonisolated func send(_ request: HTTPRequest, limits: HTTPLimits) async throws(UploadError) -> HTTPResponse {
        let body = try request.body.materialized()
        if let told = request.onBodyBytesSent, !body.isEmpty {
            told(Int64(body.count / 2))
            told(Int64(body.count))
        }
        return try await answer(request, body: body)
    }
}
