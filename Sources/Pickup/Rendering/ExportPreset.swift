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
    case passthrough, low, medium, highest
    case p640x480 = "640x480"
    case p960x540 = "960x540"
    case p1280x720 = "1280x720"
    case p1920x1080 = "1920x1080"
    case p3840x2160 = "3840x2160"
    case hevc1920x1080 = "hevc-1920x1080"
    case hevc3840x2160 = "hevc-3840x2160"
    case hevcHighest = "hevc-highest"

    public enum Codec: String, Sendable, Hashable {
        case h264, hevc
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
    case mp4, mov

    public var fileExtension: String { rawValue }
}
