/// How fast a transfer goes now, and how long it has left at that pace: bytes over the last
/// `window` seconds of counts, not since the start, so that a slow start, a retry or the bytes
/// a resumed upload had before do not bend it. A count lower than the last (a failure took
/// bytes back) starts the window again. A value type without a clock: the caller says when.
package struct TransferPace: Sendable {
    /// Seconds of counts the pace is taken over.
    package static let window: Double = 5
    /// Seconds of counts needed before there is a pace.
    package static let least: Double = 1

    private var samples: [Sample] = []

    private struct Sample: Sendable {
        let seconds: Double
        let bytes: Int64
    }

    package init() {}

    /// `bytes` done at `seconds` (any clock, rising).
    package mutating func add(_ bytes: Int64, at seconds: Double) {
        if let last = samples.last, bytes < last.bytes || seconds < last.seconds { samples = [] }
        samples.append(Sample(seconds: seconds, bytes: bytes))
        // One count at or before the window's start is kept: the pace spans the whole window.
        while samples.count > 2, samples[1].seconds <= seconds - Self.window { samples.removeFirst() }
    }

    /// Bytes a second over the window; nil until its counts span `least` seconds.
    package var bytesPerSecond: Double? {
        guard let first = samples.first, let last = samples.last, last.seconds - first.seconds >= Self.least else {
            return nil
        }
        return Double(last.bytes - first.bytes) / (last.seconds - first.seconds)
    }

    /// Seconds until `total` bytes at the pace; nil without a pace, or with nothing left.
    package func secondsLeft(total: Int64) -> Double? {
        guard let rate = bytesPerSecond, rate > 0, let last = samples.last, last.bytes < total else { return nil }
        return Double(total - last.bytes) / rate
    }
}
