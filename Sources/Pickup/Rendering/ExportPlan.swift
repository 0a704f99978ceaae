/// What an export is asked to do.
public struct ExportOptions: Sendable, Hashable {
    /// The preset: codec, size box and bit rate, as AVAssetExportSession names them.
    public var preset: ExportPreset
    /// MP4 or QuickTime.
    public var container: ExportContainer
    /// Keep only this part, in seconds from the start; an upper bound of `.infinity` keeps
    /// from the lower bound to the end.
    public var trim: ClosedRange<Double>?
    /// Keep only the creation date, the rotation and each track's language and handler name
    /// of the metadata (an allow-list: the location, make, model, software, author, title,
    /// copyright, comments and every other tag go), as the photo formats keep only their
    /// orientation and date.
    public var stripLocation: Bool
    /// The largest file to write, in bytes: the bit rate is planned to fit.
    public var maxBytes: Int64?
    /// Turn HEVC into H.264 for players that lack HEVC, even when the source would fit.
    public var compatible: Bool

    /// Options for an export with this preset; by default, the whole file to MP4, metadata kept.
    public init(
        preset: ExportPreset, container: ExportContainer = .mp4, trim: ClosedRange<Double>? = nil,
        stripLocation: Bool = false, maxBytes: Int64? = nil, compatible: Bool = false
    ) {
        self.preset = preset
        self.container = container
        self.trim = trim
        self.stripLocation = stripLocation
        self.maxBytes = maxBytes
        self.compatible = compatible
    }
}

/// How an export will be made, decided from the source's facts before any work:
/// remux when the source already fits the preset (smart passthrough), encode
/// otherwise, with the size and bit rate planned.
public struct ExportPlan: Sendable, Hashable {
    /// What happens to the video stream.
    public enum Video: Sendable, Hashable {
        /// Packets copied as they are.
        case copy
        /// Decoded and encoded again: codec, pixel size (stored orientation), quality factor
        /// and bit-rate cap (nil: quality only).
        case encode(codec: ExportPreset.Codec, size: PixelSize, quality: Int, maxBitRate: Int?)
    }

    /// What happens to the audio stream.
    public enum Audio: Sendable, Hashable {
        /// Packets copied as they are.
        case copy
        /// AAC at this bit rate.
        case encode(bitRate: Int)
    }

    /// nil when the source has no video.
    public var video: Video?
    /// nil when the source has no audio.
    public var audio: Audio?
    /// Seconds the output lasts.
    public var duration: Double
    /// Why it was planned so, for people (`pickup export` prints it).
    public var reason: String

    /// Whether nothing is encoded: the output is a remux of the source.
    public var isPassthrough: Bool { video != nil && video == .copy && (audio == nil || audio == .copy) }

