/// Probes PNG (and APNG): reads chunk headers, `IHDR`, `acTL`, `fcTL`
/// delays, `tRNS` and the `eXIf` EXIF chunk, skipping image data.
enum PNGProbe {
    static func probe(_ source: ByteSource, limits: ProbeLimits) throws(ProbeError) -> MediaInfo {
        var info = MediaInfo(kind: .image, container: .png, fileSize: source.size)
        info.imageCodec = "png"
        info.exifOrientation = 1
        var offset: Int64 = 8
        var chunks = 0
        var frames = 0
        var delay = 0.0
        var sawHeader = false
        while offset + 12 <= source.size {
            chunks += 1
            guard chunks <= limits.maxElements else {
                throw ProbeError(.limitExceeded, "more than \(limits.maxElements) PNG chunks", offset: offset)
            }
            var header = ByteReader(try source.read(at: offset, count: 8), base: offset, element: "PNG chunk")
            let length = Int64(try header.u32())
            let type = try header.fourCC()
            let name = "PNG chunk '\(type)'"
            guard length <= 0x7FFF_FFFF, offset + 12 + length <= source.size else {
                throw ProbeError(
                    .truncated, "chunk claims \(length) bytes but the file ends first", offset: offset, element: name)
            }
            let data = offset + 8
            if !sawHeader {
                guard type == "IHDR", length >= 13 else {
                    throw ProbeError(.malformed, "the first chunk must be IHDR", offset: offset, element: name)
                }
                var r = ByteReader(try source.read(at: data, count: 13), base: data, element: name)
                info.width = Int(try r.u32())
                info.height = Int(try r.u32())
                info.bitDepth = Int(try r.u8())
                let colorType = try r.u8()
                info.alpha = colorType == 4 || colorType == 6
                sawHeader = true
            } else {
                switch type {
                case "tRNS": info.alpha = true
                case "iDOT": info.capture.hasAppleScreenshotChunk = true
                case "acTL" where length >= 8:
                    var r = ByteReader(try source.read(at: data, count: 8), base: data, element: name)
                    let count = Int(try r.u32())
                    info.animated = count > 1
                    info.frameCount = count
                case "fcTL" where length >= 26:
                    var r = ByteReader(try source.read(at: data, count: 26), base: data, element: name)
                    try r.skip(20)
                    let numerator = Double(try r.u16())
                    let denominator = Double(try r.u16())
                    delay += numerator / (denominator == 0 ? 100 : denominator)
                    frames += 1
                case "eXIf" where length <= Int64(limits.maxStructureBytes):
                    let block = try source.read(at: data, count: Int(length))
                    if let exif = try? EXIFMetadata.parse(block, limits: limits, fileBase: data) {
                        exif.fill(&info)
                    }
                default: break
                }
                if type == "IEND" { break }
            }
            offset = data + length + 4
        }
        guard sawHeader else { throw ProbeError(.truncated, "the PNG ends before its IHDR chunk", offset: 8) }
        if info.animated, frames > 0 { info.duration = delay }
        info.orientation = Orientation(exifValue: info.exifOrientation ?? 1) ?? .upright
        return info
    }
}
