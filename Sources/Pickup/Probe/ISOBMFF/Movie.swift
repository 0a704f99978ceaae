/// What a `moov` box says: timing, tracks, and descriptive metadata.
struct Movie {
    var timescale: UInt32 = 0
    var duration: UInt64 = 0
    var creationDate: MediaDate?
    var tracks: [Track] = []
    var metadata = MovieMetadata()
    /// `mvex` is present: samples live in movie fragments.
    var isFragmented = false
    /// `mehd`: the whole fragmented movie's duration, in `timescale` units.
    var fragmentDuration: UInt64?
    /// `trex` default sample duration per track.
    var trexDefaults: [UInt32: UInt32] = [:]

    static func parse(_ moov: Box, reader: BoxReader) throws(ProbeError) -> Movie {
        var movie = Movie()
        let children = try reader.children(of: moov)
        guard let mvhd = children.first("mvhd") else {
            throw ProbeError(.malformed, "the movie has no 'mvhd' header", offset: moov.offset, element: "box 'moov'")
        }
        try movie.readMovieHeader(try reader.payload(of: mvhd))
        for box in children {
            switch box.type {
            case "trak": movie.tracks.append(try Track.parse(box, reader: reader))
            case "meta": movie.metadata.merge(try MovieMetadata.parseMeta(box, reader: reader))
            case "udta": movie.metadata.merge(try MovieMetadata.parseUserData(box, reader: reader))
            case "mvex": try movie.readMovieExtends(box, reader: reader)
            default: break
            }
        }
        return movie
    }

    private mutating func readMovieHeader(_ payload: ByteReader) throws(ProbeError) {
        var r = payload
        let header = try TimedHeader(&r)
        let created = header.created
        timescale = header.field
        duration = try header.duration(&r)
        // Seconds since 1904-01-01 UTC; 0 means "not set".
        let since1970 = Int64(clamping: created) - 2_082_844_800
        if created != 0, since1970 > 0, since1970 < 253_402_300_800 {
            creationDate = MediaDate(utcSecondsSince1970: Int(since1970))
        }
    }

    private mutating func readMovieExtends(_ mvex: Box, reader: BoxReader) throws(ProbeError) {
        isFragmented = true
        for box in try reader.children(of: mvex) {
            var r = try reader.payload(of: box)
            if box.type == "mehd" {
                let version = try r.u8()
                try r.skip(3)
                fragmentDuration = version == 1 ? try r.u64() : UInt64(try r.u32())
            } else if box.type == "trex" {
                try r.skip(4)
                let track = try r.u32()
                try r.skip(4)
                trexDefaults[track] = try r.u32()
            }
        }
    }

    var seconds: Double? {
        guard timescale > 0, duration > 0 else { return nil }
        return Double(duration) / Double(timescale)
    }

    /// The presentation length: the longest track with its edit list applied,
    /// or the `mvhd` duration when tracks say nothing.
    var presentationSeconds: Double? {
        var longest: Double?
        for track in tracks where track.handler != .other {
            let seconds: Double?
            if let edited = track.editedDuration, timescale > 0 {
                seconds = Double(edited) / Double(timescale)
            } else {
                seconds = track.mediaSeconds
            }
            if let seconds { longest = max(longest ?? 0, seconds) }
        }
        return longest ?? self.seconds
    }

    var hasSamples: Bool { tracks.contains { $0.sampleCount > 0 } }
}
