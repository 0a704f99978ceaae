/// Rewrites a PNG (or APNG) without what can identify a place or a person:
/// the `eXIf` chunk is rebuilt with only the orientation and the capture date
/// with its offset (as `JPEGPrivacy` keeps them), and the text chunks
/// (`tEXt`, `zTXt`, `iTXt`: XMP, EXIF kept as text, comments, authors) are
/// left out. Every other chunk, the image data among them, is copied byte for
/// byte.
public enum PNGPrivacy {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The stripped file. Throws for bytes that are not a well-formed PNG (nothing is guessed).
    public static func stripped(_ bytes: [UInt8]) throws(ProbeError) -> [UInt8] {
        guard bytes.starts(with: signature) else {
            throw ProbeError(.unrecognized, "not a PNG (no PNG signature)", element: "PNG")
        }
        var out = signature
        out.reserveCapacity(bytes.count)
        var index = signature.count
        while index < bytes.count {
            guard index + 12 <= bytes.count else {
                throw ProbeError(.truncated, "a chunk header is cut off", offset: Int64(index), element: "PNG")
            }
            let length =
                Int(bytes[index]) << 24 | Int(bytes[index + 1]) << 16 | Int(bytes[index + 2]) << 8
                | Int(bytes[index + 3])
            let type = String(decoding: bytes[(index + 4)..<(index + 8)], as: UTF8.self)
            let end = index + 12 + length
            guard length <= 0x7FFF_FFFF, end <= bytes.count else {
                throw ProbeError(
                    .truncated, "chunk '\(type)' runs past the end of the file", offset: Int64(index), element: "PNG")
            }
            switch type {
            case "eXIf":
                if let block = try JPEGPrivacy.minimalEXIF(Array(bytes[(index + 8)..<(end - 4)])) {
                    out += chunk("eXIf", block)
                }
            case "tEXt", "zTXt", "iTXt":
                break  // text: XMP, EXIF as hex, comments, authors: left out
            default:
                out += bytes[index..<end]
            }
            index = end
            if type == "IEND" { return out }
        }
        throw ProbeError(.truncated, "the file ends before its IEND chunk", offset: Int64(bytes.count), element: "PNG")
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return ByteOrder.bigEndian32(data.count) + body + ByteOrder.bigEndian32(Int(CRC32.checksum(body)))
    }
}

/// CRC-32 as PNG uses it (ISO 3309, reflected, polynomial 0xEDB88320).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
