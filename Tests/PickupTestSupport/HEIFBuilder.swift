/// Builds a HEIF still in code: a primary item (coded or grid) with `ispe`,
/// optional `irot`/`imir`, and an optional EXIF item.
public struct HEIFBuilder {
    public var width: UInt32 = 4032
    public var height: UInt32 = 3024
    /// `irot` angle in quarter turns anticlockwise, or nil for none.
    public var irot: UInt8?
    /// `imir` axis (0: left-right flip, 1: top-bottom), or nil for none.
    public var imir: UInt8?
    /// Put `imir` before `irot` in the association list.
    public var mirrorFirst = false
    /// A grid primary item of 2x2 tiles, its size in `idat` and no `ispe`.
    public var grid = false
    /// A TIFF block for an `Exif` item.
    public var exif: [UInt8]?
    public var brand = "heic"

    public init() {}

    public func build() -> [UInt8] {
        typealias B = BoxBuilder
        var infes: [[UInt8]] = []
        func infe(_ id: UInt16, _ type: String) -> [UInt8] {
            var w = ByteWriter()
            w.u16(id)
            w.u16(0)
            w.ascii(type)
            w.ascii("\0")
            return B.fullBox("infe", version: 2, w.bytes)
        }
        infes.append(infe(1, grid ? "grid" : "hvc1"))
        if grid { for tile in 2...5 { infes.append(infe(UInt16(tile), "hvc1")) } }
        if exif != nil { infes.append(infe(10, "Exif")) }
        var iinf = ByteWriter()
        iinf.u16(UInt16(infes.count))
        for item in infes { iinf.append(item) }

        // Properties: 1 hvcC, 2 ispe (full size), 3 ispe (tile), 4 irot, 5 imir.
        var hvcC = ByteWriter()
        hvcC.u8(1)
        hvcC.zeros(16)
        hvcC.u8(0xF8 | 2)  // 10-bit luma
        hvcC.u8(0xF8 | 2)
        hvcC.zeros(4)
        var ispe = ByteWriter()
        ispe.u32(width)
        ispe.u32(height)
        var tile = ByteWriter()
        tile.u32(width / 2)
        tile.u32(height / 2)
        let ipco = B.box(
            "ipco",
            children: [
                B.box("hvcC", hvcC.bytes), B.fullBox("ispe", ispe.bytes), B.fullBox("ispe", tile.bytes),
                B.box("irot", [irot ?? 0]), B.box("imir", [imir ?? 0]),
            ])
        var primary: [UInt8] = []
        if !grid { primary += [0x81, 0x02] }  // essential hvcC, ispe
        var transforms: [UInt8] = []
        if irot != nil { transforms.append(0x84) }
        if imir != nil { transforms.append(0x85) }
        if mirrorFirst { transforms.reverse() }
        primary += transforms
        var ipma = ByteWriter()
        ipma.u32(grid ? 5 : 1)
        ipma.u16(1)
        ipma.u8(UInt8(primary.count))
        ipma.append(primary)
        if grid {
            for id in 2...5 {
                ipma.u16(UInt16(id))
                ipma.u8(2)
                ipma.append([0x81, 0x03])
            }
        }
        let iprp = B.box("iprp", children: [ipco, B.fullBox("ipma", ipma.bytes)])

        var iref = ByteWriter()
        if grid {
            iref.u32(8 + 2 + 2 + 8)
            iref.ascii("dimg")
            iref.u16(1)
            iref.u16(4)
            for id in 2...5 { iref.u16(UInt16(id)) }
        }
        if exif != nil {
            iref.u32(8 + 2 + 2 + 2)
            iref.ascii("cdsc")
            iref.u16(10)
            iref.u16(1)
            iref.u16(1)
        }

        var gridData = ByteWriter()
        gridData.u8(0)
        gridData.u8(1)  // 32-bit sizes
        gridData.u8(1)
        gridData.u8(1)
        gridData.u32(width)
        gridData.u32(height)

        var exifItem = ByteWriter()
        if let exif {
            exifItem.u32(6)
            exifItem.ascii("Exif\0\0")
            exifItem.append(exif)
        }

        var pitm = ByteWriter()
        pitm.u16(1)

        // iloc is written last, once the mdat offset is known.
        func iloc(mdatPayload: UInt32) -> [UInt8] {
            var w = ByteWriter()
            w.u8(0x44)  // 4-byte offsets and lengths
            w.u8(0x00)
            var entries: [(UInt16, UInt16, UInt32, UInt32)] = []  // id, method, offset, length
            if grid { entries.append((1, 1, 0, UInt32(gridData.bytes.count))) }
            if exif != nil { entries.append((10, 0, mdatPayload, UInt32(exifItem.bytes.count))) }
            w.u16(UInt16(entries.count))
            for (id, method, offset, length) in entries {
                w.u16(id)
                w.u16(method)
                w.u16(0)
                w.u16(1)
                w.u32(offset)
                w.u32(length)
            }
            return B.fullBox("iloc", version: 1, w.bytes)
        }
        func meta(_ mdatPayload: UInt32) -> [UInt8] {
            var children = [
                B.hdlr("pict"), B.fullBox("pitm", pitm.bytes), B.fullBox("iinf", iinf.bytes), iprp,
                iloc(mdatPayload: mdatPayload),
            ]
            if !iref.bytes.isEmpty { children.append(B.fullBox("iref", iref.bytes)) }
            if grid { children.append(B.box("idat", gridData.bytes)) }
            return B.fullBox("meta", children.flatMap { $0 })
        }
        let head = B.ftyp(brand, ["mif1", brand])
        let firstMeta = meta(0)
        let payloadOffset = UInt32(head.count + firstMeta.count + 8)
        return head + meta(payloadOffset) + B.box("mdat", exifItem.bytes + [UInt8](repeating: 0, count: 16))
    }
}
