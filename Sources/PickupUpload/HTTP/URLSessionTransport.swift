// Apple platforms only. On Linux URLSession lives in FoundationNetworking, whose libcurl and
// some forty libraries it loads cost every run of the `pickup` tool about 7 MB and a few
// milliseconds whether it uploads or not; Linux has `PickupHTTP`'s `AsyncHTTPTransport`.
#if canImport(Darwin)
    import Foundation

    /// Requests through URLSession: Apple platforms' transport. Redirects are refused (the
    /// answer is a 3xx the upload reports, so no credential follows to another host); the
    /// body is one chunk in memory, as URLSession takes it.
    public final class URLSessionTransport: HTTPTransport {
        /// One transport for the whole app, on an ephemeral session.
        public static let shared = URLSessionTransport()

        private let session: URLSession

        /// A transport on a session made with `configuration`.
        public init(configuration: URLSessionConfiguration = .ephemeral) {
            session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
        }

        /// Sends a request through URLSession and returns the answer, within `limits`.
        public func send(_ request: HTTPRequest, limits: HTTPLimits) async throws(UploadError) -> HTTPResponse {
            var urlRequest = URLRequest(url: request.url)
            urlRequest.httpMethod = request.method
            urlRequest.timeoutInterval = limits.stall
            for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
            urlRequest.httpBody = try request.body.materialized()
            let data: Data
            let response: URLResponse
            do {
                (data, response) = try await session.data(for: urlRequest)
            } catch {
                if Task.isCancelled { throw UploadError(.cancelled, "the upload was cancelled") }
                let nsError = error as NSError
                if nsError.domain == NSURLErrorDomain,
                    [
                        NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasBadDate,
                        NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorServerCertificateNotYetValid,
                        NSURLErrorSecureConnectionFailed,
                    ].contains(nsError.code)
                {
                    throw UploadError(.certificate, redacted(nsError.localizedDescription))
                }
                // No connection was made: refused, no route, the name not found, offline.
                if nsError.domain == NSURLErrorDomain,
                    [
                        NSURLErrorCannotConnectToHost, NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed,
                        NSURLErrorNotConnectedToInternet,
                    ].contains(nsError.code)
                {
                    throw UploadError.unreachable(redacted(nsError.localizedDescription))
                }
                throw UploadError(.network, redacted(nsError.localizedDescription))
            }
            guard let http = response as? HTTPURLResponse else { throw UploadError(.network, "no HTTP answer") }
            guard data.count <= limits.maxResponseBytes else {
                throw UploadError(
                    .badAnswer,
                    "the server's answer has \(data.count) bytes, more than Pickup reads (\(limits.maxResponseBytes))")
            }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            return HTTPResponse(status: http.statusCode, headers: headers, body: data)
        }

    }

    /// Follows no redirect: the 3xx itself comes back to the upload.
    private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }
#endif
