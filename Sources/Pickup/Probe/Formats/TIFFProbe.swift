/// Probes TIFF and DNG (Adobe's raw format, a TIFF; iPhone ProRAW and RAW
/// photos arrive as DNG), and the cameras' raw formats built on TIFF (Canon CR2,
/// Nikon NEF, Sony ARW, Pentax PEF, Olympus ORF, Panasonic RW2): finds the
/// full-resolution image among IFD0 and its SubIFDs, and hands IFD0 with its EXIF
/// and GPS IFDs to ``EXIFMetadata``.
///
/// Only IFDs are read, never image data. Each IFD's offset and entry count is
/// checked against the file before it is read; SubIFDs are bounded in number
/// and depth, and an IFD met twice (a loop) is an error.
enum TIFFProbe {
    enum Tag {
        static let newSubfileType: UInt16 = 0x00FE, imageWidth: UInt16 = 0x0100, imageLength: UInt16 = 0x0101
        static let bitsPerSample: UInt16 = 0x0102, orientation: UInt16 = 0x0112, subIFDs: UInt16 = 0x014A
        static let extraSamples: UInt16 = 0x0152, dngVersion: UInt16 = 0xC612
        static let compression: UInt16 = 0x0103, photometric: UInt16 = 0x0106
        /// Panasonic RW2's IFD0: the sensor's size, and the borders of the image on it.
        static let sensorWidth: UInt16 = 0x0002, sensorHeight: UInt16 = 0x0003
        static let sensorTop: UInt16 = 0x0004, sensorLeft: UInt16 = 0x0005
        static let sensorBottom: UInt16 = 0x0006, sensorRight: UInt16 = 0x0007
        /// Where an image's data lies, and a JPEG's (TIFF 6.0's JPEGInterchangeFormat and its length).
        static let stripOffsets: UInt16 = 0x0111, stripByteCounts: UInt16 = 0x0117
        static let jpegOffset: UInt16 = 0x0201, jpegLength: UInt16 = 0x0202
        /// Panasonic RW2's full-size JPEG (JpgFromRaw): its length is the count, its offset the value.
        static let panasonicJPEG: UInt16 = 0x002E
    }

    /// The header's magic number: TIFF's 42, BigTIFF's 43, or a camera's own.
    enum Magic {
        static let tiff: UInt16 = 42, bigTIFF: UInt16 = 43
        /// Olympus ORF ("RO", and "RS" of some models) and Panasonic RW2 (85).
        static let olympus: UInt16 = 0x4F52, olympusS: UInt16 = 0x5352, panasonic: UInt16 = 0x0055
    }

    /// A sensor's raw data: the colour filter array (TIFF/EP's PhotometricInterpretation 32803)
    /// or a camera's own compression of it (Nikon 34713, Sony 32767, Pentax 65535).
    static let rawPhotometric: Set<Int> = [32803]
    static let rawCompressions: Set<Int> = [34713, 32767, 65535]

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
        /// Whether it holds a sensor's raw data (``TIFFProbe/rawPhotometric``, ``TIFFProbe/rawCompressions``).
        var isRaw = false
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
        if magic == Magic.bigTIFF {
            throw ProbeError(
                .unrecognized, "this is a BigTIFF file (64-bit offsets), which Pickup does not read", offset: 2,
                element: "TIFF header")
        }
        let ifd0 = Int(try header.u32())
        // Canon's CR2 says so after the header: "CR", then its version.
        let mark = try source.readUpTo(at: 8, count: 2)
        let canon = magic == Magic.tiff && mark == Array("CR".utf8)
        let walker = Walker(source: source, littleEndian: littleEndian, limits: limits)
        var first = Image(entries: try walker.readIFD(at: ifd0))
        walker.describe(&first)
        let isDNG = first.entries.contains { $0.tag == Tag.dngVersion }
        var images = [first]
        var visited: Set<Int> = [ifd0]
        try walker.subImages(of: first, depth: 1, visited: &visited, into: &images)

