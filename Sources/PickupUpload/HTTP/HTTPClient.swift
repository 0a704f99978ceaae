import Foundation
import Pickup

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends HTTP requests for the upload protocols.
///
/// On Linux, plain `http://` goes over Pickup's own HTTP/1.1 connections
/// (`SocketConnection`): bodies streamed from the file with `sendfile`, kept-alive
/// connections reused, a cut or stalled connection reported at once, and a
/// cancelled task's request interrupted. `https://` (and every URL on Apple
/// platforms) goes through URLSession, with the body in memory — one chunk.
final class HTTPClient: Sendable {
    let timeout: Double
    private let session: URLSession
    #if os(Linux)
        private let pool = ConnectionPool()
    #endif

    init(timeout: Double) {
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends `request`; `what` names the step in errors ("sending part 3").
    func send(_ request: HTTPRequest, what: String) async throws(UploadError) -> HTTPResponse {
        if Task.isCancelled { throw UploadError(.cancelled, "the upload was cancelled") }
        #if os(Linux)
            if request.url.scheme?.lowercased() == "http" { return try await sendOverSocket(request, what: what) }
        #endif
        return try await sendOverSession(request, what: what)
    }

    private func sendOverSession(_ request: HTTPRequest, what: String) async throws(UploadError) -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = try request.body.materialized()
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            if Task.isCancelled { throw UploadError(.cancelled, "the upload was cancelled") }
            throw UploadError(.network, "\(what) failed: \(redacted((error as NSError).localizedDescription))")
        }
        guard let http = response as? HTTPURLResponse else { throw UploadError(.network, "\(what) got no HTTP answer") }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }

    #if os(Linux)
        private func sendOverSocket(_ request: HTTPRequest, what: String) async throws(UploadError) -> HTTPResponse {
            guard let host = request.url.host else { throw UploadError(.badTarget, "the URL names no host") }
            let port = request.url.port ?? 80
            let flight = Flight()
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation {
                    (continuation: CheckedContinuation<Result<HTTPResponse, UploadError>, Never>) in
                    DispatchQueue.global().async {
                        continuation.resume(
                            returning: Result { () throws(UploadError) -> HTTPResponse in
                                try self.exchange(request, host: host, port: port, flight: flight, what: what)
                            })
                    }
                }
            } onCancel: {
                flight.cancel()
            }
            if flight.cancelled { throw UploadError(.cancelled, "the upload was cancelled") }
            return try result.get()
        }

        /// Blocking: one request on a kept-alive connection, or on a new one when the
        /// kept one turns out stale (closed by the server while idle, nothing answered).
        private func exchange(
            _ request: HTTPRequest, host: String, port: Int, flight: Flight, what: String
        ) throws(UploadError) -> HTTPResponse {
            let key = "\(host):\(port)"
            var kept = pool.take(key)
            while true {
                let connection: SocketConnection
                if let reused = kept {
                    connection = reused
                } else {
                    do {
                        connection = try SocketConnection(host: host, port: port, timeout: timeout)
                    } catch {
                        throw UploadError(error.code, "\(what) failed: \(error.message)")
                    }
                }
                guard flight.begin(connection) else { throw UploadError(.cancelled, "the upload was cancelled") }
                defer { flight.end() }
                do {
                    let response = try connection.exchange(request, what: what)
                    if connection.reusable { pool.give(connection) }
                    return response
                } catch {
                    if kept != nil, !connection.answered, error.code == .network, !flight.cancelled {
                        kept = nil  // a stale kept-alive connection: try once on a new one
                        continue
                    }
                    throw error
                }
            }
        }
    #endif
}

#if os(Linux)
    /// Idle kept-alive connections, by host and port.
    private final class ConnectionPool: Sendable {
        private let idle = LockedValue<[String: [SocketConnection]]>([:])

        func take(_ key: String) -> SocketConnection? {
            idle.withValue { $0[key]?.popLast() }
        }

        func give(_ connection: SocketConnection) {
            idle.withValue { idle in
                var list = idle[connection.key] ?? []
                if list.count < 8 { list.append(connection) }
                idle[connection.key] = list
            }
        }
    }

    /// The connection a request is using, so that cancelling the task can interrupt it.
    private final class Flight: Sendable {
        private let state = LockedValue<(connection: SocketConnection?, cancelled: Bool)>((nil, false))

        var cancelled: Bool { state.withValue { $0.cancelled } }

        /// Records the connection in use; false when the task was cancelled already.
        func begin(_ connection: SocketConnection) -> Bool {
            state.withValue { state in
                if state.cancelled { return false }
                state.connection = connection
                return true
            }
        }

        func end() { state.withValue { $0.connection = nil } }

        func cancel() {
            state.withValue { state in
                state.cancelled = true
                state.connection?.interrupt()
            }
        }
    }
#endif
