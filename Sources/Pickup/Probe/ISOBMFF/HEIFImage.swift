/// The primary image of a HEIF or AVIF file, read from its `meta` box:
/// item types (`iinf`), locations (`iloc`), properties (`iprp`) and
/// references (`iref`).
struct HEIFImage {
    var codec: String?
    var width: Int?
    var height: Int?
    var orientation = Orientation.upright
    var bitDepth: Int?
    var transfer: Int?
    var alpha = false
    var hasDepth = false
    /// The EXIF block (TIFF header first) that describes the primary image.
    var exif: [UInt8]?

    private struct Item {
        var type: FourCC = "    "
        /// A 'mime' item's content type.
        var contentType = ""
        var properties: [Int] = []
        var extents: [(offset: UInt64, length: UInt64)] = []
        var constructionMethod = 0
    }

    /// An EXIF or XMP item, and where its bytes lie in the file.
    struct MetadataItem {
        let id: UInt32
        let isXMP: Bool
        /// Absolute byte range; nil when the item is not one run of bytes in the
        /// file or in 'idat' (several extents, or built from other items).
        let range: Range<Int64>?
    }

    /// The file's EXIF and XMP items, wherever they describe.
    static func metadataItems(_ meta: Box, reader: BoxReader) throws(ProbeError) -> [MetadataItem] {
        let boxes = try reader.children(of: meta, skip: 4)
        var items: [UInt32: Item] = [:]
        if let iinf = boxes.first("iinf") { try readItemInfo(iinf, reader: reader, into: &items) }
        if let iloc = boxes.first("iloc") { try readItemLocations(try reader.payload(of: iloc), into: &items) }
        let idat = boxes.first("idat")
        var found: [MetadataItem] = []
        for (id, item) in items.sorted(by: { $0.key < $1.key }) {
            let isXMP = item.type == "mime" && item.contentType == "application/rdf+xml"
            guard item.type == "Exif" || isXMP else { continue }
            var range: Range<Int64>?
            if item.extents.count == 1, let extent = item.extents.first {
                var base: UInt64 = 0
                var end = UInt64(reader.source.size)
                if item.constructionMethod == 1, let idat {
                    base = UInt64(idat.payloadOffset)
                    end = UInt64(idat.end)
                }
                let (start, overflow) = base.addingReportingOverflow(extent.offset)
                if item.constructionMethod <= 1, item.constructionMethod == 0 || idat != nil, !overflow, start <= end {
                    let length = extent.length == 0 ? end - start : extent.length
                    if length <= end - start { range = Int64(start)..<Int64(start + length) }
                }
            }
            found.append(MetadataItem(id: id, isXMP: isXMP, range: range))
        }
        return found
    }

    private struct Property {
        var type: FourCC
        var body: ByteReader
    }