        let exif = walker.metadata(ifd0: ifd0, first)
        let container: Container
        switch magic {
        case Magic.olympus, Magic.olympusS: container = .orf
        case Magic.panasonic: container = .rw2
        default:
            container =
                isDNG
                ? .dng
                : TIFFProbe.rawContainer(
                    make: exif?.make, canon: canon, raw: images.contains(where: \.isRaw)) ?? .tiff
        }
        var info = MediaInfo(kind: .image, container: container, fileSize: source.size)
        info.imageCodec = container.isCameraRaw ? container.rawValue : "tiff"
        // The full-resolution image: the largest whose NewSubfileType is 0 (IFD0 in a plain
        // TIFF; in a DNG, often a SubIFD behind a small IFD0 preview).
        let main = images.filter { $0.subfileType == 0 && $0.area > 0 }.max { $0.area < $1.area } ?? first
        if let width = main.width, let height = main.height, width > 0, height > 0 {
            info.width = width
            info.height = height
        } else if container == .rw2, let (width, height) = walker.panasonicSize(first) {
            info.width = width
            info.height = height
        } else if !container.isCameraRaw {
            // A camera's raw photo is taken without its size (nothing here decodes it anyway).
            throw ProbeError(
                .malformed, "IFD0 gives no ImageWidth and ImageLength", offset: Int64(ifd0), element: "TIFF IFD0")
        }
        if let depth = walker.integers(main, Tag.bitsPerSample, max: 1).first, depth > 0 { info.bitDepth = depth }
        info.alpha = walker.integers(main, Tag.extraSamples, max: 8).contains { $0 == 1 || $0 == 2 }
        info.exifOrientation = 1
        if let value = walker.integers(first, Tag.orientation, max: 1).first, (1...8).contains(value) {
            info.exifOrientation = value
        }
        if let exif { exif.fill(&info) }
        info.orientation = Orientation(exifValue: info.exifOrientation ?? 1) ?? .upright
        if container.isCameraRaw {
            info.preview = walker.largestJPEG(in: images).filter { $0.fits(in: source.size) }.max {
                $0.length < $1.length
            }
        }
        return info
    }

    /// The raw format a TIFF is, by its camera's make: a CR2 by Canon's mark, the others by an
    /// image of the sensor's raw data. Nil for a plain TIFF (a scan, an export).
    static func rawContainer(make: String?, canon: Bool, raw: Bool) -> Container? {
        if canon { return .cr2 }
        guard raw, let make = make?.uppercased() else { return nil }
        if make.hasPrefix("NIKON") { return .nef }
        if make.hasPrefix("SONY") { return .arw }
        if make.hasPrefix("PENTAX") || make.hasPrefix("RICOH") || make.hasPrefix("ASAHI") { return .pef }
        return nil
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
            image.isRaw =
                integers(image, Tag.photometric, max: 1).first.map(TIFFProbe.rawPhotometric.contains) == true
                || integers(image, Tag.compression, max: 1).first.map(TIFFProbe.rawCompressions.contains) == true
        }

        /// The JPEGs the images carry, a raw file's previews: each image's JPEGInterchangeFormat, a
        /// JPEG-compressed image of one strip (Canon's CR2 keeps its full-size preview so), and
        /// Panasonic's JpgFromRaw. Their bytes are checked by whatever decodes them.
        func largestJPEG(in images: [Image]) -> [ByteRange] {
            var found: [ByteRange] = []
            for image in images {
                if let offset = integers(image, Tag.jpegOffset, max: 1).first,
                    let length = integers(image, Tag.jpegLength, max: 1).first
                {
                    found.append(ByteRange(offset: Int64(offset), length: Int64(length)))
                }
                let strips = integers(image, Tag.stripOffsets, max: 2)
                let counts = integers(image, Tag.stripByteCounts, max: 2)
                if integers(image, Tag.compression, max: 1).first == 6, strips.count == 1, counts.count == 1 {
                    found.append(ByteRange(offset: Int64(strips[0]), length: Int64(counts[0])))
                }
                if let entry = image.entries.first(where: { $0.tag == Tag.panasonicJPEG && $0.type == 7 }) {
                    var field = ByteReader(entry.field)
                    field.littleEndian = littleEndian
                    if let offset = try? field.u32() {
                        found.append(ByteRange(offset: Int64(offset), length: Int64(entry.count)))
                    }
                }
            }
            return found
        }

        /// A Panasonic RW2's picture size, from its IFD0: the borders of the image on the
        /// sensor, else the sensor's size.
        func panasonicSize(_ ifd0: Image) -> (Int, Int)? {
            func value(_ tag: UInt16) -> Int? { integers(ifd0, tag, max: 1).first }
            if let top = value(Tag.sensorTop), let left = value(Tag.sensorLeft), let bottom = value(Tag.sensorBottom),
                let right = value(Tag.sensorRight), right > left, bottom > top
            {
                return (right - left, bottom - top)
            }
            guard let width = value(Tag.sensorWidth), let height = value(Tag.sensorHeight), width > 0, height > 0
            else { return nil }
            return (width, height)
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
