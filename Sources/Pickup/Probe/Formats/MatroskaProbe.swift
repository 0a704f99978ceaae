/// Probes Matroska and WebM: the EBML header's DocType, then the Segment's
/// `Info` (duration, date), `Tracks` (codecs, sizes, colour), and, when no
/// track gives a frame duration, the timestamps of the first video blocks.
enum MatroskaProbe {
    enum ID {
        static let ebml: UInt32 = 0x1A45_DFA3, docType: UInt32 = 0x4282
        static let segment: UInt32 = 0x1853_8067, info: UInt32 = 0x1549_A966, tracks: UInt32 = 0x1654_AE6B
        static let cluster: UInt32 = 0x1F43_B675, cues: UInt32 = 0x1C53_BB6B, tags: UInt32 = 0x1254_C367
        static let timestampScale: UInt32 = 0x2A_D7B1, duration: UInt32 = 0x4489, dateUTC: UInt32 = 0x4461
        static let writingApp: UInt32 = 0x5741
        static let trackEntry: UInt32 = 0xAE, trackNumber: UInt32 = 0xD7, trackType: UInt32 = 0x83
        static let codecID: UInt32 = 0x86, defaultDuration: UInt32 = 0x23_E383
        static let video: UInt32 = 0xE0, pixelWidth: UInt32 = 0xB0, pixelHeight: UInt32 = 0xBA
        static let colour: UInt32 = 0x55B0, bitsPerChannel: UInt32 = 0x55B2, transfer: UInt32 = 0x55BA
        static let alphaMode: UInt32 = 0x53C0
        static let audio: UInt32 = 0xE1, samplingFrequency: UInt32 = 0xB5, channels: UInt32 = 0x9F
        static let timestamp: UInt32 = 0xE7, simpleBlock: UInt32 = 0xA3, blockGroup: UInt32 = 0xA0, block: UInt32 = 0xA1
    }

    struct TrackEntry {
        var number: UInt64 = 0
        var type: UInt64 = 0
        var codec: String?
        var defaultDuration: UInt64?
        var width: Int?
        var height: Int?
        var bitDepth: Int?
        var transfer: Int?
        var alpha = false
        var sampleRate: Double?
        var channels: Int?
    }

    static func probe(_ source: ByteSource, limits: ProbeLimits) throws(ProbeError) -> MediaInfo {
        let reader = EBMLReader(source: source, limits: limits)
        let header = try reader.element(at: 0, end: source.size)
        var docType = "matroska"
        for child in try reader.children(of: header) where child.id == ID.docType {
            docType = try reader.string(child)
        }
        guard docType == "webm" || docType == "matroska" else {
            throw ProbeError(.unrecognized, "EBML document type '\(docType)' is not Matroska or WebM", offset: 0)
        }
        var offset = header.end
        var segment: EBMLElement?
        while offset < source.size, segment == nil {
            let element = try reader.element(at: offset, end: source.size)
            if element.id == ID.segment { segment = element }
            offset = element.end
        }
        guard let segment else {
            throw ProbeError(.truncated, "the Matroska file has no Segment", offset: offset)
        }
        var scale: UInt64 = 1_000_000
        var durationUnits: Double?
        var date: MediaDate?
        var app: String?
        var tracks: [TrackEntry] = []
        var clusters: [EBMLElement] = []
        for child in try reader.children(of: segment, stopAtClusters: 8) {
            switch child.id {
            case ID.info:
                for field in try reader.children(of: child) {
                    switch field.id {
                    case ID.timestampScale: scale = max(1, try reader.unsigned(field))
                    case ID.duration: durationUnits = try reader.float(field)
                    case ID.writingApp: app = try reader.string(field)
                    case ID.dateUTC:
                        let nanoseconds = try reader.signed(field)
                        date = MediaDate(utcSecondsSince1970: 978_307_200 + Int(nanoseconds / 1_000_000_000))
                    default: break
                    }
                }
            case ID.tracks:
                for entry in try reader.children(of: child) where entry.id == ID.trackEntry {
                    tracks.append(try readTrack(entry, reader: reader))
                }
            case ID.cluster: clusters.append(child)
            default: break
            }
        }
        let video = tracks.first { $0.type == 1 }
        let audio = tracks.first { $0.type == 2 }
        guard video != nil || audio != nil else {
            throw ProbeError(.malformed, "the Matroska file lists no video or audio track", offset: segment.offset)
        }
        var info = MediaInfo(
            kind: video != nil ? .video : .audio, container: docType == "webm" ? .webm : .mkv, fileSize: source.size)
        if let durationUnits, durationUnits.isFinite, durationUnits > 0 {
            info.duration = durationUnits * Double(scale) / 1_000_000_000
        }
        info.creationDate = date
        info.software = app
        if let video {
            info.videoCodec = video.codec
            info.width = video.width
            info.height = video.height
            info.bitDepth = video.bitDepth
            info.alpha = video.alpha
            info.hdr = video.transfer.flatMap { HDRTransfer(transferCharacteristics: $0) }
            if let frame = video.defaultDuration, frame > 0 {
                info.frameRate = 1_000_000_000 / Double(frame)
            } else {
                info.frameRate = try frameRate(track: video.number, clusters: clusters, scale: scale, reader: reader)
            }
        }
        if let audio {
            info.audioCodec = audio.codec
            info.audioChannels = audio.channels
            info.audioSampleRate = audio.sampleRate.flatMap { $0.isFinite && $0 > 0 && $0 < 10_000_000 ? Int($0) : nil }
        }
        return info
    }

