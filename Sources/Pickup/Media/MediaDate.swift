/// A moment a file was made, kept as the file gives it.
///
/// Files disagree about time zones: EXIF may carry an offset
/// (`OffsetTimeOriginal`) or none at all, QuickTime's `mvhd` holds UTC, and
/// Apple's `com.apple.quicktime.creationdate` holds local time with its offset.
/// `MediaDate` keeps the wall-clock time and says which of those it has.
public struct MediaDate: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What the clock fields are relative to.
    public enum Zone: Sendable, Hashable, Codable {
        /// Local time at the given offset from UTC, in seconds (the file said so).
        case offset(seconds: Int)
        /// UTC (the format defines its dates in UTC, like QuickTime's `mvhd`).
        case utc
        /// Local time whose offset the file does not give (EXIF without `OffsetTime`).
        case unspecified
    }

    /// The year, such as 2026.
    public var year: Int
    /// The month, 1 to 12.
    public var month: Int
    /// The day of the month, 1 to 31.
    public var day: Int
    /// The hour, 0 to 23, in the file's own time.
    public var hour: Int
    /// The minute, 0 to 59.
    public var minute: Int
    /// The second, 0 to 59.
    public var second: Int
    /// How the time relates to UTC: an offset, UTC itself, or not said (EXIF dates without an offset).
    public var zone: Zone

    /// A date and time as the file states it.
    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, zone: Zone) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.zone = zone
    }

    /// Whether every field lies in its calendar range.
    public var isValid: Bool {
        (1...9999).contains(year) && (1...12).contains(month) && (1...31).contains(day)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...60).contains(second)
    }

    /// ISO 8601: `2024-05-06T10:20:30+09:00`, `2023-12-24T18:00:00Z`, or with no
    /// suffix when the zone is unspecified.
    public var iso8601: String {
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
        switch zone {
        case .utc: text += "Z"
        case .unspecified: break
        case .offset(let seconds):
            let sign = seconds < 0 ? "-" : "+"
            let minutes = abs(seconds) / 60
            text += sign + pad(minutes / 60, 2) + ":" + pad(minutes % 60, 2)
        }
        return text
    }

    public var description: String { iso8601 }

    /// The instant, when the zone is known (offset or UTC).
    public var secondsSince1970: Int? {
        let offset: Int
        switch zone {
        case .utc: offset = 0
        case .offset(let seconds): offset = seconds
        case .unspecified: return nil
        }
        return MediaDate.daysFromCivil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second - offset
    }

    /// The seconds to order dates by: the instant when the zone is known, else the wall-clock
    /// time read as UTC (most cameras' EXIF gives no zone: close enough to order a camera roll).
    public var orderingSeconds: Int {
        secondsSince1970
            ?? MediaDate.daysFromCivil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// A UTC date from seconds since 1970-01-01.
    public init(utcSecondsSince1970 seconds: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        let (y, m, d) = MediaDate.civilFromDays(days)
        self.init(
            year: y, month: m, day: d, hour: rest / 3_600, minute: rest % 3_600 / 60, second: rest % 60, zone: .utc)
    }

    /// Parses the date forms media files use:
    /// `2024-05-06T10:20:30+0900`, `2024-05-06T10:20:30+09:00`, `...Z`,
    /// `2011:01:13 14:33:39` (EXIF), with optional fractional seconds.
    /// Returns `nil` for anything else.
    public init?(parsing text: String) {
        let bytes = Array(text.utf8.prefix(64))
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2) else { return nil }
        guard bytes.count >= 19, let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2)
        else { return nil }
        var index = 19
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
            index += 1
            while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
        }
        var zone = Zone.unspecified
        if index < bytes.count {
            let sign = bytes[index]
            if sign == UInt8(ascii: "Z") {
                zone = .utc
            } else if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                guard let hours = number(index + 1, 2) else { return nil }
                var minutesIndex = index + 3
                if minutesIndex < bytes.count, bytes[minutesIndex] == UInt8(ascii: ":") { minutesIndex += 1 }
                let minutes = number(minutesIndex, 2) ?? 0
                let seconds = (hours * 60 + minutes) * 60
                zone = .offset(seconds: sign == UInt8(ascii: "-") ? -seconds : seconds)
            }
        }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second, zone: zone)
        guard isValid else { return nil }
    }

    /// Parses an EXIF offset such as `+09:00` or `-05:00` into seconds.
    public static func parseOffset(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
            let hours = Int(String(decoding: bytes[1..<3], as: UTF8.self)),
            let minutes = Int(String(decoding: bytes[4..<6], as: UTF8.self)), hours <= 18, minutes < 60
        else { return nil }
        let seconds = (hours * 60 + minutes) * 60
        return bytes[0] == UInt8(ascii: "-") ? -seconds : seconds
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    // Howard Hinnant's civil-calendar algorithms (public domain descriptions).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
