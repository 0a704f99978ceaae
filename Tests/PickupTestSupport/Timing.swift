/// Times for the scale tests, which compare growth (ratios), never absolute times.
public enum Timing {
    /// The shortest of three runs of `work`, in seconds: the run least disturbed by the rest of the machine.
    public static func shortest(_ work: () async throws -> Void) async rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let start = ContinuousClock.now
            try await work()
            let elapsed = ContinuousClock.now - start
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        return best
    }
}
