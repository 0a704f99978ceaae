import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Pickup
import PickupUpload

/// Gathers one request's answer, within its limits, and tells its `RequestWatch` when bytes
/// move: each body piece when the connection has written it, the whole body when it is
/// sent, and each piece of the answer.
///
/// An error answer that comes while the body is still being sent (a proxy's 413 for a body
/// over its limit, sent as soon as the request's head arrives) ends the exchange as soon as it
/// is read whole: AsyncHTTPClient stops sending the body at such an answer but completes the
/// request only once the body's stream ends (`RequestBag.receiveResponseEnd`: a response end
/// while the request is `.paused` or `.producing` waits, and the delegate is not told), which
/// for a server that stops reading would be never. The answer is given back as it came
/// (`EarlyAnswer`): read to its Content-Length, or, without one (chunked, or until the
/// connection closes: S3's error XML), until it has been quiet for `quiet` seconds.
///
/// AsyncHTTPClient calls it on the request's event loop, one call at a time; its state sits
/// in a lock all the same, so that it is `Sendable` by construction.
final class AnswerCollector: HTTPClientResponseDelegate {
    typealias Response = HTTPResponse

    private struct Answer {
        var status = 0
        var headers: [String: String] = [:]
        var body = Data()
        /// Whether the request's body has been sent whole.
        var bodySent = false
        /// The body's bytes the connection has written.
        var written: Int64 = 0
        /// An error answer that came before the body was sent: its announced length.
        var early: Int64?
        /// An early answer of no announced length: when its quiet ends it.
        var ending: Scheduled<Void>?

        var response: HTTPResponse { HTTPResponse(status: status, headers: headers, body: body) }
    }

    let method: String
    let limits: HTTPLimits
    let watch: RequestWatch
    /// Whether the request has a body to stream (only such a request can be answered early).
    let streamsBody: Bool
    /// Told the body's bytes written so far (`HTTPRequest.onBodyBytesSent`).
    let bodyWritten: (@Sendable (Int64) -> Void)?
    private let answer = LockedValue(Answer())

    init(
        method: String, limits: HTTPLimits, watch: RequestWatch, streamsBody: Bool,
        bodyWritten: (@Sendable (Int64) -> Void)? = nil
    ) {
        self.method = method
        self.limits = limits
        self.watch = watch
        self.streamsBody = streamsBody
        self.bodyWritten = bodyWritten
    }

    func didSendRequestPart(task: HTTPClient.Task<HTTPResponse>, _ part: IOData) {
        watch.progressed()
        guard let bodyWritten else { return }
        bodyWritten(
            answer.withValue { answer in
                answer.written += Int64(part.readableBytes)
                return answer.written
            })
    }

    func didSendRequest(task: HTTPClient.Task<HTTPResponse>) {
        answer.withValue { $0.bodySent = true }
        watch.bodySent()
    }

    func didReceiveHead(task: HTTPClient.Task<HTTPResponse>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        watch.settled()
        watch.progressed()
        watch.answerBegan()
        // A HEAD's Content-Length (tus answers one) describes the upload, not a body to read.
        if method != "HEAD", head.status != .noContent, head.status != .notModified,
            let announced = head.headers.first(name: "content-length").flatMap(Int64.init),
            announced > Int64(limits.maxResponseBytes)
        {
            return refuse(task, TooLarge(limit: limits.maxResponseBytes, announced: announced))
        }
        var headers: [String: String] = [:]
        for (name, value) in head.headers {
            let key = name.lowercased()
            headers[key] = headers[key].map { $0 + ", " + value } ?? value
        }
        let early = answer.withValue { answer -> Early in
            answer.status = Int(head.status.code)
            answer.headers = headers
            guard streamsBody, head.status.code >= 300, !answer.bodySent else { return .no }
            if head.status == .notModified { return .whole }
            // Its body is read to its length; without one, until it goes quiet.
            guard let length = headers["content-length"].flatMap(Int64.init) else {
                answer.early = .max
                return .untilQuiet
            }
            answer.early = length
            return length == 0 ? .whole : .no
        }
        switch early {
        case .whole: return refuse(task, EarlyAnswer(response: answer.current.response))
        case .untilQuiet: endWhenQuiet(task)
        case .no: break
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    private enum Early { case no, whole, untilQuiet }

    /// The early answer as read so far, if one came: what the exchange gives back when the
    /// connection ends under it (AsyncHTTPClient closes it at the answer's end when the body
    /// could not be finished, `Connection: close`, and fails the request).
    var earlyResponse: HTTPResponse? { answer.withValue { $0.early == nil ? nil : $0.response } }

    /// Seconds without a byte after which an early answer of no announced length is taken as whole.
    static let quiet: Int64 = 300

    /// Ends the exchange with the early answer once no byte of it came for `quiet` ms (again
    /// from each piece).
    private func endWhenQuiet(_ task: HTTPClient.Task<HTTPResponse>) {
        let ending = task.eventLoop.scheduleTask(in: .milliseconds(Self.quiet)) { [self] in
            task.fail(reason: EarlyAnswer(response: answer.current.response))
        }
        answer.withValue { answer in
            answer.ending?.cancel()
            answer.ending = ending
        }
    }

    func didReceiveBodyPart(task: HTTPClient.Task<HTTPResponse>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let fits = answer.withValue { answer in
            guard answer.body.count + buffer.readableBytes <= limits.maxResponseBytes else { return false }
            answer.body.append(contentsOf: buffer.readableBytesView)
            return true
        }
        guard fits else { return refuse(task, TooLarge(limit: limits.maxResponseBytes, announced: nil)) }
        watch.progressed()
        let (whole, untilQuiet) = answer.withValue { answer in
            (answer.early.map { Int64(answer.body.count) >= $0 } ?? false, answer.early == .max)
        }
        if whole { return refuse(task, EarlyAnswer(response: answer.current.response)) }
        if untilQuiet { endWhenQuiet(task) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<HTTPResponse>) throws -> HTTPResponse {
        answer.withValue { $0.ending?.cancel() }
        return answer.current.response
    }

    private func refuse(_ task: HTTPClient.Task<HTTPResponse>, _ error: any Error) -> EventLoopFuture<Void> {
        task.fail(reason: error)
        return task.eventLoop.makeFailedFuture(error)
    }
}

/// An error answer read whole before the request's body was sent: the exchange's answer.
struct EarlyAnswer: Error {
    let response: HTTPResponse
}

/// An answer longer than the limit: announced by its Content-Length, or found while read.
struct TooLarge: Error {
    let limit: Int
    let announced: Int64?
}
