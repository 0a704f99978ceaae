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
/// AsyncHTTPClient calls it on the request's event loop, one call at a time; its state sits
/// in a lock all the same, so that it is `Sendable` by construction.
final class AnswerCollector: HTTPClientResponseDelegate {
    typealias Response = HTTPResponse

    private struct Answer {
        var status = 0
        var headers: [String: String] = [:]
        var body = Data()
    }

    let method: String
    let limits: HTTPLimits
    let watch: RequestWatch
    private let answer = LockedValue(Answer())

    init(method: String, limits: HTTPLimits, watch: RequestWatch) {
        self.method = method
        self.limits = limits
        self.watch = watch
    }

    func didSendRequestPart(task: HTTPClient.Task<HTTPResponse>, _ part: IOData) { watch.progressed() }

    func didSendRequest(task: HTTPClient.Task<HTTPResponse>) { watch.bodySent() }

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
        answer.withValue { answer in
            answer.status = Int(head.status.code)
            answer.headers = headers
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<HTTPResponse>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let fits = answer.withValue { answer in
            guard answer.body.count + buffer.readableBytes <= limits.maxResponseBytes else { return false }
            answer.body.append(contentsOf: buffer.readableBytesView)
            return true
        }
        guard fits else { return refuse(task, TooLarge(limit: limits.maxResponseBytes, announced: nil)) }
        watch.progressed()
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<HTTPResponse>) throws -> HTTPResponse {
        let answer = answer.current
        return HTTPResponse(status: answer.status, headers: answer.headers, body: answer.body)
    }

    private func refuse(_ task: HTTPClient.Task<HTTPResponse>, _ error: TooLarge) -> EventLoopFuture<Void> {
        task.fail(reason: error)
        return task.eventLoop.makeFailedFuture(error)
    }
}

/// An answer longer than the limit: announced by its Content-Length, or found while read.
struct TooLarge: Error {
    let limit: Int
    let announced: Int64?
}
