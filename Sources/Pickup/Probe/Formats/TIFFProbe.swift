/// Probes TIFF and DNG (Adobe's raw format, a TIFF; iPhone ProRAW and RAW
/// photos arrive as DNG): finds the full-resolution image among IFD0 and its
/// SubIFDs, and hands IFD0 with its EXIF and GPS IFDs to ``EXIFMetadata``.
///
/// Only IFDs are read, never image data. Each IFD's offset and entry count is
/// checked against the file before it is read; SubIFDs are bounded in number
/// and depth, and an IFD met twice (a loop) is an error.
enum TIFFProbe {
    enum Tag {
        static let newSubfileType: UInt16 = 0x00FE, imageWidth: UInt16 = 0x0100, imageLength: UInt16 = 0x0101
        static let bitsPerSample: UInt16 = 0x0102, orientation: UInt16 = 0x0112, subIFDs: UInt16 = 0x014A
        static let extraSamples: UInt16 = 0x0152, dngVersion: UInt16 = 0xC612
    }

    /// The most SubIFDs read in all (a DNG has a few: the raw image and its previews).
    static let maxSubIFDs = 64
    /// How deep SubIFDs of SubIFDs are followed.
    static let maxDepth = 3
    /// Bytes read on either side of IFD0 and its EXIF and GPS IFDs, where their values lie.
    static let metadataMargin = 256 << 10

