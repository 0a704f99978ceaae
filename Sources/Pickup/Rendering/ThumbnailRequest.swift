/// A size in pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A size of `width` × `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `WxH` (`320x240`) or a single number for a square.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        if parts.count == 1, let side = Int(parts[0]), side > 0 {
            self.init(width: side, height: side)
            return
        }
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            return nil
        }
        self.init(width: width, height: height)
    }

    /// Width times height (`Int.max` past it: sides from a command line or a file can be any size).
    public var pixels: Int {
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : area
    }
    public var description: String { "\(width)x\(height)" }
}

/// How a picture fills the target size, as SwiftUI's `aspectRatio(contentMode:)` says it.
public enum ContentMode: String, Sendable, Hashable, CaseIterable {
    /// Covers the whole target, cropped around the center.
    case fill
    /// Fits inside the target, nothing cropped; the image is as large as fits.
    case fit
}

/// The file format of a rendered image.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// JPEG, PNG or WebP.
    case jpeg, png, webp

    /// The file name extension: "jpg", "png" or "webp".
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
    /// The MIME type, such as "image/jpeg".
    public var mimeType: String { "image/" + rawValue }

    /// The format a file name's extension names, if any.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        default: return nil
        }
    }
}

/// Which frame of a video.
public enum FrameTime: Sendable, Hashable {
    /// At a number of seconds from the start.
    case seconds(Double)
    /// At a fraction (0...1) of the duration.
    case fraction(Double)
    /// A representative frame: the first of a few candidates that is neither black nor blank.
    case poster

    /// Parses `12.5` (seconds), `1:05` or `1:02:03.5` (as `--trim` takes times), `25%` (of the
    /// duration) or `poster`.
    public init?(parsing text: String) {
        if text == "poster" {
            self = .poster
        } else if let percent = FrameTime.percent(parsing: text), (0...100).contains(percent) {
            self = .fraction(percent / 100)
        } else if let seconds = FrameTime.seconds(parsing: text) {
            self = .seconds(seconds)
        } else {
            return nil
        }
    }

    /// The number of a share written in digits and a point (`25%`, `150%`), whatever its size;
    /// nil for anything else (`Double` would also read `0x10%` and `1e2%`).
    public static func percent(parsing text: String) -> Double? {
        guard text.hasSuffix("%") else { return nil }
        return DecimalText.value(text.dropLast())
    }

    /// The latest time a command line can name: 99999:59:59, as `DurationLabel` shows the
    /// longest. Past it a time is no video's, and its count of a stream's ticks could overflow.
    public static let latestSeconds: Double = 359_999_999

    /// `12.5`, `m:ss(.f)` or `h:mm:ss(.f)` in seconds (`--at`, `--trim`), each part after the
    /// first under 60 (`1:90` is no time) and the whole at most `latestSeconds`; nil for anything else.
    public static func seconds(parsing text: String) -> Double? {
        // Digits and a point only: `Double` would also read `0x10` (16), `1e3`, `inf` and `nan`.
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == ":") }) else {
            return nil
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(parts.count), let last = Double(parts[parts.count - 1]), last >= 0, last.isFinite
        else { return nil }
        if parts.count > 1, last >= 60 { return nil }
        var seconds = last
        for (index, part) in parts.dropLast().reversed().enumerated() {
            guard let value = Int(part), value >= 0, index == 1 || parts.count == 2 || value < 60 else { return nil }
            seconds += Double(value) * (index == 0 ? 60 : 3600)
        }
        return seconds <= latestSeconds ? seconds : nil
    }

    /// Whether a time of a video of `duration` seconds lies past its end (only a time in
    /// seconds can: a fraction and the poster are inside by definition).
    public func isPastEnd(of duration: Double?) -> Bool {
        guard case .seconds(let seconds) = self, let duration else { return false }
        return seconds >= duration
    }

    /// Refuses a time past the end of a video of `duration` seconds, saying how long it is:
    /// every renderer (FFmpeg's, AVFoundation's) fails the same way.
    public func check(inside duration: Double?, path: String) throws(RenderError) {
        guard isPastEnd(of: duration), case .seconds(let asked) = self, let duration else { return }
        throw RenderError(
            .impossible,
            "the video is \(DurationLabel.string(seconds: duration)) long; there is no frame at "
                + DurationLabel.string(seconds: asked), path: path,
            hint: "Ask for a time inside the video, before \(DurationLabel.string(seconds: duration)).")
    }

    /// The time in seconds for a video of `duration` seconds (nil: unknown), kept inside it.
    public func seconds(in duration: Double?) -> Double {
        switch self {
        case .seconds(let seconds): return max(0, duration.map { min(seconds, max(0, $0 - 0.001)) } ?? seconds)
        case .fraction(let fraction): return max(0, (duration ?? 0) * min(1, max(0, fraction)))
        case .poster: return 0
        }
    }
}

/// How near to the asked time a video frame must be, as AVAssetImageGenerator's
/// `requestedTimeToleranceBefore/After`: the nearest keyframe (fast) or exact
/// (decoded forward from the keyframe before it).
public enum FrameTolerance: String, Sendable, Hashable {
    /// The nearest keyframe (fast), or the exact frame (decoded forward from the keyframe before it).
    case keyframe, exact
}

/// What image to make of a file.
public struct ThumbnailRequest: Sendable, Hashable {
    /// The target box; the image's pixel size follows from `mode`.
    public var size: PixelSize
    /// Fill (cropped) or fit (nothing cropped).
    public var mode: ContentMode
    /// The encoded format.
    public var format: ImageFormat
    /// 0...1, for JPEG and WebP.
    public var quality: Double
    /// Which frame of a video: a time, a share of the duration, or the poster.
    public var time: FrameTime
    /// How near the asked time the frame must be.
    public var tolerance: FrameTolerance

    /// A request for a `size` box; by default a JPEG that fills it, from a video's poster frame.
    public init(
        size: PixelSize, mode: ContentMode = .fill, format: ImageFormat = .jpeg, quality: Double = 0.8,
        time: FrameTime = .poster, tolerance: FrameTolerance = .keyframe
    ) {
        self.size = size
        self.mode = mode
        self.format = format
        self.quality = min(1, max(0, quality))
        self.time = time
        self.tolerance = tolerance
    }
}

/// An encoded image, upright.
public struct RenderedImage: Sendable, Hashable {
    /// The encoded bytes.
    public var data: [UInt8]
    /// The image's size in pixels, upright.
    public var size: PixelSize
    /// The encoded format.
    public var format: ImageFormat
    /// For video frames: the time of the frame taken, in seconds.
    public var time: Double?

    /// An image from its encoded bytes and facts.
    public init(data: [UInt8], size: PixelSize, format: ImageFormat, time: Double? = nil) {
        self.data = data
        self.size = size
        self.format = format
        self.time = time
    }
}

/// Makes thumbnails and poster frames; `PickupFFmpeg` implements it on Linux,
/// an AVFoundation implementation on Apple platforms.
public protocol ThumbnailRenderer: Sendable {
    /// One image of a still or a video frame, upright, at the requested size.
    func thumbnail(of path: String, _ request: ThumbnailRequest) async throws(RenderError) -> RenderedImage
    /// `count` frames spread over a video's duration, in order, in one pass through the file.
    func strip(of path: String, count: Int, _ request: ThumbnailRequest) async throws(RenderError) -> [RenderedImage]
}
