/// Formats durations the way a picker badge shows them: `m:ss` under an hour,
/// `h:mm:ss` from an hour, seconds zero-padded, like DateComponentsFormatter's
/// positional style with `.pad` for seconds. Shared by the CLI and the UI.
public enum DurationLabel {
    /// `0:07`, `1:05`, `12:00`, `1:02:03`. Rounds to the nearest second (0.5 s up);
    /// negative, infinite or NaN durations give `0:00`.
    public static func string(seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0:00" }
        let total = Int(min(seconds, 359_999_999).rounded())
        let hours = total / 3600, minutes = total % 3600 / 60, secs = total % 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(minutes):\(two(secs))"
    }
}
