/// When a request counts as stalled, judged from the link's own recent pace: no progress for
/// several times the longest recent gap between progress reports, never sooner than `floor`
/// (a slow link is not a dead one) and never later than `ceiling`. The longest gap, not the
/// typical one: the first pieces of a body fill the kernel's send buffer at once, and a
/// connection sharing a link with others (S3 parts sent together) moves in uneven steps;
/// neither is a dead link. Before any pace is known, and while
/// the server works on a whole request (the body sent, no answer yet), the ceiling applies.
///
/// A plain value with an injected clock (seconds), so it is tested without threads or sleeps.
package struct StallRule: Sendable, Hashable {
    /// The shortest silence, in seconds, that counts as a stall.
    package let floor: Double
    /// The longest silence, in seconds, before a request counts as stalled whatever the pace.
    package let ceiling: Double
    /// How many recent gaps make the pace, and how many times the longest of them a silence may last.
    static let window = 16
    static let multiple = 4.0

    private var gaps: [Double] = []
    private var last: Double
    private var waitingForServer = false

    /// A rule with these bounds, its clock starting at `start` seconds.
    package init(floor: Double = 3, ceiling: Double, start: Double) {
        self.floor = min(floor, ceiling)
        self.ceiling = ceiling
        last = start
    }

    /// Bytes moved at `time` (a piece of the body taken by the link, or of the answer read).
    package mutating func progressed(at time: Double) {
        let gap = time - last
        if gap >= 0 {
            gaps.append(gap)
            if gaps.count > StallRule.window { gaps.removeFirst(gaps.count - StallRule.window) }
        }
        last = time
        waitingForServer = false
    }

    /// The whole body is sent: the server may now take its time to answer, up to the ceiling.
    package mutating func bodySent(at time: Double) {
        last = time
        waitingForServer = true
    }

    /// Seconds of silence that count as a stall now.
    package var threshold: Double {
        guard !waitingForServer, gaps.count >= 3 else { return ceiling }
        let longest = gaps.max() ?? ceiling
        return min(ceiling, max(floor, longest * StallRule.multiple))
    }

    /// Whether the request has stalled at `time`.
    package func isStalled(at time: Double) -> Bool { time - last > threshold }

    /// Seconds since the last progress at `time`.
    package func silence(at time: Double) -> Double { time - last }
}
