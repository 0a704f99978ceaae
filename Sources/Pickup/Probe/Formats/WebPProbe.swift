/// Probes WebP: the RIFF chunks `VP8 `, `VP8L`, `VP8X`, `ANMF` (frames and
/// their durations) and `EXIF`.
enum WebPProbe {
    static func probe(_ source: ByteSource, limits: ProbeLimits) throws(ProbeError) -> MediaInfo {
        var info = MediaInfo(kind: .image, container: .webp, fileSize: source.size)
        info.exifOrientation = 1
        info.bitDepth = 8
        var riff = ByteReader(try source.read(at: 4, count: 4), base: 4, element: "RIFF header")
        riff.littleEndian = true
        let end = min(source.size, 8 + Int64(try riff.u32()))
        var offset: Int64 = 12
        var chunks = 0
        var frames = 0
        var duration = 0
        var sawImage = false
        while offset + 8 <= end {
            chunks += 1
            guard chunks <= limits.maxElements else {
                throw ProbeError(.limitExceeded, "more than \(limits.maxElements) WebP chunks", offset: offset)
            }
            var header = ByteReader(try source.read(at: offset, count: 8), base: offset, element: "WebP chunk")
            let type = try header.fourCC()
            header.littleEndian = true
            let size = Int64(try header.u32())
            let name = "WebP chunk '\(type)'"
            let data = offset + 8
            guard data + size <= source.size else {
                throw ProbeError(
                    .truncated, "chunk claims \(size) bytes but the file ends first", offset: offset, element: name)
            }
            func body(_ count: Int) throws(ProbeError) -> ByteReader {
                var r = ByteReader(try source.read(at: data, count: min(count, Int(size))), base: data, element: name)
                r.littleEndian = true
                return r
            }
            switch type {
            case "VP8X":
                var r = try body(10)
                let flags = try r.u8()
                try r.skip(3)
                info.width = Int(try r.u24()) + 1
                info.height = Int(try r.u24()) + 1
                info.alpha = flags & 0x10 != 0
                info.animated = flags & 0x02 != 0
            case "VP8 " where !sawImage:
                var r = try body(10)
                try r.skip(3)
                guard try r.bytes(3) == [0x9D, 0x01, 0x2A] else {
                    throw ProbeError(.malformed, "the VP8 frame lacks its start code", offset: data, element: name)
                }
                if info.width == nil {
                    info.width = Int(try r.u16() & 0x3FFF)
                    info.height = Int(try r.u16() & 0x3FFF)
                }
                info.imageCodec = info.imageCodec ?? "webp"
                sawImage = true
            case "VP8L" where !sawImage:
                var r = try body(5)
                guard try r.u8() == 0x2F else {
                    throw ProbeError(.malformed, "the VP8L image lacks its signature", offset: data, element: name)
                }
                let bits = try r.u32()
                if info.width == nil {
                    info.width = Int(bits & 0x3FFF) + 1
                    info.height = Int(bits >> 14 & 0x3FFF) + 1
                    info.alpha = bits >> 28 & 1 == 1
                }
                info.imageCodec = info.imageCodec ?? "webp"
                sawImage = true
            case "ANMF":
                var r = try body(16)
                try r.skip(12)
                duration += Int(try r.u24())
                frames += 1
                guard frames <= limits.maxFrames else {
                    throw ProbeError(.limitExceeded, "more than \(limits.maxFrames) WebP frames", offset: offset)
                }
            case "EXIF" where size <= Int64(limits.maxStructureBytes):
                var block = try source.read(at: data, count: Int(size))
                if block.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]) { block.removeFirst(6) }
                if let exif = try? EXIFMetadata.parse(block, limits: limits, fileBase: data) { exif.fill(&info) }
            default: break
            }
            offset = data + size + (size & 1)
        }
        guard info.width != nil else { throw ProbeError(.truncated, "the WebP holds no image", offset: offset) }
        info.imageCodec = "webp"
        if frames > 0 {
            info.frameCount = frames
            info.animated = frames > 1 || info.animated
            info.duration = Double(duration) / 1000
        }
        info.orientation = Orientation(exifValue: info.exifOrientation ?? 1) ?? .upright
        return info
    }
}
