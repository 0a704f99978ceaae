/// Formats byte counts the way Finder and Photos show them: `912 B`, `22 KB`,
/// `1.4 MB`, `3.2 GB` (powers of 1000). Shared by the CLI and the UI.
public enum ByteCountLabel {
    /// The size in decimal units, as Finder and the command line show it: "824 B", "27 KB", "1.8 MB", "2.1 GB".
    public static func string(_ bytes: Int64) -> String {
        if bytes < 1000 { return "\(max(0, bytes)) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 999.5, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if value < 10 {
            let tenths = Int((value * 10).rounded())
            return "\(tenths / 10).\(tenths % 10) \(units[unit])"
        }
        return "\(Int(value.rounded())) \(units[unit])"
    }
}
