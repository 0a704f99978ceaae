/// Codec names for sample entry types, and the configuration boxes inside them.
enum SampleEntry {
    static func codecName(_ type: FourCC) -> String? {
        switch type.description {
        case "avc1", "avc2", "avc3", "avc4": return "h264"
        case "hvc1", "hev1", "dvh1", "dvhe": return "hevc"
        case "av01": return "av1"
        case "vp08": return "vp8"
        case "vp09": return "vp9"
        case "mp4v": return "mpeg4"
        case "s263", "h263": return "h263"
        case "jpeg", "mjpa", "mjpb": return "mjpeg"
        case "apch", "apcn", "apcs", "apco", "ap4h", "ap4x": return "prores"
        // Uncompressed 4:2:2 (`raw ` itself is sound or picture: `Track` tells them apart).
        case "2vuy", "yuvs", "yuv2": return "rawvideo"
        case "mp4a": return "aac"
        case "ac-3": return "ac3"
        case "ec-3": return "eac3"
        case "Opus": return "opus"
        case "fLaC": return "flac"
        case "alac": return "alac"
        case "samr": return "amr_nb"
        case "sawb": return "amr_wb"
        case ".mp3": return "mp3"
        case "sowt": return "pcm_s16le"
        case "twos": return "pcm_s16be"
        case "in24": return "pcm_s24be"
        case "fl32": return "pcm_f32be"
        case "lpcm", "ipcm", "fpcm": return "pcm"
        case "ulaw": return "pcm_mulaw"
        case "alaw": return "pcm_alaw"
        default: return nil
        }
    }

    static func isVisual(_ type: FourCC) -> Bool {
        ["h264", "hevc", "av1", "vp8", "vp9", "mpeg4", "h263", "mjpeg", "prores", "rawvideo"].contains(
            codecName(type) ?? "")
    }

    static func isAudio(_ type: FourCC) -> Bool {
        guard let name = codecName(type) else { return false }
        return !isVisual(type) && !name.isEmpty
    }

    static func depthMeansAlpha(_ type: FourCC) -> Bool { type == "ap4h" || type == "ap4x" }

    /// Reads `hvcC`, `av1C`, `vpcC`, `avcC` and `colr` boxes after a visual sample entry's fixed part.
    static func readVisualExtensions(_ track: inout Track, from bytes: [UInt8], base: Int64) throws(ProbeError) {
        for (type, body) in smallBoxes(bytes, base: base) {
            var r = body
            switch type {
            case "hvcC":
                try r.skip(17)
                track.bitDepth = Int(try r.u8() & 0x07) + 8
            case "av1C":
                try r.skip(2)
                let flags = try r.u8()
                track.bitDepth = flags & 0x40 == 0 ? 8 : (flags & 0x20 == 0 ? 10 : 12)
            case "vpcC":
                try r.skip(6)
                let packed = try r.u8()
                track.bitDepth = Int(packed >> 4)
                try r.skip(1)
                track.transfer = Int(try r.u8())
            case "avcC":
                try r.skip(1)
                let profile = try r.u8()
                if track.bitDepth == nil, ![100, 110, 122, 244].contains(profile) { track.bitDepth = 8 }
            case "colr":
                let kind = try r.fourCC()
                if kind == "nclx" || kind == "nclc" {
                    try r.skip(2)
                    track.transfer = Int(try r.u16())
                }
            default: break
            }
        }
        if track.bitDepth == nil, ["h264", "mpeg4", "h263", "mjpeg", "vp8"].contains(track.codec ?? "") {
            track.bitDepth = 8
        }
    }

    /// Reads `esds` (the MPEG-4 audio object type) after an audio sample entry's fixed part.
    static func readAudioExtensions(_ track: inout Track, from bytes: [UInt8], base: Int64) throws(ProbeError) {
        guard track.sampleEntry == "mp4a" else { return }
        for (type, body) in smallBoxes(bytes, base: base) where type == "esds" {
            var r = body
            try r.skip(4)
            // Descriptors: tag, variable length, body. Find DecoderConfig (tag 4).
            var guardCount = 0
            while !r.isAtEnd, guardCount < 16 {
                guardCount += 1
                let tag = try r.u8()
                var length = 0
                for _ in 0..<4 {
                    let byte = try r.u8()
                    length = length << 7 | Int(byte & 0x7F)
                    if byte & 0x80 == 0 { break }
                }
                if tag == 3 {
                    let flags = try r.bytes(3)[2]
                    if flags & 0x80 != 0 { try r.skip(2) }
                    if flags & 0x40 != 0 { try r.skip(Int(try r.u8())) }
                    if flags & 0x20 != 0 { try r.skip(2) }
                } else if tag == 4 {
                    switch try r.u8() {
                    case 0x69, 0x6B: track.codec = "mp3"
                    case 0xA5: track.codec = "ac3"
                    case 0xA6: track.codec = "eac3"
                    case 0xDD: track.codec = "vorbis"
                    default: break
                    }
                    return
                } else {
                    try r.skip(min(length, r.remaining))
                }
            }
        }
    }

    /// The boxes packed in `bytes`, stopping at the first that does not fit.
    static func smallBoxes(_ bytes: [UInt8], base: Int64) -> [(FourCC, ByteReader)] {
        var result: [(FourCC, ByteReader)] = []
        var r = ByteReader(bytes, base: base)
        while r.remaining >= 8, result.count < 64 {
            let start = r.position
            guard let size = try? Int(r.u32()), let type = try? r.fourCC(), size >= 8, size - 8 <= r.remaining
            else { break }
            let body = Array(bytes[r.position..<r.position + size - 8])
            result.append((type, ByteReader(body, base: base + Int64(r.position), element: "box '\(type)'")))
            r.position = start + size
        }
        return result
    }
}