    /// Plans the export of a file described by `info`.
    public static func make(for info: MediaInfo, _ options: ExportOptions) throws(RenderError) -> ExportPlan {
        guard info.kind == .video, let width = info.width, let height = info.height, width > 0, height > 0 else {
            if info.kind == .audio { throw RenderError(.noPicture, "the file has no video") }
            throw RenderError(
                .noPicture, "the file is a \(info.kind == .image ? "photo" : info.kind.rawValue), not a video",
                hint: "Export makes videos ready; a photo can be sent as it is, or as a smaller thumbnail.")
        }
        let full = info.duration ?? 0
        var duration = full
        if let trim = options.trim {
            let range = "\(trim.lowerBound)-" + (trim.upperBound.isFinite ? "\(trim.upperBound)" : "")
            guard trim.lowerBound >= 0, trim.upperBound > trim.lowerBound else {
                throw RenderError(.impossible, "the time range \(range) s is empty or negative")
            }
            let lasts = Self.seconds(full)
            if full > 0, !trim.upperBound.isFinite, trim.lowerBound >= full {
                throw RenderError(
                    .impossible, "the time range \(range) s starts after the video, which lasts \(lasts) s",
                    hint: "Give a START inside the video: at most \(lasts) (seconds or m:ss).")
            }
            // A range that ends after the video is refused, not cut short in silence (1 ms of slack:
            // a duration is given in milliseconds).
            if full > 0, trim.upperBound.isFinite, trim.upperBound > full + 0.001 {
                throw RenderError(
                    .impossible, "the time range \(range) s ends after the video, which lasts \(lasts) s",
                    hint: "Give a range inside the video: START-END with END at most \(lasts) (seconds or m:ss), "
                        + "or START- for the rest of it.")
            }
            if full > 0 {
                duration = min(trim.upperBound, full) - trim.lowerBound
            } else if trim.upperBound.isFinite {
                duration = trim.upperBound - trim.lowerBound
            }
        }
        let sourceCodec = normalizedCodec(info.videoCodec)
        let audioCopies = info.audioCodec.map { ["aac", "mp4a"].contains($0.lowercased()) } ?? false
        let audio: Audio? = info.audioCodec == nil ? nil : audioCopies ? .copy : .encode(bitRate: 128_000)
        let sourceRate = full > 0 ? Int(Double(info.fileSize) * 8 / full) : Int.max
        let preset = options.preset

        if preset == .passthrough {
            if let maxBytes = options.maxBytes, full > 0, Double(info.fileSize) * duration / full > Double(maxBytes) {
                throw RenderError(
                    .impossible,
                    "passthrough keeps the bit rate, so the output would exceed \(ExportPlan.bytes(maxBytes))",
                    hint: "Choose a preset that encodes (such as 1280x720), or allow a larger size.")
            }
            return ExportPlan(
                video: .copy, audio: info.audioCodec == nil ? nil : .copy, duration: duration,
                reason: "passthrough: streams copied as they are")
        }
        guard let target = preset.codec else { throw RenderError(.impossible, "no codec for \(preset.rawValue)") }
        let size = fitted(PixelSize(width: width, height: height), in: preset.box)
        var cap = preset.maxBitRate
        let codecFits = sourceCodec == target.rawValue && !(options.compatible && sourceCodec == "hevc")
        let sizeFits = size == PixelSize(width: width, height: height) || preset.box == nil
        if let maxBytes = options.maxBytes {
            // The source as it is, cut to the range, already fits the preset and the limit (1% for
            // a remux's container, which the source's size holds already): remuxed, never encoded
            // into a larger or lesser file.
            let presetRateFits = cap.map { sourceRate <= $0 + $0 / 10 } ?? true
            if codecFits, sizeFits, presetRateFits, full > 0,
                Double(info.fileSize) * duration / full <= Double(maxBytes) * 0.99
            {
                return ExportPlan(
                    video: .copy, audio: audio, duration: duration,
                    reason: "the source already fits \(preset.rawValue) (\(target.rawValue), \(width)x\(height), "
                        + "\(sourceRate / 1000) kbit/s) and \(ExportPlan.bytes(maxBytes)): remuxed, not encoded")
            }
            guard duration > 0 else {
                throw RenderError(
                    .impossible, "the video's duration is unknown, so no bit rate can be planned for a size limit",
                    hint: "Export it without a size limit, or remux it first so that it states its duration.")
            }
            let audioBits = audio == nil ? 0 : 128_000
            // 3% for the container, the rest for the streams.
            let budget = Int(Double(maxBytes) * 8 * 0.97 / duration) - audioBits
            guard budget >= 100_000 else {
                throw RenderError(
                    .impossible,
                    "\(ExportPlan.bytes(maxBytes)) for \(Int(duration)) s leaves under 100 kbit/s for the picture",
                    hint: "Allow a larger size, or trim the video shorter.")
            }
            cap = min(cap ?? budget, budget)
        }
        let rateFits = cap.map { sourceRate <= $0 + $0 / 10 } ?? true
        if codecFits && sizeFits && rateFits {
            return ExportPlan(
                video: .copy, audio: audio, duration: duration,
                reason: "the source already fits \(preset.rawValue) (\(target.rawValue), \(width)x\(height)"
                    + (cap == nil ? "" : ", \(sourceRate / 1000) kbit/s") + "): remuxed, not encoded")
        }
        var why: [String] = []
        if !codecFits { why.append("\(sourceCodec ?? "unknown codec") → \(target.rawValue)") }
        if !sizeFits { why.append("\(width)x\(height) → \(size)") }
        if !rateFits, let cap {
            // No duration, no rate: said so, not Int.max's thousandth.
            why.append("\(full > 0 ? String(sourceRate / 1000) : "unknown bit rate") → \(cap / 1000) kbit/s")
        }
        // HDR is kept, not tone-mapped: the picture keeps its BT.2020 colors and its HLG or PQ
        // transfer, tagged so; 8 bits a sample, so an HDR display shows it as HDR.
        if let hdr = info.hdr { why.append("HDR (\(hdr.rawValue)) kept: BT.2020, 8-bit") }
        // A size limit the preset's rate keeps under anyway is said too, so the plan answers it.
        if let maxBytes = options.maxBytes { why.append("planned to fit \(ExportPlan.bytes(maxBytes))") }
        return ExportPlan(
            video: .encode(codec: target, size: size, quality: preset.quality, maxBitRate: cap),
            audio: audio, duration: duration, reason: "encoded: " + why.joined(separator: ", "))
    }

