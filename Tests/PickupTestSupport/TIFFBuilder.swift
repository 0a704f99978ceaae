/// Builds EXIF (TIFF) blocks in code: IFD0, an EXIF sub-IFD, a GPS IFD,
/// SubIFDs (a DNG's raw image and previews) and an Apple maker note, or
/// deliberately broken ones. A block is also a TIFF file (with no image data).
public struct TIFFBuilder {
    public enum Value {
        case ascii(String)
        case short(UInt16)
        case long(UInt32)
        case rationals([(UInt32, UInt32)])
        case byte(UInt8)
        case undefined([UInt8])
        case shorts([UInt16])
        case longs([UInt32])
        /// Any type and count, with these value bytes (inline when 4 or fewer).
        case raw(type: UInt16, count: UInt32, bytes: [UInt8])
    }

    public var littleEndian = false
    public var ifd0: [(UInt16, Value)] = []
    public var exif: [(UInt16, Value)] = []
    public var gps: [(UInt16, Value)] = []
    /// IFDs listed by IFD0's SubIFDs tag (0x014A), written after the others.
    public var subIFDs: [[(UInt16, Value)]] = []
    /// Bytes of stand-in pixel data between the header and IFD0 (libtiff writes IFD0 after the pixels).
    public var pixelBytes = 0

    /// Where IFD0 begins.
    public var ifd0Offset: Int { 8 + pixelBytes }

    public init(littleEndian: Bool = false) { self.littleEndian = littleEndian }

    /// Apple's maker note with a Live Photo content identifier (tag 0x0011)
    /// and, optionally, a burst identifier (tag 0x000B).
    public static func appleMakerNote(contentIdentifier: String?, burstIdentifier: String? = nil) -> [UInt8] {
        var strings: [(UInt16, [UInt8])] = []
        if let burstIdentifier { strings.append((0x000B, Array(burstIdentifier.utf8) + [0])) }
        if let contentIdentifier { strings.append((0x0011, Array(contentIdentifier.utf8) + [0])) }
        var w = ByteWriter()
        w.ascii("Apple iOS\0")
        w.u16(1)
        w.ascii("MM")
        w.u16(UInt16(1 + strings.count))
        w.u16(0x0001)
        w.u16(9)
        w.u32(1)
        w.u32(11)
        var data = 14 + 2 + 12 * (1 + strings.count) + 4  // after the IFD and its next-IFD link
        for (tag, text) in strings {
            w.u16(tag)
            w.u16(2)
            w.u32(UInt32(text.count))
            w.u32(UInt32(data))
            data += text.count
        }
        w.u32(0)
        for (_, text) in strings { w.append(text) }
        return w.bytes
    }

    /// Where ``build()`` puts each of ``subIFDs``.
    public func subIFDOffsets() -> [Int] {
        var ifd0 = self.ifd0
        if !exif.isEmpty { ifd0.append((0x8769, .long(0))) }
        if !gps.isEmpty { ifd0.append((0x8825, .long(0))) }
        if !subIFDs.isEmpty { ifd0.append((0x014A, .longs(subIFDs.map { _ in 0 }))) }
        var next = ifd0Offset + TIFFBuilder.size(of: ifd0)
        next += (exif.isEmpty ? 0 : TIFFBuilder.size(of: exif)) + (gps.isEmpty ? 0 : TIFFBuilder.size(of: gps))
        var starts: [Int] = []
        for sub in subIFDs {
            starts.append(next)
            next += TIFFBuilder.size(of: sub)
        }
        return starts
    }

