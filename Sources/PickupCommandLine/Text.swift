import Pickup

/// Small text helpers for tables and sizes (no Foundation needed).
public enum Text {
    public static func pad(_ text: String, _ width: Int) -> String {
        let count = text.count
        return count >= width ? text : text + String(repeating: " ", count: width - count)
    }

    public static func padLeft(_ text: String, _ width: Int) -> String {
        let count = text.count
        return count >= width ? text : String(repeating: " ", count: width - count) + text
    }

    /// `912 B`, `22 KB`, `1.4 MB`, `3.2 GB`: the core's one formatter.
    public static func byteCount(_ bytes: Int64) -> String { ByteCountLabel.string(bytes) }

    /// A number with `places` decimals, no Foundation.
    public static func fixed(_ value: Double, _ places: Int) -> String {
        guard value.isFinite else { return "-" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        var fraction = String(Int(scaled) - whole * Int(scale))
        while fraction.count < places { fraction = "0" + fraction }
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return places == 0 ? sign + String(whole) : sign + String(whole) + "." + fraction
    }
}