    /// A byte count in words: "1 byte", "25000000 bytes".
    static func bytes(_ count: Int64) -> String { count == 1 ? "1 byte" : "\(count) bytes" }

    /// ffprobe's name of a codec from either spelling (`avc1` → `h264`, `hvc1`/`hev1` → `hevc`).
    static func normalizedCodec(_ codec: String?) -> String? {
        guard let codec = codec?.lowercased() else { return nil }
        switch codec {
        case "avc1", "avc3", "h264": return "h264"
        case "hvc1", "hev1", "hevc", "h265": return "hevc"
        default: return codec
        }
    }

    /// `size` scaled down (never up) to fit `box` whichever way it stands, with even sides
    /// (what 4:2:0 encoders need).
    public static func fitted(_ size: PixelSize, in box: PixelSize?) -> PixelSize {
        guard let box else { return PixelSize(width: size.width & ~1, height: size.height & ~1) }
        let portrait = size.height > size.width
        let long = Double(max(box.width, box.height))
        let short = Double(min(box.width, box.height))
        let boxWidth = portrait ? short : long
        let boxHeight = portrait ? long : short
        let scale = min(1, min(boxWidth / Double(size.width), boxHeight / Double(size.height)))
        let width = max(2, Int((Double(size.width) * scale).rounded()) & ~1)
        let height = max(2, Int((Double(size.height) * scale).rounded()) & ~1)
        if scale == 1 { return PixelSize(width: max(2, size.width & ~1), height: max(2, size.height & ~1)) }
        return PixelSize(width: width, height: height)
    }
}

/// What an export reports as it goes.
public enum ExportEvent: Sendable {
    /// Decided before any work: remux or encode, and why.
    case planned(ExportPlan)
    /// The part of the output written (0...1), by media time.
    case progress(Double)
    /// The export is written, in place and complete.
    case finished(ExportResult)
}

/// A finished export.
public struct ExportResult: Sendable, Hashable {
    /// Where the output was written.
    public var path: String
    /// How it was made.
    public var plan: ExportPlan
    /// The output's size in bytes.
    public var bytes: Int64
    /// How long the export took, in seconds.
    public var seconds: Double

    /// A finished export's facts.
    public init(path: String, plan: ExportPlan, bytes: Int64, seconds: Double) {
        self.path = path
        self.plan = plan
        self.bytes = bytes
        self.seconds = seconds
    }
}

/// Exports videos for upload; `PickupFFmpeg` implements it on Linux, an
/// AVAssetExportSession implementation on Apple platforms.
public protocol MediaExporter: Sendable {
    /// Writes `path` exported with `options` to `output`, atomically: a failure or a
    /// cancellation leaves nothing there.
    func export(
        _ path: String, to output: String, _ options: ExportOptions, events: AsyncStream<ExportEvent>.Continuation?
    ) async throws(RenderError) -> ExportResult
}

extension ExportPlan {
    /// Seconds to the millisecond, as a duration is given: `4.000`.
    fileprivate static func seconds(_ value: Double) -> String {
        // A header can say a movie lasts 2^62 s: printed as it is, not turned into an Int past Int.max.
        guard value.isFinite, abs(value) < 1e12 else { return String(value) }
        let milliseconds = Int((value * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
