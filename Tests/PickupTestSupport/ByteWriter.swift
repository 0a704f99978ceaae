/// Big- or little-endian byte building for fixtures made in code.
public struct ByteWriter {
    public var bytes: [UInt8] = []
    public var littleEndian = false

    public init(littleEndian: Bool = false) { self.littleEndian = littleEndian }

    public mutating func u8(_ value: UInt8) { bytes.append(value) }
    public mutating func u16(_ value: UInt16) { put(UInt64(value), 2) }
    public mutating func u24(_ value: UInt32) { put(UInt64(value), 3) }
    public mutating func u32(_ value: UInt32) { put(UInt64(value), 4) }
    public mutating func i32(_ value: Int32) { put(UInt64(UInt32(bitPattern: value)), 4) }
    public mutating func u64(_ value: UInt64) { put(value, 8) }
    public mutating func ascii(_ text: String) { bytes += Array(text.utf8) }
    /// A four-character code; "©" is written as the single byte 0xA9, as QuickTime does.
    public mutating func fourCC(_ code: String) {
        let scalars = code.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        precondition(scalars.count == 4, "a four-character code needs four characters: \(code)")
        bytes += scalars
    }
    public mutating func zeros(_ count: Int) { bytes += [UInt8](repeating: 0, count: count) }
    public mutating func append(_ other: [UInt8]) { bytes += other }

    private mutating func put(_ value: UInt64, _ size: Int) {
        for i in 0..<size {
            let shift = littleEndian ? i * 8 : (size - 1 - i) * 8
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
