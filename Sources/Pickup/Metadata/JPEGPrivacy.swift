/// Rewrites a JPEG without what can identify a place or a person: the EXIF
/// block is rebuilt with only the orientation (so the photo still stands
/// upright) and the capture date with its offset. Of the other application
/// segments only what draws the picture survives (JFIF, the ICC colour profile,
/// Adobe's colour transform): XMP, IPTC (APP13), the MPF index (APP2), C2PA/JUMBF
/// manifests (APP11), every other APPn and comments are left out. The file ends
/// at the primary image's end-of-image marker: what follows it (an MPF second
/// image or gain map, a motion photo's MP4, any trailer) is left out, since it
/// can carry its own GPS, owner and camera. The compressed picture is copied
/// byte for byte.
public enum JPEGPrivacy {
    /// The stripped file. Throws for bytes that are not a well-formed JPEG (nothing is guessed).
    public static func stripped(_ bytes: [UInt8]) throws(ProbeError) -> [UInt8] {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw ProbeError(.unrecognized, "not a JPEG (no start-of-image marker)", element: "JPEG")
        }
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(bytes.count)
        var index = 2
        var scanned = false
        while index < bytes.count {
            if scanned {
                // Entropy-coded data: up to the next marker that is neither a stuffed
                // 0xFF00 nor a restart (a progressive file has several scans).
                let end = scanEnd(bytes, from: index)
                out += bytes[index..<end]
                index = end
                if index >= bytes.count { break }
            }
            guard bytes[index] == 0xFF else {
                throw ProbeError(.malformed, "expected a marker", offset: Int64(index), element: "JPEG")
            }
            var markerAt = index + 1
            while markerAt < bytes.count, bytes[markerAt] == 0xFF { markerAt += 1 }  // fill bytes
            guard markerAt < bytes.count else { break }
            let marker = bytes[markerAt]
            if marker == 0xD9 {
                // End of the primary image: whatever follows is left out.
                out += [0xFF, 0xD9]
                return out
            }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 {
                out += [0xFF, marker]
                index = markerAt + 1
                continue
            }
            guard markerAt + 2 < bytes.count else {
                throw ProbeError(.truncated, "a segment header is cut off", offset: Int64(markerAt), element: "JPEG")
            }
            let length = Int(bytes[markerAt + 1]) << 8 | Int(bytes[markerAt + 2])
            let end = markerAt + 1 + length
            guard length >= 2, end <= bytes.count else {
                throw ProbeError(
                    .truncated, "a segment runs past the end of the file", offset: Int64(markerAt), element: "JPEG")
            }
            let payload = bytes[(markerAt + 3)..<end]
            switch marker {
            case 0xE1 where payload.starts(with: Array("Exif".utf8) + [0, 0]):
                if let block = try minimalEXIF(Array(payload.dropFirst(6))) {
                    out += segment(0xE1, Array("Exif".utf8) + [0, 0] + block)
                }
            case 0xE0 where payload.starts(with: Array("JFIF".utf8) + [0]),
                0xE2 where payload.starts(with: Array("ICC_PROFILE".utf8) + [0]),
                0xEE where payload.starts(with: Array("Adobe".utf8)):
                out += bytes[index..<end]  // what the picture needs to be drawn
            case 0xE0...0xEF, 0xFE:
                break  // XMP, MPF, IPTC, C2PA/JUMBF, maker segments, comments: left out
            default:
                out += bytes[index..<end]  // frame, tables, restart interval, start of scan
            }
            if marker == 0xDA { scanned = true }
            index = end
        }
        guard scanned else {
            throw ProbeError(
                .truncated, "the file ends before the picture starts", offset: Int64(bytes.count), element: "JPEG")
        }
        return out  // a picture cut short: nothing follows it to leave out
    }

    /// Where the entropy-coded data that starts at `start` ends: the index of the
    /// next marker's first 0xFF, or the end of `bytes`.
    private static func scanEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var at = start
        while at + 1 < bytes.count {
            if bytes[at] == 0xFF {
                let next = bytes[at + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) {
                    at += 2
                    continue
                }
                return at
            }
            at += 1
        }
        return bytes.count
    }

    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// A new TIFF block with Orientation, DateTimeOriginal and OffsetTimeOriginal only (nil: none of them).
    static func minimalEXIF(_ tiff: [UInt8]) throws(ProbeError) -> [UInt8]? {
        let opened = try TIFFReader.open(tiff, limits: .default)
        var reader = opened.0
        let first = try reader.readIFD(at: opened.1).entries
        var orientation: UInt16?
        var dates: [(tag: UInt16, value: [UInt8])] = []
        if let entry = first.first(where: { $0.tag == 0x0112 }), entry.type == 3,
            let value = reader.u16(at: entry.valueOffset),
            (1...8).contains(value)
        {
            orientation = value
        }
        if let pointer = first.first(where: { $0.tag == 0x8769 }).flatMap({ reader.u32(at: $0.valueOffset) }) {
            let exif = try reader.readIFD(at: Int(pointer)).entries
            for tag: UInt16 in [0x9003, 0x9011] {
                guard let entry = exif.first(where: { $0.tag == tag }), entry.type == 2, entry.count <= 64,
                    entry.valueOffset + Int(entry.count) <= tiff.count
                else { continue }
                dates.append((tag, Array(tiff[entry.valueOffset..<(entry.valueOffset + Int(entry.count))])))
            }
        }
        if orientation == nil && dates.isEmpty { return nil }
        // Big-endian TIFF: header, IFD0, then the EXIF IFD and its strings.
        var block: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A] + ByteOrder.bigEndian32(8)
        let count0 = (orientation == nil ? 0 : 1) + (dates.isEmpty ? 0 : 1)
        let exifAt = 8 + 2 + count0 * 12 + 4
        block += ByteOrder.bigEndian16(count0)
        if let orientation {
            block += ifdEntry(0x0112, type: 3, count: 1, value: ByteOrder.bigEndian16(Int(orientation)))
        }
        if !dates.isEmpty { block += ifdEntry(0x8769, type: 4, count: 1, value: ByteOrder.bigEndian32(exifAt)) }
        block += ByteOrder.bigEndian32(0)
        if !dates.isEmpty {
            var dataAt = exifAt + 2 + dates.count * 12 + 4
            var data: [UInt8] = []
            block += ByteOrder.bigEndian16(dates.count)
            for (tag, value) in dates {
                // ASCII of four bytes or fewer sits in the entry; longer goes after the IFD.
                let inline = value.count <= 4
                block += ifdEntry(
                    Int(tag), type: 2, count: value.count, value: inline ? value : ByteOrder.bigEndian32(dataAt))
                if !inline {
                    data += value
                    dataAt += value.count
                }
            }
            block += ByteOrder.bigEndian32(0) + data
        }
        return block
    }

    /// A 12-byte IFD entry: tag, type, count, and a value of up to four bytes, padded.
    private static func ifdEntry(_ tag: Int, type: Int, count: Int, value: [UInt8]) -> [UInt8] {
        ByteOrder.bigEndian16(tag) + ByteOrder.bigEndian16(type) + ByteOrder.bigEndian32(count) + value
            + [UInt8](repeating: 0, count: 4 - value.count)
    }
}
