/// The first frame of an animated WebP as a still WebP of its own: what a thumbnail is made of.
/// Decoders that read only still WebP (FFmpeg's before 7.1) decode that.
///
/// An animated WebP is a `VP8X` header, an `ANIM` chunk and one `ANMF` chunk a frame; each
/// `ANMF` holds the frame's place and size, then its picture as a still WebP would hold it:
/// an optional `ALPH` chunk and a `VP8 ` or `VP8L` chunk. The still is that picture under a
/// `RIFF`/`WEBP` header (with a `VP8X` header saying "alpha" when there is an `ALPH` chunk).
public enum AnimatedWebP {
    /// The still WebP of the first frame, and its size; nil when the bytes hold no frame.
    public static func firstFrame(of bytes: [UInt8]) -> (still: [UInt8], size: PixelSize)? {
        guard bytes.count >= 12, Array(bytes[0..<4]) == Array("RIFF".utf8), Array(bytes[8..<12]) == Array("WEBP".utf8)
        else { return nil }
        var offset = 12
        while let chunk = chunk(in: bytes, at: offset) {
            if chunk.name == "ANMF" {
                return still(fromFrame: Array(bytes[chunk.payload]))
            }
            offset = chunk.next
        }
        return nil
    }

    /// A chunk's name, its payload's range and where the next chunk starts (payloads are padded
    /// to an even length); nil past the end or for a chunk that claims more bytes than there are.
    static func chunk(in bytes: [UInt8], at offset: Int) -> (name: String, payload: Range<Int>, next: Int)? {
        guard offset >= 0, offset + 8 <= bytes.count else { return nil }
        let size =
            Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
            | Int(bytes[offset + 7]) << 24
        let start = offset + 8
        guard size <= bytes.count - start else { return nil }
        let name = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
        return (name, start..<start + size, start + size + (size & 1))
    }

    /// The still WebP of one `ANMF` payload.
    static func still(fromFrame payload: [UInt8]) -> (still: [UInt8], size: PixelSize)? {
        guard payload.count > 16 else { return nil }
        func uint24(_ at: Int) -> Int { Int(payload[at]) | Int(payload[at + 1]) << 8 | Int(payload[at + 2]) << 16 }
        let size = PixelSize(width: uint24(6) + 1, height: uint24(9) + 1)
        var alpha: [UInt8]?
        var picture: [UInt8]?
        var offset = 16
        while let chunk = chunk(in: payload, at: offset) {
            let whole = Array(payload[offset..<min(chunk.next, payload.count)])
            switch chunk.name {
            case "ALPH": alpha = whole
            case "VP8 ", "VP8L": picture = whole
            default: break
            }
            offset = chunk.next
        }
        guard let picture else { return nil }
        var body: [UInt8] = []
        if let alpha, picture.starts(with: Array("VP8 ".utf8)) {
            // VP8X: flags (alpha), three reserved bytes, the canvas's width - 1 and height - 1.
            body += Array("VP8X".utf8) + [10, 0, 0, 0, 0x10, 0, 0, 0]
            body += uint24Bytes(size.width - 1) + uint24Bytes(size.height - 1)
            body += alpha
        }
        body += picture
        let total = 4 + body.count
        let header =
            Array("RIFF".utf8) + [
                UInt8(total & 0xff), UInt8(total >> 8 & 0xff), UInt8(total >> 16 & 0xff), UInt8(total >> 24 & 0xff),
            ]
            + Array("WEBP".utf8)
        return (header + body, size)
    }

    private static func uint24Bytes(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff)]
    }
}
