import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Pickup
import PickupUpload

/// Pickup's transport on Linux: AsyncHTTPClient (swift-nio), for http and https alike.
///
/// - File bodies are streamed from the file in 1 MB pieces (`BodyWriter`), each read only
///   once the connection has taken the last: a few pieces in memory whatever the size.
/// - One pooled client: kept-alive connections per host (an https host named by a name, not
///   an address, has a client of its own, whose connections check that the certificate
///   names that host: `CertificateHostCheck`).
/// - No redirect is followed (credentials never leave the host they were given for).
/// - An answer's body is read up to `limits.maxResponseBytes`; every request has a
///   deadline; a request whose link goes silent is cut as soon as `StallRule` says so,
///   from the link's own pace, or as soon as the kernel sees its bytes unacknowledged for
///   `deadLink` seconds (`DeadLinkWatch`); a reset is noticed at once, over TLS too.
/// - Trusts the system's certificate authorities plus others in PEM files: `caFile`,
///   `SSL_CERT_FILE`, `CURL_CA_BUNDLE`, and the `.pem`/`.crt` files of `SSL_CERT_DIR`. A
///   certificate that is not trusted is not retried.
public final class AsyncHTTPTransport: HTTPTransport {
    /// One transport for the process, trusting what the environment says.
    public static let shared = AsyncHTTPTransport()

    private let client: HTTPClient
    /// The configuration every client is made with.
    private let configuration: HTTPClient.Configuration
    /// The clients of https hosts named by a name, by host.
    private let named = LockedValue<[String: HTTPClient]>([:])
    /// When each host (scheme, host, port) last moved bytes, for `RequestWatch`.
    private let links = LockedValue<[String: LockedValue<LinkActivity>]>([:])
    /// Bytes read from a file per body piece.
    static let pieceSize = 1 << 20
    /// Seconds a connection's sent bytes may stay unacknowledged before the kernel ends it.
    let deadLink: Double

    /// A transport trusting the system's authorities plus `caFile`.
    ///
    /// - Parameters:
    ///   - caFile: a PEM file of more certificate authorities to trust.
    ///   - connectTimeout: seconds a connection may take to open.
    ///   - deadLink: seconds a connection's sent bytes may stay unacknowledged (no ACK from
    ///     the other side, or its receive window closed) before the connection counts as
    ///     dead; an idle connection is probed after half of it. A slow link that still
    ///     moves is never cut by it.
    public init(caFile: String? = nil, connectTimeout: Double = 10, deadLink: Double = 4) {
        self.deadLink = deadLink
        var tls = TLSConfiguration.makeClientConfiguration()
        let environment = ProcessInfo.processInfo.environment
        var extra = [caFile, environment["SSL_CERT_FILE"], environment["CURL_CA_BUNDLE"]].compactMap { $0 }
            .filter { !$0.isEmpty }
        // SSL_CERT_DIR: a folder of PEM files (OpenSSL's convention), each one trusted.
        if let folder = environment["SSL_CERT_DIR"], !folder.isEmpty,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
        {
            extra += names.sorted().filter { $0.hasSuffix(".pem") || $0.hasSuffix(".crt") }.map { folder + "/" + $0 }
        }
        tls.additionalTrustRoots = extra.map { .file($0) }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(connect: .milliseconds(Int64(connectTimeout * 1000))))
        configuration.httpVersion = .http1Only
        // A refused connection fails at once: the upload retries with its own backoff, and
        // says so as it happens, instead of AsyncHTTPClient trying again silently.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.http1_1ConnectionDebugInitializer = { DeadLinkWatch.arm($0, seconds: deadLink) }
        self.configuration = configuration
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// The client for `url`: for https to a host name, one whose connections are refused
    /// unless the certificate names that host.
    private func client(for url: URL) -> HTTPClient {
        guard url.scheme?.lowercased() == "https", let host = url.host?.lowercased(),
            !CertificateHostCheck.isIPAddress(host)
        else { return client }
        return named.withValue { known in
            if let found = known[host] { return found }
            var configuration = configuration
            let deadLink = deadLink
            configuration.http1_1ConnectionDebugInitializer = { channel in
                CertificateHostCheck.check(channel, host: host).flatMap {
                    DeadLinkWatch.arm(channel, seconds: deadLink)
                }
            }
            let made = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            known[host] = made
            return made
        }
    }

