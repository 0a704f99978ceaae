/// A bounds-checked cursor over bytes already read, in big or little endian.
///
/// Every read checks what is left and throws ``ProbeError/Code/truncated``
/// naming the file offset, so parsers never index past their data.
struct ByteReader {
    let bytes: [UInt8]
    /// Offset of `bytes[0]` in the file, for error messages.
    let base: Int64
    var position: Int = 0
    /// Context for errors, e.g. "box 'tkhd'".
    var element: String?
    var littleEndian = false

    init(_ bytes: [UInt8], base: Int64 = 0, element: String? = nil) {
        self.bytes = bytes
        self.base = base
        self.element = element
    }

    var remaining: Int { bytes.count - position }
    var isAtEnd: Bool { position >= bytes.count }
    var fileOffset: Int64 { base + Int64(position) }

    func error(_ code: ProbeError.Code, _ message: String) -> ProbeError {
        ProbeError(code, message, offset: fileOffset, element: element)
    }

    private func need(_ count: Int) throws(ProbeError) {
        guard count >= 0, count <= remaining else {
            throw error(.truncated, "wanted \(count) bytes but only \(remaining) remain")
        }
    }

    mutating func skip(_ count: Int) throws(ProbeError) {
        try need(count)
        position += count
    }

    mutating func seek(to position: Int) throws(ProbeError) {
        guard position >= 0, position <= bytes.count else {
            throw error(.malformed, "offset \(position) lies outside the \(bytes.count) bytes of the structure")
        }
        self.position = position
    }

    mutating func u8() throws(ProbeError) -> UInt8 {
        try need(1)
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16() throws(ProbeError) -> UInt16 {
        try need(2)
        defer { position += 2 }
        let a = UInt16(bytes[position]), b = UInt16(bytes[position + 1])
        return littleEndian ? (b << 8 | a) : (a << 8 | b)
    }

    mutating func u24() throws(ProbeError) -> UInt32 {
        try need(3)
        defer { position += 3 }
        let a = UInt32(bytes[position]), b = UInt32(bytes[position + 1]), c = UInt32(bytes[position + 2])
        return littleEndian ? (c << 16 | b << 8 | a) : (a << 16 | b << 8 | c)
    }

    mutating func u32() throws(ProbeError) -> UInt32 { try unsigned() }

    mutating func u64() throws(ProbeError) -> UInt64 { try unsigned() }

    /// An unsigned integer as wide as `T`, in the reader's byte order.
    private mutating func unsigned<T: FixedWidthInteger & UnsignedInteger>() throws(ProbeError) -> T {
        let width = T.bitWidth / 8
        try need(width)
        defer { position += width }
        var value: T = 0
        for i in 0..<width {
            value = value << 8 | T(bytes[position + (littleEndian ? width - 1 - i : i)])
        }
        return value
    }

    /// An unsigned integer of 0, 4 or 8 bytes, as `iloc` sizes it.
    mutating func uint(size: Int) throws(ProbeError) -> UInt64 {
        switch size {
        case 0: return 0
        case 1: return UInt64(try u8())
        case 2: return UInt64(try u16())
        case 4: return UInt64(try u32())
        case 8: return try u64()
        default: throw error(.malformed, "field size \(size) is not 0, 1, 2, 4 or 8")
        }
    }

    mutating func i32() throws(ProbeError) -> Int32 { Int32(bitPattern: try u32()) }

    mutating func bytes(_ count: Int) throws(ProbeError) -> [UInt8] {
        try need(count)
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    mutating func rest() -> [UInt8] {
        defer { position = bytes.count }
        return Array(bytes[position...])
    }

    /// A four-character code such as `moov`, printable for error messages.
    mutating func fourCC() throws(ProbeError) -> FourCC { FourCC(try u32()) }

    /// A NUL-terminated string (or the rest, when no NUL comes).
    mutating func cString(limit: Int? = nil) -> String {
        let end = min(bytes.count, position + (limit ?? bytes.count))
        var stop = position
        while stop < end, bytes[stop] != 0 { stop += 1 }
        let text = String(decoding: bytes[position..<stop], as: UTF8.self)
        position = min(end, stop + 1)
        return text
    }
}

/// A four-character code (box type, chunk id), kept as its 32-bit value.
struct FourCC: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    let value: UInt32

    init(_ value: UInt32) { self.value = value }

    init(stringLiteral text: String) {
        var value: UInt32 = 0
        for byte in text.unicodeScalars.prefix(4) { value = value << 8 | UInt32(byte.value & 0xFF) }
        self.value = value
    }

    var description: String {
        var text = ""
        for shift in stride(from: 24, through: 0, by: -8) {
            let byte = UInt8(truncatingIfNeeded: value >> UInt32(shift))
            if byte == 0xA9 {
                text += "©"
            } else if (32..<127).contains(byte) {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "\\x" + String(byte, radix: 16)
            }
        }
        return text
    }
}
