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
        while let chunk = RIFFChunk(in: bytes, at: offset) {
            if chunk.name == "ANMF" {
                return still(fromFrame: Array(bytes[chunk.payload]))
            }
            offset = chunk.next
        }
        return nil
    }

    /// The still WebP of one `ANMF` payload.
    static func still(fromFrame payload: [UInt8]) -> (still: [UInt8], size: PixelSize)? {
        guard payload.count > 16 else { return nil }
        func uint24(_ at: Int) -> Int { Int(payload[at]) | Int(payload[at + 1]) << 8 | Int(payload[at + 2]) << 16 }
        let size = PixelSize(width: uint24(6) + 1, height: uint24(9) + 1)
        var alpha: [UInt8]?
        var picture: [UInt8]?
        var offset = 16
        while let chunk = RIFFChunk(in: payload, at: offset) {
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
            // VP8X: flags (alpha), three reserved bytes, the canvas's width - 1 and height - 1
            // (24 bits each: the low three bytes of little-endian 32-bit numbers).
            let canvas =
                ByteOrder.littleEndian32(size.width - 1).prefix(3) + ByteOrder.littleEndian32(size.height - 1).prefix(3)
            body += RIFFChunk.bytes("VP8X", [0x10, 0, 0, 0] + canvas) + alpha
        }
        body += picture
        return (Array("RIFF".utf8) + ByteOrder.littleEndian32(4 + body.count) + Array("WEBP".utf8) + body, size)
    }
}
