import Foundation
import PickupUpload

/// A server in memory, reached as an `HTTPTransport`: the request's body is read whole (the
/// test files are small) and answered on the server's actor, one request at a time.
protocol InMemoryServer: Actor, HTTPTransport {
    /// The server's answer to `request`, whose body is `body`.
    func answer(_ request: HTTPRequest, body: Data) throws(UploadError) -> HTTPResponse
}

extension InMemoryServer {
    nonisolated func send(_ request: HTTPRequest, limits: HTTPLimits) async throws(UploadError) -> HTTPResponse {
        let body = try request.body.materialized()
        return try await answer(request, body: body)
    }
}
