/// What one `trak` box says: handler, codec, sizes, timing, transform.
struct Track {
    enum Handler { case video, audio, picture, other }

    var id: UInt32 = 0
    var handler: Handler = .other
    /// Sample entry type (`avc1`, `hvc1`, `mp4a`...).
    var sampleEntry: FourCC?
    var codec: String?
    var width = 0
    var height = 0
    /// The tkhd matrix's a, b, c, d (16.16 fixed point).
    var matrix: (a: Int32, b: Int32, c: Int32, d: Int32) = (0x10000, 0, 0, 0x10000)
    var timescale: UInt32 = 0
    /// Media duration in `timescale` units (mdhd).
    var mediaDuration: UInt64 = 0
    var sampleCount: UInt64 = 0
    /// Sum of the edit list's segment durations in the movie's timescale, if it has one.
    var editedDuration: UInt64?
    var bitDepth: Int?
    var transfer: Int?
    var channels: Int?
    var sampleRate: Int?
    var hasAlpha = false

    var isVisual: Bool { handler == .video || handler == .picture }

    /// Rotation and mirroring from the matrix, clockwise as DESIGN.md counts it.
    var orientation: Orientation {
        let (a, b, c, d) = (Double(matrix.a), Double(matrix.b), Double(matrix.c), Double(matrix.d))
        let mirrored = a * d - b * c < 0
        // With a mirror, the flip (x -> -x) comes first: undo it on the first column.
        let angle = mirrored ? atan2Degrees(-b, -a) : atan2Degrees(b, a)
        return Orientation(rotation: Rotation(nearestDegrees: angle), mirrored: mirrored)
    }

    var mediaSeconds: Double? {
        guard timescale > 0, mediaDuration > 0 else { return nil }
        return Double(mediaDuration) / Double(timescale)
    }
}

func atan2Degrees(_ y: Double, _ x: Double) -> Double {
    // Only multiples of 90 degrees matter here; avoid pulling in libm for atan2.
    if x == 0 && y == 0 { return 0 }
    if abs(x) >= abs(y) { return x > 0 ? 0 : 180 }
    return y > 0 ? 90 : 270
}

extension Track {
    /// Reads a `trak` box.
    static func parse(_ trak: Box, reader: BoxReader) throws(ProbeError) -> Track {
        var track = Track()
        let children = try reader.children(of: trak)
        if let tkhd = children.first("tkhd") { try track.readTrackHeader(try reader.payload(of: tkhd)) }
        if let edts = children.first("edts"), let elst = try reader.children(of: edts).first("elst") {
            track.editedDuration = try readEditList(try reader.payload(of: elst))
        }
        guard let mdia = children.first("mdia") else { return track }
        let media = try reader.children(of: mdia)
        if let mdhd = media.first("mdhd") { try track.readMediaHeader(try reader.payload(of: mdhd)) }
        if let hdlr = media.first("hdlr") {
            var payload = try reader.prefix(of: hdlr, count: 12)
            try payload.skip(8)
            switch try payload.fourCC() {
            case "vide": track.handler = .video
            case "soun": track.handler = .audio
            case "pict": track.handler = .picture
            default: track.handler = .other
            }
        }
        guard let minf = media.first("minf"),
            let stbl = try reader.children(of: minf).first("stbl")
        else { return track }
        let table = try reader.children(of: stbl)
        if let stsd = table.first("stsd") { try track.readSampleDescription(stsd, reader: reader) }
        if let stsz = table.first("stsz") ?? table.first("stz2") {
            var payload = try reader.prefix(of: stsz, count: 12)
            try payload.skip(8)
            track.sampleCount = UInt64(try payload.u32())
        }
        return track
    }

    private mutating func readTrackHeader(_ payload: ByteReader) throws(ProbeError) {
        var r = payload
        let header = try TimedHeader(&r)
        id = header.field
        try r.skip(4)
        _ = try header.duration(&r)
        try r.skip(8 + 2 + 2 + 2 + 2)
        let a = try r.i32(), b = try r.i32()
        try r.skip(4)
        let c = try r.i32(), d = try r.i32()
        matrix = (a, b, c, d)
    }

    private mutating func readMediaHeader(_ payload: ByteReader) throws(ProbeError) {
        var r = payload
        let header = try TimedHeader(&r)
        timescale = header.field
        mediaDuration = try header.duration(&r)
    }

    /// The presentation length an edit list gives, in the movie's timescale.
    private static func readEditList(_ payload: ByteReader) throws(ProbeError) -> UInt64? {
        var r = payload
        let version = try r.u8()
        try r.skip(3)
        let count = Int(try r.u32())
        let entrySize = version == 1 ? 20 : 12
        guard count <= r.remaining / entrySize else {
            throw r.error(.malformed, "edit list claims \(count) entries but holds room for \(r.remaining / entrySize)")
        }
        var total: UInt64 = 0
        for _ in 0..<count {
            let duration = version == 1 ? try r.u64() : UInt64(try r.u32())
            try r.skip(version == 1 ? 8 + 4 : 4 + 4)
            total = total.addingReportingOverflow(duration).partialValue
        }
        return count > 0 && total > 0 ? total : nil
    }

    private mutating func readSampleDescription(_ stsd: Box, reader: BoxReader) throws(ProbeError) {
        let entries = try reader.children(of: stsd, skip: 8)
        guard let entry = entries.first else { return }
        sampleEntry = entry.type
        codec = SampleEntry.codecName(entry.type)
        // QuickTime's `raw ` is uncompressed either way: ffprobe says rawvideo for a picture, and
        // pcm_u8 for sound (8-bit unsigned samples, the only kind `raw ` audio holds).
        if entry.type == "raw " { codec = isVisual ? "rawvideo" : "pcm_u8" }
        // Only the fixed part of the entry and its small configuration boxes are read.
        var r = try reader.prefix(of: entry, count: 4096)
        if isVisual || SampleEntry.isVisual(entry.type) {
            try r.skip(24)
            width = Int(try r.u16())
            height = Int(try r.u16())
            try r.skip(46)  // resolutions, reserved, frame count, compressor name
            let depth = Int(try r.u16())
            try r.skip(2)
            if depth == 32 { hasAlpha = SampleEntry.depthMeansAlpha(entry.type) }
            try SampleEntry.readVisualExtensions(&self, from: r.rest(), base: r.fileOffset)
        } else if handler == .audio || SampleEntry.isAudio(entry.type) {
            try r.skip(8)
            let version = try r.u16()
            try r.skip(6)
            channels = Int(try r.u16())
            try r.skip(6)
            sampleRate = Int(try r.u32() >> 16)
            if version == 2 {
                try r.skip(4)
                let rate = Double(bitPattern: try r.u64())
                channels = Int(try r.u32())
                try r.skip(20)
                if rate.isFinite, rate > 0, rate < 10_000_000 { sampleRate = Int(rate) }
            } else if version == 1 {
                try r.skip(16)
            }
            try SampleEntry.readAudioExtensions(&self, from: r.rest(), base: r.fileOffset)
        }
    }
}
