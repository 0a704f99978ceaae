import Foundation

/// Sends one step's request through the upload's transport, naming the step in errors
/// ("sending part 3 failed: ...") and stopping at once when the task is cancelled.
struct StepSender: Sendable {
    let transport: any HTTPTransport
    let limits: HTTPLimits

    init(transport: (any HTTPTransport)?, stall: Double) {
        self.transport = transport ?? HTTPTransports.current
        limits = HTTPLimits(stall: stall)
    }

    /// Sends `request`; `what` names the step in errors ("sending part 3").
    func send(_ request: HTTPRequest, what: String) async throws(UploadError) -> HTTPResponse {
        if Task.isCancelled { throw UploadError(.cancelled, "the upload was cancelled") }
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw UploadError(.badTarget, "\(redacted(request.url.absoluteString)) is not an http or https URL")
        }
        if let problem = request.url.portProblem { throw UploadError(.badTarget, problem) }
        var request = request
        // Bytes of the file on their way, for the upload's meter (`UploadEvent.sending`).
        let metered = SendMeter.current.get().flatMap { meter in
            request.body.fileSpan.map { span in (meter, meter.begin(), span) }
        }
        if let (meter, number, span) = metered {
            let asked = request.onBodyBytesSent
            request.onBodyBytesSent = { total in
                asked?(total)
                let bytes = min(span.count, max(0, total - span.leading))
                meter.sent(number, bytes, whole: bytes == span.count)
            }
        }
        let response: HTTPResponse
        do {
            response = try await transport.send(request, limits: limits)
            if let (meter, number, _) = metered { meter.end(number, landed: (200..<300).contains(response.status)) }
        } catch {
            if let (meter, number, _) = metered { meter.end(number, landed: false) }
            if Task.isCancelled || error.code == .cancelled {
                throw UploadError(.cancelled, "the upload was cancelled")
            }
            var named = error  // what it was (its code, status, reach), named by its step
            named.message = "\(what) failed: \(error.message)"
            throw named
        }
        // Redirects are never followed: credentials stay with the host they were given for.
        if (300..<400).contains(response.status), response.status != 304 {
            let target = response.value("Location").map { " to " + redacted($0) } ?? ""
            throw UploadError(
                .server,
                "\(what) failed: the server redirects\(target); uploads follow no redirect, so that credentials "
                    + "stay with the host they were given for: give the final URL",
                status: response.status)
        }
        return response
    }
}
