/// Numbers as the bytes the metadata rewriters write: big-endian for JPEG, TIFF and PNG,
/// little-endian for RIFF (WebP). Only the low 16 or 32 bits of `value` are written.
enum ByteOrder {
    static func bigEndian16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    static func bigEndian32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func littleEndian32(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)]
    }
}
