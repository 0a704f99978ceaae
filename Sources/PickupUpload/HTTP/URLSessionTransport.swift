// Apple platforms only. On Linux URLSession lives in FoundationNetworking, whose libcurl and
// some forty libraries it loads cost every run of the `pickup` tool about 7 MB and a few
// milliseconds whether it uploads or not; Linux has `PickupHTTP`'s `AsyncHTTPTransport`.
// The Linux tests compile this same file a second time, in the test-only target
// `URLSessionTransportLinux` (PICKUP_URLSESSION_TESTS), to run it through FoundationNetworking.
#if canImport(Darwin) || PICKUP_URLSESSION_TESTS
    import Foundation
    import Pickup
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
    #if PICKUP_URLSESSION_TESTS
        import PickupUpload
    #endif

    /// Requests through URLSession: Apple platforms' transport.
    ///
    /// - Bodies never sit whole in memory: a body that is a whole file is uploaded from that
    ///   file (`uploadTask(with:fromFile:)`); a byte range or a form's head, file and tail up to
    ///   16 MB (a tus chunk, an S3 part) is read into memory; a larger one is written to a
    ///   temporary file in 1 MB pieces and uploaded from it (as Alamofire does for large forms).
    /// - Progress is the body's bytes the session sent (`didSendBodyData`), and `StallRule`
    ///   judges it: a link that goes silent is cut as soon as its own pace says so, and at
    ///   `limits.stall` at the latest; the whole exchange ends at `limits.deadline`.
    /// - Redirects are refused (the 3xx comes back to the upload, so no credential follows to
    ///   another host); an answer is read up to `limits.maxResponseBytes` (a larger
    ///   Content-Length is refused with its first bytes), and one still dripping in after the
    ///   stall ceiling is given up.
    /// - A link whose sent bytes go unacknowledged once the kernel has the whole body is found at
    ///   the stall ceiling: URLSession sets no socket option a caller can reach (AsyncHTTPTransport
    ///   uses TCP_USER_TIMEOUT and finds it in seconds).
    ///
    /// What differs from Apple's URLSession on Linux, where the tests run it through
    /// FoundationNetworking (libcurl):
    /// - a cancelled task goes on reading and queueing what it reads for the delegate (an endless
    ///   answer: 1.9 GB in 8 s): a task whose answer is refused is suspended first, which pauses
    ///   libcurl at once, and the exchange ends without waiting for the task's completion;
    /// - some failures come as URL error -1 (unknown) with libcurl's text: a connection closed
    ///   mid-answer (Apple: -1005, connection lost) and a certificate not trusted (Apple: -1202,
    ///   which this transport reports as `.certificate`);
    /// - trust is read only from `/etc/ssl/certs/ca-certificates.crt`, with no way to add an
    ///   authority for a session, and there are no background sessions.
    public final class URLSessionTransport: HTTPTransport, Sendable {
        /// One transport for the whole app, on an ephemeral session.
        public static let shared = URLSessionTransport()

        /// The largest body held in memory; a larger one goes through a temporary file.
        static let memoryLimit: Int64 = 16 << 20

        private let session: URLSession
        private let tasks: TaskDelegate

        /// A transport on a session made with `configuration`.
        public init(configuration: URLSessionConfiguration = .ephemeral) {
            tasks = TaskDelegate()
            session = URLSession(configuration: configuration, delegate: tasks, delegateQueue: nil)
        }

        /// Sends a request through URLSession and returns the answer, within `limits`.
        public func send(_ request: HTTPRequest, limits: HTTPLimits) async throws(UploadError) -> HTTPResponse {
            var urlRequest = URLRequest(url: request.url)
            urlRequest.httpMethod = request.method
            // URLSession's own idle timeout only backs up `StallRule` (the watch below), which
            // judges the link's pace and says how long it was silent.
            urlRequest.timeoutInterval = limits.stall + 2
            for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
            let body = try BodySource(request.body)
            defer { body.removeTemporary() }
            let task: URLSessionTask
            switch body {
            case .none: task = session.dataTask(with: urlRequest)
            case .data(let data): task = session.uploadTask(with: urlRequest, from: data)
            case .file(let url, _): task = session.uploadTask(with: urlRequest, fromFile: url)
            }
            let exchange = Exchange(limits: limits, bodyBytesSent: request.onBodyBytesSent)
            do {
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation {
                        (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                        exchange.start(continuation)
                        tasks.add(task, exchange)
                        task.resume()
                        exchange.watch(task)
                    }
                } onCancel: {
                    task.cancel()
                }
            } catch let error as UploadError {
                throw error
            } catch {
                if Task.isCancelled { throw UploadError(.cancelled, "the upload was cancelled") }
                throw URLSessionTransport.explain(error, host: request.url.host ?? "the server", stall: limits.stall)
            }
        }

        /// What URLSession's error means: a certificate not trusted, or the network.
        /// `answered`: the answer's head had arrived.
        static func explain(_ error: any Error, host: String, stall: Double, answered: Bool = false) -> UploadError {
            let nsError = error as NSError
            let certificate = [
                NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasBadDate,
                NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorServerCertificateNotYetValid,
                NSURLErrorSecureConnectionFailed,
            ]
            if nsError.domain == NSURLErrorDomain, certificate.contains(nsError.code) {
                return UploadError(
                    .certificate, "the certificate of \(host) is not trusted (URL error \(nsError.code))")
            }
            if nsError.domain == NSURLErrorDomain, nsError.code == NSURLErrorCancelled {
                return UploadError(.cancelled, "the upload was cancelled")
            }
            // No connection was made: refused, no route, the name not found, offline.
            let unreachable = [
                NSURLErrorCannotConnectToHost, NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed,
                NSURLErrorNotConnectedToInternet,
            ]
            if nsError.domain == NSURLErrorDomain, unreachable.contains(nsError.code) {
                return UploadError.unreachable("no connection could be made to \(host) (URL error \(nsError.code))")
            }
            if nsError.domain == NSURLErrorDomain, nsError.code == NSURLErrorTimedOut {
                return UploadError(
                    .network, "the connection stalled: nothing moved for \(String(format: "%.1f", stall)) s")
            }
            // A connection that ends after the answer's head, before its body is all there, is the
            // server's doing: Apple's URLSession says -1005 (connection lost), FoundationNetworking
            // -1 (unknown, libcurl's "transfer closed with n bytes remaining").
            if answered {
                return UploadError(
                    .network,
                    "the server closed the connection before its answer was complete (URL error \(nsError.code))")
            }
            if nsError.domain == NSURLErrorDomain, nsError.code == NSURLErrorNetworkConnectionLost {
                return UploadError(
                    .network, "the connection to \(host) was closed before the exchange was complete (URL error -1005)")
            }
            return UploadError(.network, "the request to \(host) failed (URL error \(nsError.code))")
        }
    }

    /// Where a request's body comes from for URLSession.
    enum BodySource {
        case none
        case data(Data)
        /// A file to upload from; `temporary` when it was written for this request.
        case file(URL, temporary: Bool)

        init(_ body: HTTPBody) throws(UploadError) {
            switch body {
            case .none: self = .none
            case .data(let data): self = .data(data)
            case .file(let source, 0, let length) where length == source.size:
                self = .file(URL(fileURLWithPath: source.path), temporary: false)
            default:
                if body.length <= URLSessionTransport.memoryLimit {
                    self = .data(try body.materialized())
                } else {
                    self = .file(try BodySource.write(body), temporary: true)
                }
            }
        }

        /// The body written to a temporary file in 1 MB pieces.
        static func write(_ body: HTTPBody) throws(UploadError) -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "pickup-body-\(UUID().uuidString)")
            try body.write(toFile: url.path)
            return url
        }

        func removeTemporary() {
            if case .file(let url, true) = self { try? FileManager.default.removeItem(at: url) }
        }
    }

    /// One request's state: its answer gathered, its progress judged, its end reported once.
    ///
    /// `@unchecked Sendable` is safe: every field is read and written under `lock`; URLSession
    /// calls the delegate on its serial delegate queue and the watch runs on its own task.
    final class Exchange: @unchecked Sendable {
        private let lock = NSLock()
        private let limits: HTTPLimits
        private var rule: StallRule
        private var continuation: CheckedContinuation<HTTPResponse, any Error>?
        private var answer = Data()
        private var failure: UploadError?
        private let began: Double
        /// When the answer's first bytes came.
        private var answerBegan: Double?

        /// Told the body's bytes sent so far (`HTTPRequest.onBodyBytesSent`); outside the lock.
        private let bodyBytesSent: (@Sendable (Int64) -> Void)?

        init(limits: HTTPLimits, bodyBytesSent: (@Sendable (Int64) -> Void)? = nil) {
            self.limits = limits
            self.bodyBytesSent = bodyBytesSent
            began = Exchange.now()
            rule = StallRule(ceiling: limits.stall, start: began)
        }

        static func now() -> Double { ProcessInfo.processInfo.systemUptime }

        func start(_ continuation: CheckedContinuation<HTTPResponse, any Error>) {
            lock.withLock { self.continuation = continuation }
        }

        /// `didSendBodyData`: `total` of the body's `expected` bytes sent so far.
        func sent(total: Int64, expected: Int64) {
            lock.withLock {
                if expected > 0, total >= expected {
                    rule.bodySent(at: Exchange.now())
                } else {
                    rule.progressed(at: Exchange.now())
                }
            }
            bodyBytesSent?(total)
        }

        /// Answer bytes; false when the answer is longer than Pickup reads (the task is then cancelled).
        func received(_ data: Data, announced: Int64 = -1) -> Bool {
            // A Content-Length past the bound is refused with the first bytes, before the rest queues up.
            if announced > Int64(limits.maxResponseBytes) {
                abandon(
                    UploadError(
                        .badAnswer,
                        "the server's Content-Length (\(announced) bytes) is more than Pickup reads "
                            + "(\(limits.maxResponseBytes))"))
                return false
            }
            let fits = lock.withLock {
                let now = Exchange.now()
                rule.progressed(at: now)
                answerBegan = answerBegan ?? now
                guard failure == nil, answer.count + data.count <= limits.maxResponseBytes else { return false }
                answer.append(data)
                return true
            }
            if !fits {
                abandon(
                    UploadError(
                        .badAnswer,
                        "the server's answer is longer than \(limits.maxResponseBytes) bytes, more than Pickup reads"))
            }
            return fits
        }

        /// Ends the exchange at once with `reason` (its task is then cancelled): it does not wait
        /// for the task's completion, which FoundationNetworking reports only once the server
        /// stops sending (an endless answer: a minute later), where Apple's URLSession is prompt.
        func abandon(_ reason: UploadError) {
            let continuation = lock.withLock { () -> CheckedContinuation<HTTPResponse, any Error>? in
                if failure == nil { failure = reason }
                defer { self.continuation = nil }
                return self.continuation
            }
            continuation?.resume(throwing: reason)
        }

        /// Cancels `task` when the link goes silent or the deadline passes.
        func watch(_ task: URLSessionTask) {
            Task.detached { [weak self] in
                while let self, self.isOpen {
                    try? await Task.sleep(nanoseconds: 250_000_000)
                    if let reason = self.overdue() {
                        self.abandon(reason)
                        task.cancel()
                        return
                    }
                }
            }
        }

        private var isOpen: Bool { lock.withLock { continuation != nil } }

        private func overdue() -> UploadError? {
            lock.withLock {
                let now = Exchange.now()
                if now - began > limits.deadline {
                    return UploadError(.network, "the request took longer than \(Int(limits.deadline)) s")
                }
                // An answer dripping a byte at a time is never silent: silence alone cannot judge it.
                if let answerBegan, now - answerBegan > rule.ceiling {
                    return UploadError(
                        .network,
                        "the server's answer was still arriving after \(String(format: "%.0f", now - answerBegan)) s, "
                            + "a few bytes at a time (more than the stall limit allows)")
                }
                if rule.isStalled(at: now) {
                    return UploadError(
                        .network,
                        "the connection stalled: nothing moved for \(String(format: "%.1f", rule.silence(at: now))) s")
                }
                return nil
            }
        }

        func finish(_ response: URLResponse?, _ error: (any Error)?, host: String) {
            let (continuation, result) = lock.withLock {
                () -> (CheckedContinuation<HTTPResponse, any Error>?, Result<HTTPResponse, any Error>) in
                defer { self.continuation = nil }
                if let failure { return (self.continuation, .failure(failure)) }
                if let error {
                    let explained = URLSessionTransport.explain(
                        error, host: host, stall: limits.stall, answered: response is HTTPURLResponse)
                    return (self.continuation, .failure(explained))
                }
                guard let http = response as? HTTPURLResponse else {
                    return (self.continuation, .failure(UploadError(.network, "\(host) gave no HTTP answer")))
                }
                var headers: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                }
                return (
                    self.continuation, .success(HTTPResponse(status: http.statusCode, headers: headers, body: answer))
                )
            }
            continuation?.resume(with: result)
        }
    }

    /// The session's delegate: each task's events to its exchange; no redirect followed.
    final class TaskDelegate: NSObject, URLSessionDataDelegate, Sendable {
        private let exchanges = LockedValue<[Int: Exchange]>([:])

        func add(_ task: URLSessionTask, _ exchange: Exchange) {
            exchanges.withValue { $0[task.taskIdentifier] = exchange }
        }

        private func exchange(_ task: URLSessionTask) -> Exchange? { exchanges.withValue { $0[task.taskIdentifier] } }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
            totalBytesExpectedToSend: Int64
        ) {
            exchange(task)?.sent(total: totalBytesSent, expected: totalBytesExpectedToSend)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            // Suspended, then cancelled: FoundationNetworking goes on reading after a bare cancel
            // and queues what it reads for this delegate (an endless answer: 1.9 GB in 8 s, then a
            // minute more); suspending pauses libcurl at once (83 MB at the peak, 0.4 s).
            let announced = dataTask.response?.expectedContentLength ?? -1
            if exchange(dataTask)?.received(data, announced: announced) == false, dataTask.state == .running {
                dataTask.suspend()
                dataTask.cancel()
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let exchange = exchanges.withValue { $0.removeValue(forKey: task.taskIdentifier) }
            exchange?.finish(task.response, error, host: task.originalRequest?.url?.host ?? "the server")
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }
#endif
