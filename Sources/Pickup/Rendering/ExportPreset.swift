/// The export presets, named after AVAssetExportSession's.
///
/// | preset | AVFoundation | video | box (long × short side) | bit rate cap |
/// |---|---|---|---|---|
/// | passthrough | AVAssetExportPresetPassthrough | as is (remux) | — | — |
/// | low | AVAssetExportPresetLowQuality | H.264 | 480 × 360 | 0.6 Mbit/s |
/// | medium | AVAssetExportPresetMediumQuality | H.264 | 640 × 480 | 1.5 Mbit/s |
/// | highest | AVAssetExportPresetHighestQuality | H.264 | source size | quality 18, no cap |
/// | 640x480 … 3840x2160 | AVAssetExportPreset640x480 … 3840x2160 | H.264 | the name | 2 / 3.5 / 6 / 10 / 35 Mbit/s |
/// | hevc-1920x1080, hevc-3840x2160 | AVAssetExportPresetHEVC1920x1080 … | HEVC | the name | 6 / 22 Mbit/s |
/// | hevc-highest | AVAssetExportPresetHEVCHighestQuality | HEVC | source size | quality 20, no cap |
///
/// Boxes do not care which way a video stands: a portrait 1080 × 1920 video fits
/// 1920x1080 as it is. Nothing is ever scaled up.
public enum ExportPreset: String, Sendable, Hashable, CaseIterable {
    /// The streams copied as they are (a remux), nothing encoded.
    case passthrough
    /// H.264 in 480 × 360, at most 0.6 Mbit/s.
    case low
    /// H.264 in 640 × 480, at most 1.5 Mbit/s.
    case medium
    /// H.264 at the source's size, quality-driven.
    case highest
    /// H.264 in 640 × 480, at most 2 Mbit/s.
    case p640x480 = "640x480"
    /// H.264 in 960 × 540, at most 3.5 Mbit/s.
    case p960x540 = "960x540"
    /// H.264 in 1280 × 720, at most 6 Mbit/s.
    case p1280x720 = "1280x720"
    /// H.264 in 1920 × 1080, at most 10 Mbit/s.
    case p1920x1080 = "1920x1080"
    /// H.264 in 3840 × 2160, at most 35 Mbit/s.
    case p3840x2160 = "3840x2160"
    /// HEVC in 1920 × 1080, at most 6 Mbit/s.
    case hevc1920x1080 = "hevc-1920x1080"
    /// HEVC in 3840 × 2160, at most 22 Mbit/s.
    case hevc3840x2160 = "hevc-3840x2160"
    /// HEVC at the source's size, quality-driven.
    case hevcHighest = "hevc-highest"

    /// A video codec an export encodes to.
    public enum Codec: String, Sendable, Hashable {
        /// H.264 (AVC): plays everywhere.
        case h264
        /// HEVC (H.265): half the size for the same quality, on newer players.
        case hevc
    }

    /// The video codec it encodes to (nil: passthrough).
    public var codec: Codec? {
        switch self {
        case .passthrough: return nil
        case .hevc1920x1080, .hevc3840x2160, .hevcHighest: return .hevc
        default: return .h264
        }
    }

    /// The box the picture must fit, long side first (nil: any size).
    public var box: PixelSize? {
        switch self {
        case .passthrough, .highest, .hevcHighest: return nil
        case .low: return PixelSize(width: 480, height: 360)
        case .medium, .p640x480: return PixelSize(width: 640, height: 480)
        case .p960x540: return PixelSize(width: 960, height: 540)
        case .p1280x720: return PixelSize(width: 1280, height: 720)
        case .p1920x1080, .hevc1920x1080: return PixelSize(width: 1920, height: 1080)
        case .p3840x2160, .hevc3840x2160: return PixelSize(width: 3840, height: 2160)
        }
    }

    /// The highest video bit rate (bits a second) it produces (nil: no cap, quality-driven).
    public var maxBitRate: Int? {
        switch self {
        case .passthrough, .highest, .hevcHighest: return nil
        case .low: return 600_000
        case .medium: return 1_500_000
        case .p640x480: return 2_000_000
        case .p960x540: return 3_500_000
        case .p1280x720: return 6_000_000
        case .p1920x1080: return 10_000_000
        case .p3840x2160: return 35_000_000
        case .hevc1920x1080: return 6_000_000
        case .hevc3840x2160: return 22_000_000
        }
    }

    /// The constant-quality factor (x264/x265 CRF) the encoder aims at, capped by `maxBitRate`.
    public var quality: Int {
        switch self {
        case .highest: return 18
        case .hevcHighest: return 20
        case .low: return 28
        case .medium: return 25
        default: return codec == .hevc ? 24 : 21
        }
    }
}

/// The container an export writes.
public enum ExportContainer: String, Sendable, Hashable, CaseIterable {
    /// MPEG-4 (`.mp4`): what every player and server takes.
    case mp4
    /// QuickTime (`.mov`): what Apple's cameras write.
    case mov

    /// The file name extension: "mp4" or "mov".
    public var fileExtension: String { rawValue }
}