    static func parse(_ meta: Box, reader: BoxReader) throws(ProbeError) -> HEIFImage? {
        let boxes = try reader.children(of: meta, skip: 4)
        guard let pitm = boxes.first("pitm") else { return nil }
        var image = HEIFImage()
        var r = try reader.payload(of: pitm)
        let pitmVersion = try r.u8()
        try r.skip(3)
        let primary = pitmVersion == 0 ? UInt32(try r.u16()) : try r.u32()

        var items: [UInt32: Item] = [:]
        if let iinf = boxes.first("iinf") { try readItemInfo(iinf, reader: reader, into: &items) }
        if let iloc = boxes.first("iloc") { try readItemLocations(try reader.payload(of: iloc), into: &items) }
        var properties: [Property] = []
        if let iprp = boxes.first("iprp") { try readProperties(iprp, reader: reader, into: &properties, items: &items) }
        var references: [(type: FourCC, from: UInt32, to: [UInt32])] = []
        if let iref = boxes.first("iref") { references = try readReferences(try reader.payload(of: iref)) }

        guard let item = items[primary] else {
            throw ProbeError(
                .malformed, "the primary item \(primary) is not listed in 'iinf'", offset: pitm.offset,
                element: "box 'pitm'")
        }
        image.codec = codecName(item.type)
        if item.type == "grid" || item.type == "iovl" {
            // A grid is made of tiles ('dimg' references): its codec is theirs.
            if let tile = references.first(where: { $0.type == "dimg" && $0.from == primary })?.to.first,
                let tileItem = items[tile]
            {
                image.codec = codecName(tileItem.type)
                if image.bitDepth == nil {
                    image.apply(properties: tileItem.properties, from: properties, sizes: false)
                }
            }
        }
        image.apply(properties: item.properties, from: properties, sizes: true)
        if image.width == nil, item.type == "grid" {
            let data = try itemData(item, id: primary, reader: reader, idat: boxes.first("idat"), limit: 64)
            var g = ByteReader(data, element: "item \(primary) (grid)")
            try g.skip(1)
            let wide = try g.u8() & 1 == 1
            try g.skip(2)
            image.width = Int(wide ? try g.u32() : UInt32(try g.u16()))
            image.height = Int(wide ? try g.u32() : UInt32(try g.u16()))
        }
        // Alpha: an auxiliary image ('auxl') of the primary whose auxC names alpha.
        for reference in references where reference.type == "auxl" && reference.to.contains(primary) {
            guard let aux = items[reference.from] else { continue }
            for index in aux.properties where index >= 1 && index <= properties.count {
                let property = properties[index - 1]
                guard property.type == "auxC" else { continue }
                var body = property.body
                try body.skip(4)
                let auxiliary = body.cString(limit: 256)
                if alphaTypes.contains(auxiliary) { image.alpha = true }
                if depthTypes.contains(auxiliary) || auxiliary.contains("depth") { image.hasDepth = true }
            }
        }
        // EXIF: an 'Exif' item describing ('cdsc') the primary item, else any 'Exif' item.
        let described = references.filter { $0.type == "cdsc" && $0.to.contains(primary) }.map(\.from)
        let exifID =
            described.first { items[$0]?.type == "Exif" }
            ?? items.filter { $0.value.type == "Exif" }.keys.min()
        if let exifID, let exifItem = items[exifID] {
            let data = try itemData(
                exifItem, id: exifID, reader: reader, idat: boxes.first("idat"), limit: reader.limits.maxStructureBytes)
            image.exif = tiffStart(ofExifItem: data)
        }
        return image
    }

    private mutating func apply(properties indices: [Int], from properties: [Property], sizes: Bool) {
        for index in indices where index >= 1 && index <= properties.count {
            var body = properties[index - 1].body
            switch properties[index - 1].type {
            case "ispe" where sizes:
                guard (try? body.skip(4)) != nil, let w = try? body.u32(), let h = try? body.u32() else { continue }
                width = Int(w)
                height = Int(h)
            case "irot" where sizes:
                guard let angle = try? body.u8() else { continue }
                // irot turns anticlockwise in quarter turns; Pickup counts clockwise.
                let clockwise = Rotation(rawValue: (4 - Int(angle & 3)) % 4 * 90) ?? .none
                orientation.rotation = orientation.rotation.adding(clockwise)
            case "imir" where sizes:
                guard let axis = try? body.u8() else { continue }
                // Transforms apply in 'ipma' order. A left-right flip after a turn r equals
                // the flip first, then a turn of -r. Axis 1 (top to bottom) is that flip plus 180.
                let undone = Rotation(rawValue: (360 - orientation.rotation.degrees) % 360) ?? .none
                orientation = Orientation(
                    rotation: axis & 1 == 1 ? undone.adding(.upsideDown) : undone, mirrored: !orientation.mirrored)
            case "pixi":
                guard (try? body.skip(4)) != nil, let channels = try? body.u8(), channels > 0,
                    let depth = try? body.u8()
                else { continue }
                bitDepth = Int(depth)
            case "hvcC":
                guard bitDepth == nil, (try? body.skip(17)) != nil, let depth = try? body.u8() else { continue }
                bitDepth = Int(depth & 7) + 8
            case "av1C":
                guard bitDepth == nil, (try? body.skip(2)) != nil, let flags = try? body.u8() else { continue }
                bitDepth = flags & 0x40 == 0 ? 8 : (flags & 0x20 == 0 ? 10 : 12)
            case "colr":
                guard let kind = try? body.fourCC(), kind == "nclx", (try? body.skip(2)) != nil,
                    let code = try? body.u16()
                else { continue }
                transfer = Int(code)
            default: break
            }
        }
    }

