/// Rewrites a GIF without what can identify a place or a person: the XMP
/// application extension and comment extensions are left out, and so is
/// anything after the trailer. GIF has no EXIF; the frames, their timing and
/// the loop count are copied byte for byte.
public enum GIFPrivacy {
    /// The stripped file. Throws for bytes that are not a well-formed GIF (nothing is guessed).
    public static func stripped(_ bytes: [UInt8]) throws(ProbeError) -> [UInt8] {
        guard bytes.count >= 13, bytes.starts(with: Array("GIF8".utf8)) else {
            throw ProbeError(.unrecognized, "not a GIF (no GIF8 signature)", element: "GIF")
        }
        var index = 13
        if bytes[10] & 0x80 != 0 { index += 3 << (Int(bytes[10] & 7) + 1) }  // global color table
        guard index <= bytes.count else { throw cut(at: bytes.count) }
        var out = Array(bytes[0..<index])
        while index < bytes.count {
            let start = index
            switch bytes[index] {
            case 0x21:
                guard index + 2 <= bytes.count else { throw cut(at: index) }
                let label = bytes[index + 1]
                let isXMP =
                    label == 0xFF && index + 14 <= bytes.count && bytes[index + 2] == 11
                    && bytes[(index + 3)..<(index + 14)].elementsEqual("XMP DataXMP".utf8)
                index = try afterSubBlocks(bytes, from: index + 2)
                if label != 0xFE && !isXMP { out += bytes[start..<index] }  // comments and XMP: left out
            case 0x2C:
                guard index + 10 <= bytes.count else { throw cut(at: index) }
                var next = index + 10
                if bytes[index + 9] & 0x80 != 0 { next += 3 << (Int(bytes[index + 9] & 7) + 1) }  // local colors
                next += 1  // LZW minimum code size
                guard next <= bytes.count else { throw cut(at: index) }
                index = try afterSubBlocks(bytes, from: next)
                out += bytes[start..<index]
            case 0x3B:
                return out + [0x3B]
            default:
                throw ProbeError(
                    .malformed, "unexpected block 0x" + String(bytes[index], radix: 16), offset: Int64(index),
                    element: "GIF block")
            }
        }
        throw cut(at: bytes.count)
    }

    /// Where a run of sub-blocks (each a length byte and that many bytes, a zero length last) ends.
    private static func afterSubBlocks(_ bytes: [UInt8], from start: Int) throws(ProbeError) -> Int {
        var index = start
        while index < bytes.count {
            let length = Int(bytes[index])
            index += 1 + length
            if length == 0 { return index }
        }
        throw cut(at: bytes.count)
    }

    private static func cut(at offset: Int) -> ProbeError {
        ProbeError(.truncated, "the GIF ends before its trailer", offset: Int64(offset), element: "GIF")
    }
}
