/// Rewrites a HEIF (HEIC, AVIF) photo without its place and camera, in place:
/// every EXIF item is replaced by one holding only the orientation and the
/// capture date with its offset (as `JPEGPrivacy` keeps them), and every XMP
/// packet by an empty packet (XMP holds places, but also creators, rights,
/// descriptions and editing history: none of it is kept, as for JPEG). Both are written over the item's own bytes and padded, so no
/// offset in the file moves: the pictures, their properties and the HDR gain
/// map are copied byte for byte.
public enum HEIFPrivacy {
    /// The stripped file. Throws for bytes that are not a HEIF file, or whose metadata is
    /// not one run of bytes that can be rewritten in place (nothing is guessed).
    public static func stripped(_ bytes: [UInt8]) throws(ProbeError) -> [UInt8] {
        let reader = BoxReader(source: MemoryByteSource(bytes), limits: .default)
        let boxes = try reader.children(from: 0, to: Int64(bytes.count))
        guard boxes.first?.type == "ftyp", let meta = boxes.first("meta") else {
            throw ProbeError(.unrecognized, "not a HEIF file (no 'ftyp' and 'meta' boxes)", element: "HEIF")
        }
        var out = bytes
        for item in try HEIFImage.metadataItems(meta, reader: reader) {
            guard let range = item.range else {
                throw ProbeError(
                    .malformed,
                    "item \(item.id) is stored in pieces or built from other items; Pickup cannot "
                        + "rewrite it in place", element: "box 'iloc'")
            }
            let span = Int(range.lowerBound)..<Int(range.upperBound)
            if item.isXMP {
                blankXMP(&out, span)
            } else {
                rewriteEXIF(&out, span)
            }
        }
        return out
    }

    private static func blankXMP(_ bytes: inout [UInt8], _ span: Range<Int>) {
        let head = Array(
            #"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"/>"#.utf8)
        let tail = Array(#"<?xpacket end="w"?>"#.utf8)
        let padding = span.count - head.count - tail.count
        // Padding goes inside the packet, where XMP allows it; a packet too small for an empty one becomes spaces.
        let packet = padding >= 0 ? head + [UInt8](repeating: 0x20, count: padding) + tail : []
        bytes.replaceSubrange(span, with: packet.isEmpty ? [UInt8](repeating: 0x20, count: span.count) : packet)
    }

    private static func rewriteEXIF(_ bytes: inout [UInt8], _ span: Range<Int>) {
        let item = Array(bytes[span])
        // The item's first four bytes say where its TIFF header is; without one, all of it goes.
        let start = HEIFImage.tiffOffset(ofExifItem: item) ?? min(4, item.count)
        let room = item.count - start
        let empty: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]  // a TIFF with no entries
        var block = (try? JPEGPrivacy.minimalEXIF(Array(item[start...]))) ?? empty
        if block.count > room { block = empty.count <= room ? empty : [] }
        let from = span.lowerBound + start
        bytes.replaceSubrange(from..<span.upperBound, with: block + [UInt8](repeating: 0, count: room - block.count))
    }
}
