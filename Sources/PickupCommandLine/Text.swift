import Pickup

/// Small text helpers for tables and sizes (no Foundation needed).
public enum Text {
    public static func pad(_ text: String, _ width: Int) -> String {
        let count = columns(text)
        return count >= width ? text : text + String(repeating: " ", count: width - count)
    }

    public static func padLeft(_ text: String, _ width: Int) -> String {
        let count = columns(text)
        return count >= width ? text : String(repeating: " ", count: width - count) + text
    }

    /// How many columns a terminal gives `text`: two for each wide character (Chinese, Japanese
    /// and Korean characters, full-width forms, most emoji), none for a combining mark or a
    /// zero-width joiner, one for the rest. Tables pad by it, so that a row with `東京.jpg` in
    /// it lines up with the others.
    public static func columns(_ text: String) -> Int {
        // Most names are ASCII: one column a byte, with no look-up of each character's category
        // (which cost 5% of importing ten thousand small photos, a row each).
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        var total = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x300 {  // below the combining marks: Latin, one column each
                total += 1
                continue
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: continue
            default: break
            }
            if value == 0xFE0F || (0xFE00...0xFE0E).contains(value) { continue }  // variation selectors
            total += wideRanges.contains { $0.contains(value) } ? 2 : 1
        }
        return total
    }

    /// East Asian Wide and Fullwidth characters, and the emoji shown two columns wide.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
        0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]

    /// A name as every table, progress line and message shows it: control characters (a newline,
    /// a tab, an escape) written as `\n`, `\t`, `\x1B`, so that a file's name cannot break a
    /// line, forge a row or drive the terminal.
    public static func clean(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if let byte = SystemPath.rawByte(scalar) {
                shown += rawByte(byte)
                continue
            }
            switch scalar.value {
            case 0x0A: shown += "\\n"
            case 0x0D: shown += "\\r"
            case 0x09: shown += "\\t"
            case 0..<0x20, 0x7F, 0x80..<0xA0:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                shown += "\\x" + (hex.count < 2 ? "0" : "") + hex
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// `text` with each byte of a name that is not UTF-8 (`SystemPath`) written `\xE9`, and
    /// nothing else changed: for CSV and TSV cells, which quote the rest themselves.
    public static func rawBytesShown(_ text: String) -> String {
        guard SystemPath.hasRawBytes(text) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            if let byte = SystemPath.rawByte(scalar) {
                shown += rawByte(byte)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// A byte of a name that is not UTF-8 (`SystemPath`) as every output shows it: `\xE9`, as
    /// Python shows it (`caf\xE9.jpg`).
    public static func rawByte(_ byte: UInt8) -> String { "\\x" + String(byte, radix: 16, uppercase: true) }

    /// `912 B`, `22 KB`, `1.4 MB`, `3.2 GB`: the core's one formatter.
    public static func byteCount(_ bytes: Int64) -> String { ByteCountLabel.string(bytes) }

    /// A number with `places` decimals, no Foundation.
    public static func fixed(_ value: Double, _ places: Int) -> String {
        guard value.isFinite else { return "-" }
        // A frame's time from a file's stamps can be 2^62 s: shown as it is, not turned into an
        // Int past Int.max.
        guard abs(value) < 1e12, (0...9).contains(places) else { return String(value) }
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

extension Text {
    /// `word` as a shell reads it back: as it is when it holds only safe characters, else in
    /// single quotes (a quote inside closed, escaped and opened again).
    public static func shellQuoted(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@%")
        if !word.isEmpty, word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
