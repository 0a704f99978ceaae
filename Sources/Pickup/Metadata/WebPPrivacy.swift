/// Rewrites a WebP without what can identify a place or a person: the `EXIF`
/// chunk is rebuilt with only the orientation and the capture date with its
/// offset (as `JPEGPrivacy` keeps them), the `XMP ` chunk is left out, and
/// the `VP8X` flags and the RIFF size say so. The image chunks are copied byte
/// for byte.
public enum WebPPrivacy {
    /// The stripped file. Throws for bytes that are not a well-formed WebP (nothing is guessed).
    public static func stripped(_ bytes: [UInt8]) throws(ProbeError) -> [UInt8] {
        guard bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8)
        else {
            throw ProbeError(.unrecognized, "not a WebP (no RIFF WEBP header)", element: "WebP")
        }
        var out = Array(bytes[0..<12])
        var flagsAt: Int?
        var hasEXIF = false
        var index = 12
        while index + 8 <= bytes.count {
            guard let found = RIFFChunk(in: bytes, at: index) else {
                let type = String(decoding: bytes[index..<(index + 4)], as: UTF8.self)
                throw ProbeError(
                    .truncated, "chunk '\(type)' runs past the end of the file", offset: Int64(index), element: "WebP")
            }
            let type = found.name
            let size = found.payload.count
            let padded = min(bytes.count, found.next)
            switch type {
            case "EXIF":
                var tiff = Array(bytes[found.payload])
                if tiff.starts(with: Array("Exif".utf8) + [0, 0]) { tiff.removeFirst(6) }
                if let block = try JPEGPrivacy.minimalEXIF(tiff) {
                    out += RIFFChunk.bytes("EXIF", block)
                    hasEXIF = true
                }
            case "XMP ":
                break  // left out
            default:
                if type == "VP8X", size >= 1 { flagsAt = out.count + 8 }
                out += bytes[index..<padded]
            }
            index = padded
        }
        guard index == bytes.count else {
            throw ProbeError(.truncated, "a chunk header is cut off", offset: Int64(index), element: "WebP")
        }
        if let flagsAt {
            // VP8X flags: 0x08 EXIF present, 0x04 XMP present.
            out[flagsAt] = out[flagsAt] & ~0x0C | (hasEXIF ? 0x08 : 0)
        }
        let riff = out.count - 8
        out.replaceSubrange(4..<8, with: ByteOrder.littleEndian32(riff))
        return out
    }

}