    private static func readTrack(_ entry: EBMLElement, reader: EBMLReader) throws(ProbeError) -> TrackEntry {
        var track = TrackEntry()
        for field in try reader.children(of: entry) {
            switch field.id {
            case ID.trackNumber: track.number = try reader.unsigned(field)
            case ID.trackType: track.type = try reader.unsigned(field)
            case ID.codecID: track.codec = codecName(try reader.string(field))
            case ID.defaultDuration: track.defaultDuration = try reader.unsigned(field)
            case ID.video:
                for item in try reader.children(of: field) {
                    switch item.id {
                    case ID.pixelWidth: track.width = Int(clamping: try reader.unsigned(item))
                    case ID.pixelHeight: track.height = Int(clamping: try reader.unsigned(item))
                    case ID.alphaMode: track.alpha = try reader.unsigned(item) == 1
                    case ID.colour:
                        for colour in try reader.children(of: item) {
                            if colour.id == ID.bitsPerChannel {
                                track.bitDepth = Int(clamping: try reader.unsigned(colour))
                            }
                            if colour.id == ID.transfer { track.transfer = Int(clamping: try reader.unsigned(colour)) }
                        }
                    default: break
                    }
                }
            case ID.audio:
                for item in try reader.children(of: field) {
                    if item.id == ID.samplingFrequency { track.sampleRate = try reader.float(item) }
                    if item.id == ID.channels { track.channels = Int(clamping: try reader.unsigned(item)) }
                }
            default: break
            }
        }
        if track.type == 1, track.bitDepth == nil { track.bitDepth = 8 }
        return track
    }

    /// Frames per second from the spacing of the first video blocks' timestamps.
    private static func frameRate(
        track: UInt64, clusters: [EBMLElement], scale: UInt64, reader: EBMLReader
    )
        throws(ProbeError) -> Double?
    {
        var stamps: [Int64] = []
        for cluster in clusters where stamps.count < 120 {
            var base: Int64 = 0
            for child in try reader.children(of: cluster, stopAtClusters: 0) where stamps.count < 120 {
                var block = child
                if child.id == ID.timestamp { base = Int64(min(try reader.unsigned(child), 1 << 48)) }
                if child.id == ID.blockGroup {
                    guard let inner = try reader.children(of: child).first(where: { $0.id == ID.block }) else {
                        continue
                    }
                    block = inner
                }
                guard block.id == ID.simpleBlock || block.id == ID.block else { continue }
                var r = ByteReader(try reader.source.readUpTo(at: block.dataOffset, count: 11), base: block.dataOffset)
                guard let number = try? EBMLReader.vint(&r), number == track, let relative = try? r.u16() else {
                    continue
                }
                stamps.append(base + Int64(Int16(bitPattern: relative)))
            }
        }
        guard stamps.count >= 3, let first = stamps.min(), let last = stamps.max(), last > first else { return nil }
        let seconds = (Double(last) - Double(first)) * Double(scale) / 1_000_000_000
        return Double(stamps.count - 1) / seconds
    }

    static func codecName(_ id: String) -> String? {
        switch id {
        case "V_VP8": return "vp8"
        case "V_VP9": return "vp9"
        case "V_AV1": return "av1"
        case "V_MPEG4/ISO/AVC": return "h264"
        case "V_MPEGH/ISO/HEVC": return "hevc"
        case "V_THEORA": return "theora"
        case "V_PRORES": return "prores"
        case "V_MJPEG": return "mjpeg"
        case "A_OPUS": return "opus"
        case "A_VORBIS": return "vorbis"
        case "A_MPEG/L3": return "mp3"
        case "A_FLAC": return "flac"
        case "A_AC3": return "ac3"
        case "A_EAC3": return "eac3"
        default:
            if id.hasPrefix("V_MPEG4/ISO/") { return "mpeg4" }
            if id.hasPrefix("A_AAC") { return "aac" }
            if id.hasPrefix("A_PCM") { return "pcm" }
            return id.isEmpty ? nil : id.lowercased()
        }
    }
}
