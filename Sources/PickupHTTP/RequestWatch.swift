import Pickup
import PickupUpload

/// One request's stall watch, beside its link's: bytes moved by any request to the same
/// host count for the link. A request is stalled when its own silence passes its pace's
/// threshold and the link is silent too — a connection that waits its turn while others
/// to the same host move (S3 parts sent together over one slow uplink) is not dead — or
/// when its own silence passes the ceiling, whatever the link does.
struct RequestWatch: Sendable {
    let rule: LockedValue<StallRule>
    /// When any request to this host last moved bytes.
    let link: LockedValue<Double>

    init(ceiling: Double, link: LockedValue<Double>) {
        rule = LockedValue(StallRule(ceiling: ceiling, start: AsyncHTTPTransport.now()))
        self.link = link
    }

    func progressed() {
        let now = AsyncHTTPTransport.now()
        rule.withValue { $0.progressed(at: now) }
        link.withValue { $0 = Swift.max($0, now) }
    }

    func bodySent() {
        let now = AsyncHTTPTransport.now()
        rule.withValue { $0.bodySent(at: now) }
    }

    /// The request's silence in seconds when it counts as stalled at `now`, else nil.
    func stalled(at now: Double) -> Double? {
        let linkSilence = now - link.current
        return rule.withValue { rule in
            guard rule.isStalled(at: now) else { return nil }
            let own = rule.silence(at: now)
            return own > rule.ceiling || linkSilence > rule.threshold ? own : nil
        }
    }
}
