/// Sums the samples and durations of movie fragments (`moof/traf/trun`), for
/// fragmented MP4 whose `moov` holds no samples.
struct FragmentTotals {
    /// Per track: summed sample durations (in the track's timescale) and sample counts.
    var duration: [UInt32: UInt64] = [:]
    var samples: [UInt32: UInt64] = [:]

    /// `defaults` maps a track to its `trex` default sample duration.
    mutating func add(moof: Box, reader: BoxReader, defaults: [UInt32: UInt32]) throws(ProbeError) {
        for traf in try reader.children(of: moof) where traf.type == "traf" {
            let boxes = try reader.children(of: traf)
            guard let tfhd = boxes.first("tfhd") else { continue }
            var h = try reader.payload(of: tfhd)
            let flags = try h.u32() & 0xFF_FFFF
            let track = try h.u32()
            if flags & 0x01 != 0 { try h.skip(8) }
            if flags & 0x02 != 0 { try h.skip(4) }
            var defaultDuration = defaults[track] ?? 0
            if flags & 0x08 != 0 { defaultDuration = try h.u32() }
            for trun in boxes.all("trun") {
                var r = try reader.payload(of: trun)
                let runFlags = try r.u32() & 0xFF_FFFF
                let count = Int(try r.u32())
                if runFlags & 0x01 != 0 { try r.skip(4) }
                if runFlags & 0x04 != 0 { try r.skip(4) }
                let fields = [0x100, 0x200, 0x400, 0x800].filter { runFlags & UInt32($0) != 0 }.count
                guard fields == 0 || count <= r.remaining / (4 * fields) else {
                    throw r.error(
                        .malformed, "'trun' claims \(count) samples but holds room for \(r.remaining / (4 * fields))")
                }
                var total: UInt64 = 0
                if runFlags & 0x100 != 0 {
                    for _ in 0..<count {
                        total &+= UInt64(try r.u32())
                        try r.skip(4 * (fields - 1))
                    }
                } else {
                    total = UInt64(count) * UInt64(defaultDuration)
                }
                duration[track, default: 0] &+= total
                samples[track, default: 0] &+= UInt64(count)
            }
        }
    }
}
