import Pickup

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-line progress bar on standard error, redrawn in place: items done, a bar, percent,
/// bytes done of all, throughput, time left and the current file. Drawn only on a terminal.
public struct ProgressBar: Sendable {
    public let totalItems: Int
    public let totalBytes: Int64
    private var lastDraw: UInt64 = 0
    private let started = ProgressBar.now()
    /// The pace of the bytes done over the last few seconds (a resumed upload's earlier bytes,
    /// a slow start or a retry do not bend it).
    private var pace = TransferPace()

    public init(totalItems: Int, totalBytes: Int64) {
        self.totalItems = totalItems
        self.totalBytes = totalBytes
    }

    /// Redraws at most ten times a second, unless `force`.
    /// `current`: the file the last change was about; `alsoRunning`: how many others are in
    /// flight beside it, said as "+7 more" (eight uploads at once are not one file's).
    /// `carried`: of `bytesDone`, those done before this run (what resumed uploads' servers
    /// held): they fill the bar, not the pace, so that learning them is not read as a burst.
    public mutating func draw(
        itemsDone: Int, bytesDone: Int64, current: String, alsoRunning: Int = 0, carried: Int64 = 0,
        force: Bool = false
    ) {
        let now = ProgressBar.now()
        let seconds = Double(now - started) / 1_000_000_000
        pace.add(bytesDone - carried, at: seconds)
        guard force || now - lastDraw > 100_000_000 else { return }
        lastDraw = now
        // Nothing known yet (no size): 0%, not a full bar; every byte sent but an item not done
        // (the server's answer to come): 99%, never 100% before the end.
        var fraction = totalBytes > 0 ? min(1, Double(bytesDone) / Double(totalBytes)) : 0
        if itemsDone < totalItems { fraction = min(fraction, 0.99) }
        let width = 24
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let rate =
            Text.byteCount(bytesDone) + " of " + Text.byteCount(totalBytes)
            + (pace.bytesPerSecond.flatMap { $0 > 0 ? ", " + Text.byteCount(Int64($0)) + "/s" : nil } ?? "")
        // Time left at the pace of the last seconds, once there is one.
        var left = ""
        if fraction < 1, let seconds = pace.secondsLeft(total: totalBytes - carried) {
            left = ", " + DurationLabel.string(seconds: seconds) + " left"
        }
        var name = Text.clean(current)
        if name.count > 32 { name = "..." + String(name.suffix(29)) }
        if alsoRunning > 0 { name += " +\(alsoRunning) more" }
        let line = "\(itemsDone)/\(totalItems) [\(bar)] \(Int(fraction * 100))% \(rate)\(left) \(name)"
        Console.errorRaw("\r\u{1B}[2K" + line)
    }

    public func finish() { Console.errorRaw("\r\u{1B}[2K") }

    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
