import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Paths as the file system holds them: bytes, nearly always UTF-8. A name that is not UTF-8
/// (Latin-1 from an old camera, a share or an archive) must still travel in a Swift `String`
/// and lead back to its file, as ffmpeg, exiftool and rclone take such names. Each byte that
/// is not part of valid UTF-8 is kept as one scalar of U+10FF80...U+10FFFF (the last 128 code
/// points of a private-use plane, which no real name holds), and `withCString` turns each back
/// into its byte for the system call. Valid UTF-8 is kept as it is, so every other path is
/// unchanged.
public enum SystemPath {
    /// The first scalar of the range that stands for raw bytes: U+10FF80 is byte 0x80.
    static let firstEscape: UInt32 = 0x10_FF80

    /// The path these bytes spell: valid UTF-8 as it is, any other byte kept as its escape.
    public static func string(fromBytes bytes: some Collection<UInt8>) -> String {
        // Decoding repairs what is not UTF-8 (with U+FFFD): the bytes are kept only when it did not.
        let decoded = String(decoding: bytes, as: UTF8.self)
        if decoded.utf8.elementsEqual(bytes) { return decoded }
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            if let (scalar, length) = scalar(in: bytes, at: index) {
                scalars.append(scalar)
                index += length
            } else {
                scalars.append(escape(bytes[index]))
                index += 1
            }
        }
        return String(scalars)
    }

    /// The path a C string from the system (`argv`, `readdir`, `realpath`) spells.
    public static func string(cString: UnsafePointer<CChar>) -> String {
        var length = 0
        while cString[length] != 0 { length += 1 }
        return cString.withMemoryRebound(to: UInt8.self, capacity: length) {
            string(fromBytes: UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// Whether `path` holds bytes that are not UTF-8 (so it can only be shown, or named
    /// elsewhere, in another spelling).
    public static func hasRawBytes(_ path: String) -> Bool {
        // Every escape is encoded F4 8F BE xx or F4 8F BF xx; no other path holds F4 8F BE/BF.
        path.utf8.contains(0xF4) && path.unicodeScalars.contains { rawByte($0) != nil }
    }

    /// The bytes the system knows `path` by, to a C string for a call that takes one.
    public static func withCString<Result>(
        _ path: String, _ body: (UnsafePointer<CChar>) throws -> Result
    ) rethrows -> Result {
        guard path.utf8.contains(0xF4) else { return try path.withCString(body) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count + 1)
        for scalar in path.unicodeScalars {
            if let byte = rawByte(scalar) {
                bytes.append(byte)
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        bytes.append(0)
        let characters = bytes.map { CChar(bitPattern: $0) }
        return try characters.withUnsafeBufferPointer { buffer in
            // Never nil: the buffer holds at least the NUL appended above.
            guard let start = buffer.baseAddress else { return try "".withCString(body) }
            return try body(start)
        }
    }

    /// `path` in valid UTF-8 for a place that needs it (an S3 key, a stored name, an output's
    /// name, a form's filename): each raw byte read as Latin-1, the encoding old cameras and
    /// shares used (`caf\xE9.jpg` becomes `café.jpg`).
    public static func readable(_ path: String) -> String {
        guard path.utf8.contains(0xF4) else { return path }
        var scalars = String.UnicodeScalarView()
        for scalar in path.unicodeScalars {
            scalars.append(rawByte(scalar).flatMap { Unicode.Scalar(UInt32($0)) } ?? scalar)
        }
        return String(scalars)
    }

    /// The byte a scalar stands for, when it is an escape.
    public static func rawByte(_ scalar: Unicode.Scalar) -> UInt8? {
        let value = scalar.value
        guard value >= firstEscape, value <= firstEscape + 0x7F else { return nil }
        return UInt8(0x80 + value - firstEscape)
    }

    /// The escape of a byte 0x80...0xFF.
    static func escape(_ byte: UInt8) -> Unicode.Scalar {
        // 0x10FF80 + 0...0x7F is within the scalar range and no surrogate.
        Unicode.Scalar(firstEscape + UInt32(byte & 0x7F)) ?? "\u{FFFD}"
    }

    /// The scalar of the valid UTF-8 sequence at `index`, and its length; nil when the bytes
    /// there are not one (a stray continuation byte, a cut or overlong sequence, a surrogate).
    static func scalar(in bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        let length: Int
        let lowest: UInt32
        switch lead {
        case 0..<0x80: return Unicode.Scalar(UInt32(lead)).map { ($0, 1) }
        case 0xC2...0xDF: (length, lowest) = (2, 0x80)
        case 0xE0...0xEF: (length, lowest) = (3, 0x800)
        case 0xF0...0xF4: (length, lowest) = (4, 0x10000)
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        var value = UInt32(lead) & (0xFF >> UInt32(length + 1))
        for offset in 1..<length {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
        }
        guard value >= lowest, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// The path made absolute from the current folder, `.` and `..` folded and no trailing
    /// slash, its links kept (`realpath(3)` is ``resolved(_:)``): one spelling of a path for the
    /// journal and for telling whether one path lies in a folder.
    public static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in full.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` with the links of the part that exists resolved, the rest as given: where a
    /// folder not made yet would be (`cardlink/Lib` is `card/Lib` when `cardlink` leads to `card`).
    package static func resolvedAsMade(_ path: String) -> String {
        var existing = absolute(path)
        var rest: [String] = []
        while existing != "/", resolved(existing) == nil {
            rest.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
        }
        let base = resolved(existing) ?? existing
        return rest.reduce(base) { ($0 as NSString).appendingPathComponent($1) }
    }

    /// The path with every symbolic link and `..` resolved, as the kernel resolves it
    /// (`realpath(3)`), or nil when it does not exist.
    public static func resolved(_ path: String) -> String? {
        guard let resolved = withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return string(cString: resolved)
    }
}
