/// Which items may be picked: the vocabulary of Apple's `PHPickerFilter`,
/// decided from the facts a probe reads (never from file names).
///
/// How each is decided:
/// - `images`: the file is a still or animated image (Live Photo stills too).
/// - `videos`: the file has a video track (Live Photo movies too).
/// - `livePhotos`: the file carries a Live Photo content identifier (still or movie).
/// - `screenshots`: an image with no camera make whose EXIF `UserComment` says
///   "Screenshot" (iOS), or a PNG with Apple's `iDOT` chunk (iOS and macOS).
/// - `screenRecordings`: a video with no camera make whose software or comment
///   names a screen recorder ("Screen", "ReplayKit").
/// - `slomoVideos`: a video captured at 100 frames per second or more.
/// - `bursts`: an image with Apple's burst identifier (maker note tag 0x0B).
/// - `panoramas`: an image with EXIF `CustomRendered` 6 (iOS panoramas), or a
///   camera image at least 2.5 times as wide as tall once upright.
/// - `depthPhotos`: a HEIF image with a depth map or portrait matte auxiliary image.
public indirect enum MediaFilter: Sendable, Hashable, CustomStringConvertible {
    /// Stills of every kind (Live Photos' stills included).
    case images
    /// Movies.
    case videos
    /// Live Photos: a still with a paired movie.
    case livePhotos
    /// Screenshots.
    case screenshots
    /// Screen recordings.
    case screenRecordings
    /// Slow-motion videos (high frame rate from the camera).
    case slomoVideos
    /// Photos taken in a burst.
    case bursts
    /// Panoramas.
    case panoramas
    /// Portrait photos with depth (Photos has no picker filter for these: checked on the loaded file).
    case depthPhotos
    /// Matches when any of the filters matches (`PHPickerFilter.any(of:)`).
    case any(of: [MediaFilter])
    /// Matches when all of the filters match (`PHPickerFilter.all(of:)`).
    case all(of: [MediaFilter])
    /// Matches when the filter does not (`PHPickerFilter.not(_:)`).
    case not(MediaFilter)

    /// Whether a probed file passes this filter.
    public func matches(_ info: MediaInfo) -> Bool {
        switch self {
        case .images: return info.kind == .image
        case .videos: return info.kind == .video
        case .livePhotos: return info.livePhotoRole != nil
        case .screenshots:
            guard info.kind == .image, info.make == nil else { return false }
            let comment = info.capture.userComment?.lowercased() ?? ""
            return comment.contains("screenshot") || info.capture.hasAppleScreenshotChunk
        case .screenRecordings:
            guard info.kind == .video, info.make == nil else { return false }
            let text = ((info.software ?? "") + " " + (info.capture.userComment ?? "")).lowercased()
            return text.contains("screen") || text.contains("replaykit")
        case .slomoVideos: return info.kind == .video && (info.frameRate ?? 0) >= 100
        case .bursts: return info.kind == .image && info.capture.burstIdentifier != nil
        case .panoramas:
            guard info.kind == .image else { return false }
            if info.capture.customRendered == 6 { return true }
            guard info.make != nil, let width = info.displayWidth, let height = info.displayHeight, height > 0 else {
                return false
            }
            return Double(width) >= 2.5 * Double(height)
        case .depthPhotos: return info.kind == .image && info.capture.hasDepth
        case .any(let filters): return filters.contains { $0.matches(info) }
        case .all(let filters): return filters.allSatisfy { $0.matches(info) }
        case .not(let filter): return !filter.matches(info)
        }
    }

    /// The simple filters by the names the CLI and `PHPickerFilter` use.
    public static let named: [String: MediaFilter] = [
        "images": .images, "videos": .videos, "livePhotos": .livePhotos, "screenshots": .screenshots,
        "screenRecordings": .screenRecordings, "slomoVideos": .slomoVideos, "bursts": .bursts,
        "panoramas": .panoramas, "depthPhotos": .depthPhotos,
    ]

    /// Parses the CLI's form: names joined by commas, each one kept (any of them), or excluded
    /// with a leading `!`. Exclusions apply to the whole selection, whatever their place:
    /// `images,!screenshots` is images that are not screenshots, and `!screenshots` alone is
    /// everything but screenshots. `videos`, `images,livePhotos`, `videos,!slomoVideos`.
    public init(parsing text: String) throws(MediaFilterError) {
        var kept: [MediaFilter] = []
        var excluded: [MediaFilter] = []
        for raw in text.split(separator: ",", omittingEmptySubsequences: true) {
            var name = raw.drop { $0 == " " }
            while name.last == " " { name = name.dropLast() }
            let negate = name.hasPrefix("!")
            if negate { name = name.dropFirst() }
            let key = MediaFilter.named.keys.first { $0.lowercased() == name.lowercased() }
            guard let key, let filter = MediaFilter.named[key] else {
                throw MediaFilterError(name: String(name))
            }
            if negate { excluded.append(filter) } else { kept.append(filter) }
        }
        let keep: MediaFilter? = kept.isEmpty ? nil : (kept.count == 1 ? kept[0] : .any(of: kept))
        let drop: MediaFilter? = excluded.isEmpty ? nil : .not(excluded.count == 1 ? excluded[0] : .any(of: excluded))
        switch (keep, drop) {
        case (let keep?, let drop?): self = .all(of: [keep, drop])
        case (let keep?, nil): self = keep
        case (nil, let drop?): self = drop
        case (nil, nil): throw MediaFilterError(name: text)
        }
    }

    public var description: String {
        switch self {
        case .any(let filters): return "any(of: " + filters.map(\.description).joined(separator: ", ") + ")"
        case .all(let filters): return "all(of: " + filters.map(\.description).joined(separator: ", ") + ")"
        case .not(let filter): return "not(\(filter))"
        default: return MediaFilter.named.first { $0.value == self }?.key ?? "?"
        }
    }
}

/// A filter name Pickup does not know.
public struct MediaFilterError: Error, Sendable, CustomStringConvertible {
    /// The name that was given.
    public let name: String
    public var description: String {
        "unknown filter '\(name)'; use " + MediaFilter.named.keys.sorted().joined(separator: ", ")
            + " (comma-separated for any of them, '!' before one to exclude it)"
    }
}