    /// Auxiliary image types that mean "alpha plane" (HEVC's and MPEG-B's spellings).
    static let alphaTypes: Set<String> = [
        "urn:mpeg:hevc:2015:auxid:1", "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha",
        "urn:mpeg:avc:2015:auxid:1",
    ]

    /// Auxiliary image types for depth maps and portrait mattes.
    static let depthTypes: Set<String> = [
        "urn:mpeg:hevc:2015:auxid:2", "urn:mpeg:mpegB:cicp:systems:auxiliary:depth",
        "urn:com:apple:photo:2018:aux:portraiteffectsmatte",
    ]

    static func codecName(_ type: FourCC) -> String? {
        switch type {
        case "hvc1", "hev1": return "hevc"
        case "av01": return "av1"
        case "jpeg": return "jpeg"
        case "avc1": return "h264"
        case "vvc1": return "vvc"
        default: return nil
        }
    }

    private static func readItemInfo(
        _ iinf: Box, reader: BoxReader, into items: inout [UInt32: Item]
    ) throws(ProbeError) {
        var header = try reader.prefix(of: iinf, count: 8)
        let version = try header.u8()
        let skip = version == 0 ? 6 : 8
        for infe in try reader.children(of: iinf, skip: skip) where infe.type == "infe" {
            var r = try reader.prefix(of: infe, count: 16)
            let infeVersion = try r.u8()
            try r.skip(3)
            guard infeVersion >= 2 else { continue }
            let id = infeVersion == 2 ? UInt32(try r.u16()) : try r.u32()
            try r.skip(2)
            let type = try r.fourCC()
            items[id, default: Item()].type = type
            if type == "mime" {
                // item_name, then content_type: two C strings after the 4CC.
                var strings = try reader.prefix(of: infe, count: 512)
                try strings.skip(infeVersion == 2 ? 12 : 14)
                _ = strings.cString(limit: 256)
                items[id, default: Item()].contentType = strings.cString(limit: 128)
            }
        }
    }