    /// One 12-byte IFD entry, its value field kept raw (the value itself, or its offset).
    struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: UInt32
        let field: [UInt8]
    }

    /// One image's facts from its IFD.
    struct Image {
        var width: Int?
        var height: Int?
        var subfileType = 0
        var entries: [Entry] = []

        /// Pixels, for choosing the largest image; dimensions from the file may be any 32-bit
        /// numbers, so the product saturates rather than overflows.
        var area: Int {
            let (product, overflow) = max(0, width ?? 0).multipliedReportingOverflow(by: max(0, height ?? 0))
            return overflow ? Int.max : product
        }
    }

    static func probe(_ source: ByteSource, limits: ProbeLimits) throws(ProbeError) -> MediaInfo {
        var header = ByteReader(try source.readUpTo(at: 0, count: 8), element: "TIFF header")
        guard header.remaining == 8 else {
            throw ProbeError(
                .truncated, "the TIFF header needs 8 bytes but the file has \(source.size)", offset: 0,
                element: "TIFF header")
        }
        let littleEndian = try header.u16() == 0x4949
        header.littleEndian = littleEndian
        let magic = try header.u16()
        if magic == 43 {
            throw ProbeError(
                .unrecognized, "this is a BigTIFF file (64-bit offsets), which Pickup does not read", offset: 2,
                element: "TIFF header")
        }
        let ifd0 = Int(try header.u32())
        let walker = Walker(source: source, littleEndian: littleEndian, limits: limits)
        var first = Image(entries: try walker.readIFD(at: ifd0))
        walker.describe(&first)
        let isDNG = first.entries.contains { $0.tag == Tag.dngVersion }
        var images = [first]
        var visited: Set<Int> = [ifd0]
        try walker.subImages(of: first, depth: 1, visited: &visited, into: &images)

        var info = MediaInfo(kind: .image, container: isDNG ? .dng : .tiff, fileSize: source.size)
        info.imageCodec = "tiff"
        // The full-resolution image: the largest whose NewSubfileType is 0 (IFD0 in a plain
        // TIFF; in a DNG, often a SubIFD behind a small IFD0 preview).
        let main = images.filter { $0.subfileType == 0 && $0.area > 0 }.max { $0.area < $1.area } ?? first
        guard let width = main.width, let height = main.height, width > 0, height > 0 else {
            throw ProbeError(
                .malformed, "IFD0 gives no ImageWidth and ImageLength", offset: Int64(ifd0), element: "TIFF IFD0")
        }
        info.width = width
        info.height = height
        if let depth = walker.integers(main, Tag.bitsPerSample, max: 1).first, depth > 0 { info.bitDepth = depth }
        info.alpha = walker.integers(main, Tag.extraSamples, max: 8).contains { $0 == 1 || $0 == 2 }
        info.exifOrientation = 1
        if let value = walker.integers(first, Tag.orientation, max: 1).first, (1...8).contains(value) {
            info.exifOrientation = value
        }
        if let exif = walker.metadata(ifd0: ifd0, first) { exif.fill(&info) }
        info.orientation = Orientation(exifValue: info.exifOrientation ?? 1) ?? .upright
        return info
    }

    /// Reads IFDs and their small values straight from the file.
    struct Walker {
        let source: ByteSource
        let littleEndian: Bool
        let limits: ProbeLimits

        /// The entries of the IFD at `offset`; throws when it lies outside the file or lists too many.
        func readIFD(at offset: Int) throws(ProbeError) -> [Entry] {
            let at = Int64(offset)
            guard offset >= 8 else {
                throw ProbeError(
                    .malformed, "IFD offset \(offset) points inside the 8-byte TIFF header", offset: at,
                    element: "TIFF IFD")
            }
            guard at + 2 <= source.size else {
                throw ProbeError(
                    .truncated, "IFD at offset \(offset) lies past the end of the \(source.size)-byte file",
                    offset: at, element: "TIFF IFD")
            }
            var head = ByteReader(try source.read(at: at, count: 2), base: at, element: "TIFF IFD")
            head.littleEndian = littleEndian
            let count = Int(try head.u16())
            guard count <= limits.maxIFDEntries else {
                throw ProbeError(
                    .limitExceeded, "IFD lists \(count) entries, more than \(limits.maxIFDEntries)", offset: at,
                    element: "TIFF IFD")
            }
            guard at + 2 + Int64(count) * 12 <= source.size else {
                throw ProbeError(
                    .truncated, "IFD lists \(count) entries but the file ends first", offset: at, element: "TIFF IFD")
            }
            var r = ByteReader(try source.read(at: at + 2, count: count * 12), base: at + 2, element: "TIFF IFD")
            r.littleEndian = littleEndian
            var entries: [Entry] = []
            entries.reserveCapacity(count)
            for _ in 0..<count {
                let tag = try r.u16(), type = try r.u16(), n = try r.u32()
                entries.append(Entry(tag: tag, type: type, count: n, field: try r.bytes(4)))
            }
            return entries
        }

        /// Up to `max` unsigned values of an entry (BYTE, SHORT, LONG or IFD), read where they lie.
        func values(_ entry: Entry, max: Int) throws(ProbeError) -> [Int] {
            let size: Int
            switch entry.type {
            case 1: size = 1
            case 3: size = 2
            case 4, 13: size = 4
            default: return []
            }
            let n = Int(min(entry.count, UInt32(max)))
            var r: ByteReader
            if size * Int(entry.count) <= 4 {
                r = ByteReader(entry.field, element: "TIFF tag " + Walker.name(entry.tag))
            } else {
                var field = ByteReader(entry.field)
                field.littleEndian = littleEndian
                let pointer = Int64(try field.u32())
                guard pointer + Int64(size * n) <= source.size else {
                    throw ProbeError(
                        .truncated, "the value lies past the end of the file", offset: pointer,
                        element: "TIFF tag " + Walker.name(entry.tag))
                }
                r = ByteReader(
                    try source.read(at: pointer, count: size * n), base: pointer,
                    element: "TIFF tag " + Walker.name(entry.tag))
            }
            r.littleEndian = littleEndian
            var list: [Int] = []
            for _ in 0..<n {
                switch size {
                case 1: list.append(Int(try r.u8()))
                case 2: list.append(Int(try r.u16()))
                default: list.append(Int(try r.u32()))
                }
            }
            return list
        }

        /// An image's values for `tag`, none when the tag is absent or its value cannot be read.
        func integers(_ image: Image, _ tag: UInt16, max: Int) -> [Int] {
            guard let entry = image.entries.first(where: { $0.tag == tag }) else { return [] }
            return (try? values(entry, max: max)) ?? []
        }

        func describe(_ image: inout Image) {
            image.width = integers(image, Tag.imageWidth, max: 1).first
            image.height = integers(image, Tag.imageLength, max: 1).first
            image.subfileType = integers(image, Tag.newSubfileType, max: 1).first ?? 0
        }

        /// The images in `image`'s SubIFDs (tag 0x014A), and theirs, to ``maxDepth``.
        func subImages(
            of image: Image, depth: Int, visited: inout Set<Int>, into images: inout [Image]
        ) throws(ProbeError) {
            guard depth <= TIFFProbe.maxDepth,
                let entry = image.entries.first(where: { $0.tag == Tag.subIFDs })
            else { return }
            guard visited.count - 1 + Int(entry.count) <= TIFFProbe.maxSubIFDs else {
                throw ProbeError(
                    .limitExceeded,
                    "an IFD lists \(entry.count) SubIFDs; Pickup reads at most \(TIFFProbe.maxSubIFDs) in a file",
                    element: "TIFF tag 0x014A")
            }
            for offset in try values(entry, max: TIFFProbe.maxSubIFDs) {
                guard visited.insert(offset).inserted else {
                    throw ProbeError(
                        .malformed, "a SubIFD points back to the IFD at offset \(offset), already read (a loop)",
                        offset: Int64(offset), element: "TIFF tag 0x014A")
                }
                var sub = Image(entries: try readIFD(at: offset))
                describe(&sub)
                images.append(sub)
                try subImages(of: sub, depth: depth + 1, visited: &visited, into: &images)
            }
        }

        /// Camera, time and place from IFD0 and its EXIF and GPS IFDs, read by ``EXIFMetadata``
        /// from one window of the file around them; nil when they cannot be read.
        func metadata(ifd0: Int, _ first: Image) -> EXIFMetadata? {
            let size = Int(clamping: source.size)
            let pointers = [EXIFMetadata.Tag.exifIFD, EXIFMetadata.Tag.gpsIFD].compactMap {
                integers(first, $0, max: 1).first
            }
            let wanted = [ifd0] + pointers.filter { $0 >= 8 && $0 < size }
            let margin = TIFFProbe.metadataMargin
            var low = max(0, (wanted.min() ?? ifd0) - margin)
            var high = min(size, (wanted.max() ?? ifd0) + margin)
            if high - low > limits.maxStructureBytes {  // far apart: IFD0's own facts, at least
                low = max(0, ifd0 - margin)
                high = min(size, ifd0 + margin)
            }
            high = min(high, low + limits.maxStructureBytes)
            guard low < high, let window = try? source.read(at: Int64(low), count: high - low) else { return nil }
            let reader = TIFFReader(
                bytes: window, littleEndian: littleEndian, origin: -low, limits: limits, fileBase: Int64(low))
            return try? EXIFMetadata.parse(reader, ifd0: ifd0)
        }

        static func name(_ tag: UInt16) -> String {
            let digits = String(tag, radix: 16, uppercase: true)
            return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
    }
}
