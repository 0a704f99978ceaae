import Pickup
import PickupUpload

/// What the requests to one host (scheme, host, port) share: when any last moved bytes, and
/// how many have sent their whole body and wait for the answer (their bytes still drain from
/// the send buffers onto the link, which is then busy though no request reports progress).
struct LinkActivity: Sendable {
    var lastProgress: Double
    var draining = 0
}

/// One request's stall watch, beside its link's. A request is stalled when its own silence
/// passes its pace's threshold and its link is idle too — silent, with no other request's
/// body draining — or when its own silence passes the ceiling, whatever the link does. A
/// connection that waits its turn while others to the same host move (S3 parts sent
/// together over one slow uplink) is not dead.
final class RequestWatch: Sendable {
    let rule: LockedValue<StallRule>
    let link: LockedValue<LinkActivity>
    private let draining = LockedValue(Drain.idle)
    /// Whether the request's body counts among its link's draining ones.
    private enum Drain { case idle, draining, finished }
    /// When the answer's head arrived.
    private let answerStart = LockedValue<Double?>(nil)

    init(ceiling: Double, link: LockedValue<LinkActivity>) {
        rule = LockedValue(StallRule(ceiling: ceiling, start: AsyncHTTPTransport.now()))
        self.link = link
    }

    func progressed() {
        let now = AsyncHTTPTransport.now()
        rule.withValue { $0.progressed(at: now) }
        link.withValue { $0.lastProgress = Swift.max($0.lastProgress, now) }
    }

    func bodySent() {
        let now = AsyncHTTPTransport.now()
        rule.withValue { $0.bodySent(at: now) }
        // Counted once, however often the body sequence is asked to end, and never once the
        // request has ended (AsyncHTTPClient may tell of the body's last write after that).
        let first = draining.withValue { state in
            guard state == .idle else { return false }
            state = .draining
            return true
        }
        if first { link.withValue { $0.draining += 1 } }
    }

    /// The answer began: its body no longer drains.
    func settled() { leave(for: .idle) }

    /// The request ended: its body no longer drains, and no later word of it counts.
    func finish() { leave(for: .finished) }

    private func leave(for next: Drain) {
        let wasDraining = draining.withValue { state in
            let was = state == .draining
            if state != .finished { state = next }
            return was
        }
        if wasDraining { link.withValue { $0.draining -= 1 } }
    }

    /// The answer's head arrived: from now on it has the ceiling to arrive whole.
    func answerBegan() {
        let now = AsyncHTTPTransport.now()
        answerStart.withValue { $0 = $0 ?? now }
    }

    /// Seconds the answer has been arriving, when that is past the ceiling at `now` (an answer
    /// dripping a byte at a time is never silent, so silence alone cannot judge it); else nil.
    func answerTooSlow(at now: Double) -> Double? {
        guard let start = answerStart.current else { return nil }
        let ceiling = rule.withValue { $0.ceiling }
        return now - start > ceiling ? now - start : nil
    }

    /// The request's silence in seconds when it counts as stalled at `now`, else nil.
    func stalled(at now: Double) -> Double? {
        let activity = link.current
        return rule.withValue { rule in
            guard rule.isStalled(at: now) else { return nil }
            let own = rule.silence(at: now)
            let linkIdle = activity.draining == 0 && now - activity.lastProgress > rule.threshold
            return own > rule.ceiling || linkIdle ? own : nil
        }
    }
}
