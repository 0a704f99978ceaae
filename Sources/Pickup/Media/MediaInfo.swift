/// What a media file is: the facts Pickup reads from its bytes.
///
/// Every fact is optional where a format may lack it. Sizes are in pixels,
/// durations in seconds, places in decimal degrees and metres. The
/// conventions for rotation, duration and dates are those of DESIGN.md:
/// ``orientation`` is the clockwise turn (after an optional mirroring) that
/// makes the stored picture stand upright; ``duration`` is what a player
/// shows; ``creationDate`` keeps the zone the file gives.
public struct MediaInfo: Sendable, Hashable, Codable {
    /// Image, video or audio, from the content.
    public var kind: MediaKind
    /// The file format that wraps the media.
    public var container: Container
    /// Size of the file in bytes.
    public var fileSize: Int64

    /// Codec of the first video track, in ffprobe's names (`h264`, `hevc`, `av1`, `vp9`, `prores`...).
    public var videoCodec: String?
    /// Codec of the first audio track (`aac`, `opus`, `pcm_s16le`, `amr_nb`...).
    public var audioCodec: String?
    /// Codec of a still image (`jpeg`, `png`, `gif`, `webp`, `hevc`, `av1`).
    public var imageCodec: String?

    /// Stored width of the picture, before any rotation.
    public var width: Int?
    /// Stored height of the picture, before any rotation.
    public var height: Int?
    /// The turn and mirroring that make the picture upright.
    public var orientation: Orientation = .upright
    /// The EXIF `Orientation` tag (1...8) when the file has one; images without it report 1.
    /// For HEIF this is reported but not applied: HEIF's `irot`/`imir` decide.
    public var exifOrientation: Int?

    /// Seconds, as a player shows it.
    public var duration: Double?
    /// Frames per second of the video track (average over the track).
    public var frameRate: Double?
    /// Bits per colour sample of the picture (8, 10, 12...).
    public var bitDepth: Int?
    /// The HDR transfer function, when the picture is HDR.
    public var hdr: HDRTransfer?

    /// Channels of the first audio track.
    public var audioChannels: Int?
    /// Sample rate of the first audio track, in Hz.
    public var audioSampleRate: Int?

    /// When the picture or movie was taken.
    public var creationDate: MediaDate?
    /// Where it was taken.
    public var location: GeoLocation?
    /// The camera's maker, such as "Apple".
    public var make: String?
    /// The camera's model, such as "iPhone 16 Pro".
    public var model: String?
    /// The software that wrote the file, such as "17.4" or an editor's name.
    public var software: String?
    /// Apple's Live Photo content identifier, shared by a still and its movie.
    public var contentIdentifier: String?

    /// Signals of how the picture was made (screenshot, burst, panorama, depth...),
    /// from metadata the file carries. ``MediaFilter`` decides with them.
    public var capture = CaptureHints()

    /// Whether the image has more than one frame.
    public var animated: Bool = false
    /// Frames of an animated image.
    public var frameCount: Int?
    /// Whether the picture has an alpha channel.
    public var alpha: Bool = false
    /// Where a camera's raw photo keeps its largest JPEG preview, which its thumbnails are made
    /// from (nothing in Pickup decodes a sensor's data); nil for every other file.
    public var preview: ByteRange?

    /// Facts with only the kind, the container and the file's size known; the probe fills in the rest.
    public init(kind: MediaKind, container: Container, fileSize: Int64) {
        self.kind = kind
        self.container = container
        self.fileSize = fileSize
    }

    /// Width once the picture stands upright.
    public var displayWidth: Int? { orientation.rotation.swapsDimensions ? height : width }
    /// Height once the picture stands upright.
    public var displayHeight: Int? { orientation.rotation.swapsDimensions ? width : height }
    /// The clockwise turn the stored picture needs to stand upright.
    public var rotation: Rotation { orientation.rotation }

    /// The part this file plays in a Live Photo, when it carries a content identifier.
    public var livePhotoRole: LivePhotoRole? {
        guard contentIdentifier != nil else { return nil }
        switch kind {
        case .image: return .still
        case .video: return .movie
        case .audio: return nil
        }
    }
}
