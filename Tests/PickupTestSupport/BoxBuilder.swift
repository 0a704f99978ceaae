/// Builds ISO BMFF boxes in code, for structures encoders do not write on
/// request: 64-bit sizes, version-1 headers, mirrored matrices, edit lists,
/// HEIF rotations and grids, hostile counts.
public enum BoxBuilder {
    /// A box; `largeSize` writes the 64-bit size form.
    public static func box(_ type: String, _ payload: [UInt8], largeSize: Bool = false) -> [UInt8] {
        var w = ByteWriter()
        if largeSize {
            w.u32(1)
            w.fourCC(type)
            w.u64(UInt64(16 + payload.count))
        } else {
            w.u32(UInt32(8 + payload.count))
            w.fourCC(type)
        }
        w.append(payload)
        return w.bytes
    }

    public static func box(_ type: String, children: [[UInt8]], largeSize: Bool = false) -> [UInt8] {
        box(type, children.flatMap { $0 }, largeSize: largeSize)
    }

    public static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        var w = ByteWriter()
        w.u8(version)
        w.u24(flags)
        w.append(payload)
        return box(type, w.bytes)
    }

    /// A `hdlr` full box naming the handler (`vide`, `pict`, `mdta`...) with an optional name.
    public static func hdlr(_ handler: String, name: String = "") -> [UInt8] {
        var w = ByteWriter()
        w.u32(0)
        w.fourCC(handler)
        w.zeros(12)
        w.ascii(name + "\0")
        return fullBox("hdlr", w.bytes)
    }

    public static func ftyp(_ major: String, _ compatible: [String] = ["isom"]) -> [UInt8] {
        var w = ByteWriter()
        w.ascii(major)
        w.u32(0x200)
        for brand in compatible { w.ascii(brand) }
        return box("ftyp", w.bytes)
    }

    /// What a one-track video movie should say.
    public struct MovieSpec {
        public var version: UInt8 = 0
        public var timescale: UInt32 = 1000
        public var movieDuration: UInt64 = 2000
        public var mediaTimescale: UInt32 = 12_800
        public var mediaDuration: UInt64 = 25_600
        public var sampleCount: UInt32 = 50
        public var width: UInt16 = 320
        public var height: UInt16 = 240
        /// a, b, c, d of the tkhd matrix in 16.16.
        public var matrix: (Int32, Int32, Int32, Int32) = (0x10000, 0, 0, 0x10000)
        /// Edit list segment durations in the movie timescale.
        public var edits: [UInt64] = []
        public var sampleEntry = "avc1"
        /// The visual sample entry's depth field (32 = with alpha, for ProRes 4444).
        public var depth: UInt16 = 24
        /// Seconds since 1904 for mvhd's creation time.
        public var creationTime: UInt64 = 0
        public var extraMoovChildren: [[UInt8]] = []
        public var largeSizes = false
        public init() {}
    }

    public static func moov(_ spec: MovieSpec) -> [UInt8] {
        let v1 = spec.version == 1
        var mvhd = ByteWriter()
        if v1 {
            mvhd.u64(spec.creationTime)
            mvhd.u64(spec.creationTime)
            mvhd.u32(spec.timescale)
            mvhd.u64(spec.movieDuration)
        } else {
            mvhd.u32(UInt32(spec.creationTime))
            mvhd.u32(UInt32(spec.creationTime))
            mvhd.u32(spec.timescale)
            mvhd.u32(UInt32(spec.movieDuration))
        }
        mvhd.u32(0x10000)
        mvhd.u16(0x100)
        mvhd.zeros(10)
        for value: Int32 in [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000] { mvhd.i32(value) }
        mvhd.zeros(24)
        mvhd.u32(2)

        var tkhd = ByteWriter()
        if v1 {
            tkhd.u64(0)
            tkhd.u64(0)
            tkhd.u32(1)
            tkhd.u32(0)
            tkhd.u64(spec.movieDuration)
        } else {
            tkhd.u32(0)
            tkhd.u32(0)
            tkhd.u32(1)
            tkhd.u32(0)
            tkhd.u32(UInt32(spec.movieDuration))
        }
        tkhd.zeros(8)
        tkhd.u16(0)
        tkhd.u16(0)
        tkhd.u16(0)
        tkhd.u16(0)
        let (a, b, c, d) = spec.matrix
        for value in [a, b, 0, c, d, 0, 0, 0, 0x4000_0000] { tkhd.i32(value) }
        tkhd.u32(UInt32(spec.width) << 16)
        tkhd.u32(UInt32(spec.height) << 16)

        var mdhd = ByteWriter()
        if v1 {
            mdhd.u64(0)
            mdhd.u64(0)
            mdhd.u32(spec.mediaTimescale)
            mdhd.u64(spec.mediaDuration)
        } else {
            mdhd.u32(0)
            mdhd.u32(0)
            mdhd.u32(spec.mediaTimescale)
            mdhd.u32(UInt32(spec.mediaDuration))
        }
        mdhd.u16(0x55C4)
        mdhd.u16(0)

        var entry = ByteWriter()
        entry.zeros(6)
        entry.u16(1)
        entry.zeros(16)
        entry.u16(spec.width)
        entry.u16(spec.height)
        entry.u32(0x48_0000)
        entry.u32(0x48_0000)
        entry.u32(0)
        entry.u16(1)
        entry.zeros(32)
        entry.u16(spec.depth)
        entry.u16(0xFFFF)
        var stsd = ByteWriter()
        stsd.u32(1)
        stsd.append(box(spec.sampleEntry, entry.bytes))

        var stsz = ByteWriter()
        stsz.u32(100)
        stsz.u32(spec.sampleCount)

        var trak: [[UInt8]] = [fullBox("tkhd", version: spec.version, flags: 3, tkhd.bytes)]
        if !spec.edits.isEmpty {
            var elst = ByteWriter()
            elst.u32(UInt32(spec.edits.count))
            for duration in spec.edits {
                if v1 {
                    elst.u64(duration)
                    elst.u64(0)
                } else {
                    elst.u32(UInt32(duration))
                    elst.u32(0)
                }
                elst.u32(0x10000)
            }
            trak.append(box("edts", fullBox("elst", version: spec.version, elst.bytes)))
        }
        let stbl = box("stbl", children: [fullBox("stsd", stsd.bytes), fullBox("stsz", stsz.bytes)])
        let minf = box("minf", stbl)
        let mdia = box(
            "mdia",
            children: [fullBox("mdhd", version: spec.version, mdhd.bytes), hdlr("vide", name: "VideoHandler"), minf])
        trak.append(mdia)
        let children =
            [fullBox("mvhd", version: spec.version, mvhd.bytes), box("trak", children: trak)]
            + spec.extraMoovChildren
        return box("moov", children: children, largeSize: spec.largeSizes)
    }

    /// A whole movie file: ftyp, then moov and mdat in either order.
    public static func movie(
        _ spec: MovieSpec, brand: String = "isom", moovFirst: Bool = true, mdatBytes: Int = 1000
    )
        -> [UInt8]
    {
        let mdat = box("mdat", [UInt8](repeating: 0xAB, count: mdatBytes), largeSize: spec.largeSizes)
        return ftyp(brand) + (moovFirst ? moov(spec) + mdat : mdat + moov(spec))
    }

    /// Apple's `moov/meta` with `mdta` keys and their UTF-8 values.
    public static func appleKeys(_ pairs: [(String, String)]) -> [UInt8] {
        var keys = ByteWriter()
        keys.u32(UInt32(pairs.count))
        for (key, _) in pairs {
            keys.u32(UInt32(8 + key.utf8.count))
            keys.ascii("mdta")
            keys.ascii(key)
        }
        var items: [[UInt8]] = []
        for (index, (_, value)) in pairs.enumerated() {
            var data = ByteWriter()
            data.u32(1)
            data.u32(0)
            data.ascii(value)
            var item = ByteWriter()
            item.append(box("data", data.bytes))
            var indexed = ByteWriter()
            indexed.u32(UInt32(8 + item.bytes.count))
            indexed.u32(UInt32(index + 1))
            indexed.append(item.bytes)
            items.append(indexed.bytes)
        }
        return box(
            "meta", children: [hdlr("mdta"), fullBox("keys", keys.bytes), box("ilst", children: items)])
    }
}