    /// Runs `work` with a new transport (trusting `caFile` too, when given), then closes its
    /// connections, so that none is left open when the program ends.
    public static func using<Result>(
        caFile: String? = nil, _ work: (AsyncHTTPTransport) async -> Result
    ) async -> Result {
        let transport = AsyncHTTPTransport(caFile: caFile)
        let result = await work(transport)
        await transport.shutdown()
        return result
    }

    /// Closes the pooled connections; call once, before the program ends.
    public func shutdown() async {
        try? await client.shutdown()
        for other in named.withValue({ $0.values }) { try? await other.shutdown() }
    }

    /// A transport let go of without `shutdown()` still closes its connections (in the
    /// background; the client keeps itself alive until it has).
    deinit {
        client.shutdown { _ in }
        for other in named.withValue({ $0.values }) { other.shutdown { _ in } }
    }

    public func send(_ request: HTTPRequest, limits: HTTPLimits) async throws(UploadError) -> HTTPResponse {
        let origin = "\(request.url.scheme ?? "")://\(request.url.host ?? ""):\(request.url.port ?? 0)"
        let link = links.withValue { known in
            if let found = known[origin] { return found }
            let made = LockedValue(LinkActivity(lastProgress: Self.now()))
            known[origin] = made
            return made
        }
        let watch = RequestWatch(ceiling: limits.stall, link: link)
        defer { watch.finish() }
        do {
            return try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
                group.addTask { try await self.exchange(request, limits: limits, watch: watch) }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(nanoseconds: 200_000_000)
                        let now = Self.now()
                        if let silence = watch.stalled(at: now) {
                            throw Stalled(seconds: silence)
                        }
                        if let seconds = watch.answerTooSlow(at: now) {
                            throw SlowAnswer(seconds: seconds)
                        }
                    }
                    return nil
                }
                defer { group.cancelAll() }
                while let next = try await group.next() {
                    if let response = next { return response }
                }
                throw CancellationError()
            }
        } catch {
            throw Self.uploadError(error, limits: limits, url: request.url, deadLink: deadLink)
        }
    }

    private func exchange(
        _ request: HTTPRequest, limits: HTTPLimits, watch: RequestWatch
    ) async throws -> HTTPResponse {
        if let problem = request.url.portProblem { throw UploadError(.badTarget, problem) }
        var headers = HTTPHeaders()
        for (name, value) in request.headers {
            if let problem = HeaderCheck.problem(name: name, value: value) { throw UploadError(.badTarget, problem) }
            headers.add(name: name, value: value)
        }
        // The loop the answer is gathered on and the body's writes are ordered from.
        let client = client(for: request.url)
        let loop = client.eventLoopGroup.next()
        var body: HTTPClient.Body?
        // Completed when the request ends, so that a body still being written stops.
        let ended = loop.makePromise(of: Void.self)
        if request.body.length > 0 || !["GET", "HEAD", "OPTIONS", "DELETE"].contains(request.method) {
            body = .stream(contentLength: request.body.length) { writer in
                BodyWriter.write(
                    request.body, to: writer, on: loop, pieceSize: Self.pieceSize, until: ended.futureResult)
            }
        }
        let outgoing: HTTPClient.Request
        do {
            outgoing = try HTTPClient.Request(
                url: request.url, method: HTTPMethod(rawValue: request.method), headers: headers, body: body)
        } catch {
            ended.succeed()  // a promise is never left unfulfilled
            throw error
        }
        let collector = AnswerCollector(
            method: request.method, limits: limits, watch: watch, streamsBody: body != nil,
            bodyWritten: request.onBodyBytesSent)
        let task = client.execute(
            request: outgoing, delegate: collector, eventLoop: .delegate(on: loop),
            deadline: .now() + .seconds(Int64(limits.deadline)))
        task.futureResult.whenComplete { _ in ended.succeed() }
        return try await withTaskCancellationHandler {
            do {
                return try await task.get()
            } catch let early as EarlyAnswer {
                return early.response
            } catch {
                // An early answer whose connection ended under it is still the server's answer.
                if !Task.isCancelled, let early = collector.earlyResponse { return early }
                throw error
            }
        } onCancel: {
            task.cancel()
        }
    }

    struct Stalled: Error { let seconds: Double }
    struct SlowAnswer: Error { let seconds: Double }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// What went wrong, as an upload error that says it and never carries a secret.
    static func uploadError(_ error: any Error, limits: HTTPLimits, url: URL, deadLink: Double) -> UploadError {
        let place = "\(url.host ?? "?"):\(url.port ?? (url.scheme == "https" ? 443 : 80))"
        switch error {
        case let error as UploadError: return error
        case let stalled as Stalled:
            return UploadError(
                .network, "the connection stalled: nothing moved for \(String(format: "%.1f", stalled.seconds)) s")
        case let slow as SlowAnswer:
            return UploadError(
                .network,
                "the server's answer was still arriving after \(String(format: "%.0f", slow.seconds)) s, a few bytes "
                    + "at a time (more than --timeout allows)")
        case let large as TooLarge:
            if let announced = large.announced {
                return UploadError(
                    .badAnswer,
                    "the server's Content-Length (\(announced) bytes) is more than Pickup reads (\(large.limit))")
            }
            return UploadError(
                .badAnswer, "the server's answer is longer than \(large.limit) bytes, more than Pickup reads")
        case is CancellationError: return UploadError(.cancelled, "the upload was cancelled")
        case let error as HTTPParserError:
            if error == .invalidEOFState || error == .closedConnection {
                return UploadError(.network, "the server closed the connection before its answer was complete")
            }
            return UploadError(.badAnswer, "the server's answer is not valid HTTP: " + describe(error))
        case let error as NIOConnectionError:
            let reasons = Array(Set(error.connectionErrors.map { reason($0.error) })).sorted()
            return .unreachable(
                "cannot connect to \(place)" + (reasons.isEmpty ? "" : ": " + reasons.joined(separator: "; ")))
        case let error as IOError where error.errnoCode == ETIMEDOUT:
            return UploadError(
                .network,
                "the connection to \(place) stalled: the other side acknowledged nothing for "
                    + "\(String(format: "%.0f", deadLink)) s")
        case let error as IOError where isConnecting(error):
            return .unreachable("cannot connect to \(place): " + reason(error))
        case let error as IOError:
            return UploadError(.network, "the connection to \(place) failed: " + reason(error))
        case let error as HTTPClientError:
            if error == .cancelled { return UploadError(.cancelled, "the upload was cancelled") }
            if error == .deadlineExceeded {
                return UploadError(.network, "the server took longer than \(Int(limits.deadline)) s to answer")
            }
            if error == .connectTimeout { return .unreachable("cannot connect to \(place) in time") }
            if error == .remoteConnectionClosed {
                return UploadError(.network, "the server closed the connection before its answer was complete")
            }
            // Its short description, never its description: that one holds the header values it refused.
            if error.shortDescription.hasPrefix("Invalid header field") {
                return UploadError(
                    .badTarget, "a request header has a name or value HTTP does not allow; nothing was sent")
            }
            return UploadError(.network, "the request to \(place) failed (\(error.shortDescription.lowercased()))")
        case let mismatch as CertificateHostCheck.Mismatch:
            return UploadError(
                .certificate,
                "the certificate of \(place) does not name \(mismatch.host) "
                    + (mismatch.names.isEmpty
                        ? "(it names no host at all, only addresses)"
                        : "(it names \(mismatch.names.prefix(5).joined(separator: ", ")))")
                    + "; nothing was sent to it")
        case let error as NIOSSLError:
            switch error {
            case .handshakeFailed, .unableToValidateCertificate:
                return UploadError(.certificate, "the certificate of \(place) is not trusted (\(error))")
            default: return UploadError(.network, "the secure connection to \(place) failed (\(error))")
            }
        default:
            // A library's own description may hold what it was given (a header, a URL): only its type.
            return UploadError(.network, "the request to \(place) failed (\(type(of: error)))")
        }
    }

    /// A socket error in words: "connection refused", not NIO's debug text.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? IOError else { return String(describing: error) }
        return String(cString: strerror(error.errnoCode)).lowercased()
    }

    /// Whether a socket error means the connection was never made.
    static func isConnecting(_ error: IOError) -> Bool {
        [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL].contains(error.errnoCode)
    }

    static func describe(_ error: HTTPParserError) -> String {
        switch error {
        case .headerOverflow: return "its headers are longer than 80 KB"
        case .invalidContentLength, .unexpectedContentLength: return "its Content-Length is not a size"
        case .invalidChunkSize: return "a chunk size is not a size"
        case .invalidVersion, .invalidConstant, .invalidStatus: return "it does not begin like HTTP"
        default: return String(describing: error)
        }
    }
}