    public func build() -> [UInt8] {
        var w = ByteWriter(littleEndian: littleEndian)
        w.ascii(littleEndian ? "II" : "MM")
        w.u16(42)
        w.u32(UInt32(ifd0Offset))
        w.append([UInt8](repeating: 0, count: pixelBytes))
        var ifd0 = self.ifd0
        // Sub-IFD pointers are patched once their places are known.
        if !exif.isEmpty { ifd0.append((0x8769, .long(0))) }
        if !gps.isEmpty { ifd0.append((0x8825, .long(0))) }
        if !subIFDs.isEmpty { ifd0.append((0x014A, .longs(subIFDs.map { _ in 0 }))) }
        let exifStart = ifd0Offset + TIFFBuilder.size(of: ifd0)
        let gpsStart = exifStart + (exif.isEmpty ? 0 : TIFFBuilder.size(of: exif))
        let subStarts = subIFDOffsets().map { UInt32($0) }
        ifd0 = ifd0.map { tag, value in
            if tag == 0x8769 { return (tag, .long(UInt32(exifStart))) }
            if tag == 0x8825 { return (tag, .long(UInt32(gpsStart))) }
            if tag == 0x014A, !subIFDs.isEmpty { return (tag, .longs(subStarts)) }
            return (tag, value)
        }
        TIFFBuilder.write(ifd0, at: ifd0Offset, into: &w)
        if !exif.isEmpty { TIFFBuilder.write(exif, at: exifStart, into: &w) }
        if !gps.isEmpty { TIFFBuilder.write(gps, at: gpsStart, into: &w) }
        for (sub, start) in zip(subIFDs, subStarts) { TIFFBuilder.write(sub, at: Int(start), into: &w) }
        return w.bytes
    }

    static func encode(_ value: Value, littleEndian: Bool) -> (type: UInt16, count: UInt32, bytes: [UInt8]) {
        var w = ByteWriter(littleEndian: littleEndian)
        switch value {
        case .ascii(let text):
            w.ascii(text + "\0")
            return (2, UInt32(w.bytes.count), w.bytes)
        case .short(let v):
            w.u16(v)
            return (3, 1, w.bytes)
        case .long(let v):
            w.u32(v)
            return (4, 1, w.bytes)
        case .byte(let v):
            w.u8(v)
            return (1, 1, w.bytes)
        case .rationals(let list):
            for (n, d) in list {
                w.u32(n)
                w.u32(d)
            }
            return (5, UInt32(list.count), w.bytes)
        case .undefined(let bytes):
            return (7, UInt32(bytes.count), bytes)
        case .shorts(let list):
            for v in list { w.u16(v) }
            return (3, UInt32(list.count), w.bytes)
        case .longs(let list):
            for v in list { w.u32(v) }
            return (4, UInt32(list.count), w.bytes)
        case .raw(let type, let count, let bytes):
            return (type, count, bytes)
        }
    }

    static func size(of entries: [(UInt16, Value)]) -> Int {
        var total = 2 + entries.count * 12 + 4
        for (_, value) in entries {
            let data = encode(value, littleEndian: false).bytes.count
            if data > 4 { total += data + (data & 1) }
        }
        return total
    }

    static func write(_ entries: [(UInt16, Value)], at start: Int, into w: inout ByteWriter) {
        precondition(w.bytes.count == start)
        var data = start + 2 + entries.count * 12 + 4
        var blobs: [UInt8] = []
        w.u16(UInt16(entries.count))
        for (tag, value) in entries {
            let (type, count, bytes) = encode(value, littleEndian: w.littleEndian)
            w.u16(tag)
            w.u16(type)
            w.u32(count)
            if bytes.count <= 4 {
                w.append(bytes + [UInt8](repeating: 0, count: 4 - bytes.count))
            } else {
                w.u32(UInt32(data))
                blobs += bytes
                if bytes.count & 1 == 1 { blobs.append(0) }
                data += bytes.count + (bytes.count & 1)
            }
        }
        w.u32(0)
        w.append(blobs)
    }

    /// A JPEG of the given size with this EXIF block in APP1 (no image data; the frame header is enough to probe).
    public static func jpeg(width: UInt16, height: UInt16, exif: [UInt8]?) -> [UInt8] {
        var w = ByteWriter()
        w.append([0xFF, 0xD8])
        if let exif {
            w.append([0xFF, 0xE1])
            w.u16(UInt16(2 + 6 + exif.count))
            w.ascii("Exif\0\0")
            w.append(exif)
        }
        w.append([0xFF, 0xC0])
        w.u16(17)
        w.u8(8)
        w.u16(height)
        w.u16(width)
        w.u8(3)
        w.append([1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
        w.append([0xFF, 0xDA, 0x00, 0x0C, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0])
        w.append([0x12, 0x34, 0xFF, 0xD9])
        return w.bytes
    }
}