    private static func readItemLocations(_ payload: ByteReader, into items: inout [UInt32: Item]) throws(ProbeError) {
        var r = payload
        let version = try r.u8()
        try r.skip(3)
        let sizes = try r.u8()
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0xF)
        let more = try r.u8()
        let baseOffsetSize = Int(more >> 4), indexSize = version >= 1 ? Int(more & 0xF) : 0
        let count = version < 2 ? Int(try r.u16()) : Int(try r.u32())
        guard count <= r.remaining / 4 else {
            throw r.error(.malformed, "'iloc' claims \(count) items but holds room for far fewer")
        }
        for _ in 0..<count {
            let id = version < 2 ? UInt32(try r.u16()) : try r.u32()
            var method = 0
            if version >= 1 { method = Int(try r.u16() & 0xF) }
            try r.skip(2)
            let base = try r.uint(size: baseOffsetSize)
            let extentCount = Int(try r.u16())
            let extentSize = indexSize + offsetSize + lengthSize
            guard extentSize == 0 || extentCount <= r.remaining / extentSize else {
                throw r.error(.malformed, "'iloc' item \(id) claims \(extentCount) extents that do not fit")
            }
            var extents: [(offset: UInt64, length: UInt64)] = []
            for _ in 0..<extentCount {
                _ = try r.uint(size: indexSize)
                let offset = try r.uint(size: offsetSize)
                let length = try r.uint(size: lengthSize)
                let (sum, overflow) = base.addingReportingOverflow(offset)
                guard !overflow else { throw r.error(.malformed, "'iloc' offset overflows") }
                extents.append((sum, length))
            }
            items[id, default: Item()].extents = extents
            items[id, default: Item()].constructionMethod = method
        }
    }

    private static func readProperties(
        _ iprp: Box, reader: BoxReader, into properties: inout [Property], items: inout [UInt32: Item]
    ) throws(ProbeError) {
        let boxes = try reader.children(of: iprp)
        if let ipco = boxes.first("ipco") {
            for property in try reader.children(of: ipco) {
                // Properties are small; large ones (ICC profiles) are kept as their first bytes.
                properties.append(Property(type: property.type, body: try reader.prefix(of: property, count: 256)))
            }
        }
        for ipma in boxes.all("ipma") {
            var r = try reader.payload(of: ipma)
            let version = try r.u8()
            let flags = try r.u24()
            let count = Int(try r.u32())
            guard count <= r.remaining / 3 else {
                throw r.error(.malformed, "'ipma' claims \(count) entries but holds room for far fewer")
            }
            for _ in 0..<count {
                let id = version < 1 ? UInt32(try r.u16()) : try r.u32()
                let associations = Int(try r.u8())
                for _ in 0..<associations {
                    let index = flags & 1 == 1 ? Int(try r.u16() & 0x7FFF) : Int(try r.u8() & 0x7F)
                    items[id, default: Item()].properties.append(index)
                }
            }
        }
    }

    private static func readReferences(
        _ payload: ByteReader
    ) throws(ProbeError) -> [(
        type: FourCC, from: UInt32, to: [UInt32]
    )] {
        var r = payload
        let version = try r.u8()
        try r.skip(3)
        var references: [(type: FourCC, from: UInt32, to: [UInt32])] = []
        while r.remaining >= 8 {
            let start = r.position
            let size = Int(try r.u32())
            let type = try r.fourCC()
            guard size >= 8, size - 8 <= r.remaining else {
                throw r.error(.malformed, "a reference box of \(size) bytes does not fit in 'iref'")
            }
            let from = version == 0 ? UInt32(try r.u16()) : try r.u32()
            let count = Int(try r.u16())
            var to: [UInt32] = []
            for _ in 0..<count where r.position < start + size {
                to.append(version == 0 ? UInt32(try r.u16()) : try r.u32())
            }
            references.append((type, from, to))
            try r.seek(to: start + size)
        }
        return references
    }

    private static func itemData(
        _ item: Item, id: UInt32, reader: BoxReader, idat: Box?, limit: Int
    ) throws(ProbeError)
        -> [UInt8]
    {
        var data: [UInt8] = []
        for extent in item.extents {
            var start = extent.offset
            let end: UInt64
            switch item.constructionMethod {
            case 0: end = UInt64(reader.source.size)
            case 1:
                guard let idat else {
                    throw ProbeError(
                        .malformed, "item \(id) lives in 'idat' but the file has none", element: "box 'iloc'")
                }
                start = start &+ UInt64(idat.payloadOffset)
                end = UInt64(idat.end)
            default:
                throw ProbeError(
                    .malformed,
                    "item \(id) uses construction method \(item.constructionMethod), which Pickup does not read",
                    element: "box 'iloc'")
            }
            let length = extent.length == 0 ? end &- start : extent.length
            guard start <= end, length <= end - start else {
                throw ProbeError(
                    .truncated, "item \(id) lies at bytes \(start)+\(length), past the end at \(end)",
                    element: "box 'iloc'")
            }
            let wanted = min(Int(clamping: length), limit - data.count)
            guard wanted > 0 else { break }
            data += try reader.source.read(at: Int64(start), count: wanted)
        }
        return data
    }

    private static func tiffStart(ofExifItem data: [UInt8]) -> [UInt8]? {
        tiffOffset(ofExifItem: data).map { Array(data[$0...]) }
    }

    /// Where the TIFF header of an EXIF item is: the item starts with a 32-bit offset to it.
    static func tiffOffset(ofExifItem data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        let skip = Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3])
        let start = 4 + skip
        if start + 8 <= data.count, TIFFReader.isHeader(data, at: start) { return start }
        // Some writers get the offset wrong: look for the header nearby.
        for candidate in stride(from: 4, to: min(data.count - 4, 64), by: 1)
        where TIFFReader.isHeader(data, at: candidate) {
            return candidate
        }
        return nil
    }
}
