import ArgumentParser
import Pickup

/// The options of the commands that run in `pickup-render` (the tool that links FFmpeg), shared
/// with `pickup`, which lists them in its help and its completion scripts and hands them over.
extension RenderCommands {
    /// `pickup thumb`.
    public static let thumb = CommandConfiguration(
        commandName: "thumb",
        abstract: thumbAbstract,
        discussion: """
            Rotation and mirroring are applied: a portrait iPhone video stored sideways gives a \
            portrait thumbnail. The poster frame is the first of a few candidates that is neither \
            black nor blank. JPEGs are decoded at 1/2, 1/4 or 1/8 scale when the box is that much \
            smaller; HEIC and AVIF use their embedded thumbnail when it is big enough. Images are \
            written atomically, named NAME-thumb.EXT (NAME-strip-01.EXT ... for strips; a NAME \
            longer than 150 bytes is shortened). Several images go to a folder, never to one \
            image's name. An image that exists is not replaced without --force, and an input is \
            never written over; run again on a folder, an image made as asked from the file as it \
            is now is left as it is (already there), one made before the file changed or with other \
            options (--size, --at...) is made again, and a file Pickup did not make is refused. \
            Another file of the same name takes NAME (EXT) or NAME (FOLDER), in one run or the next, \
            and a file keeps the name an earlier run gave its images. Each image keeps how it was made in an \
            extended attribute (user.pickup.made; where the file system keeps none, an image made \
            after its file last changed counts as already there).

            Exit status: 0 when every file gave its images, 1 when any failed, 2 for a usage mistake.
            """
                + Examples.text([
                    "pickup thumb IMG_0001.MOV --size 512x512",
                    "pickup thumb clip.mp4 --at 25% --fit --size 640x360 --format webp -o clip.webp",
                    "pickup thumb clip.mp4 --strip 10 --size 160x90 -o strip/",
                ]))

    /// `pickup export`.
    public static let export = CommandConfiguration(
        commandName: "export",
        abstract: exportAbstract,
        discussion: """
            When the video already fits the preset (codec, size, bit rate) it is remuxed, not encoded: \
            fast and lossless. Otherwise it is encoded with x264 or x265 at constant quality, capped at \
            the preset's bit rate, and audio that is not AAC becomes AAC. The creation date and the \
            rotation are kept. With --max-size the bit rate is planned to fit. The output is written \
            to a hidden file beside it and renamed when complete: a failure or Ctrl-C leaves nothing. \
            An output that exists is not replaced without --force, and the input is never written over; \
            run again on a folder, an export made as asked from the video as it is now is left as it \
            is, one made before the video changed or with other options (--preset, --trim, \
            --strip-location...) is made again, and a file Pickup did not make is refused. Another \
            video of the same name takes NAME (EXT) or NAME (FOLDER), in one run or the next, and a \
            video keeps the name an earlier run gave its export.

            Exit status: 0 when the export is written, 1 when it failed, 2 for a usage mistake, \
            130 when interrupted (143 for SIGTERM).
            """
                + Examples.text([
                    "pickup export IMG_0001.MOV --preset 1920x1080 -o upload.mp4",
                    "pickup export clip.mov --preset passthrough --trim 0:05-0:20 --strip-location",
                    "pickup export long.mp4 --preset highest --max-size 25MB --compatible",
                    "pickup export Movies/ -r --preset 1920x1080 -o upload/ --dry-run",
                ]))
}

/// The arguments and options of `pickup thumb`.
public struct ThumbArguments: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "Photos (JPEG, PNG, WebP, GIF, HEIC, AVIF) and videos; with --recursive, folders too.",
            valueName: "FILE|DIR"),
        completion: .file())
    public var arguments: [String] = []

    @Flag(
        name: [.customLong("recursive"), .customShort("r")],
        help: "Make thumbnails of the photos and videos in the folders named, and below them (hidden files skipped).")
    public var recursive = false

    @OptionGroup public var files: FileListOptions

    @Option(
        name: [.customLong("at")],
        help: ArgumentHelp(
            "Video frame: seconds (12.5), m:ss (1:05), a share of the duration (25%), or poster (the first frame "
                + "that is neither black nor blank); a time past the end is an error.",
            valueName: "T"),
        completion: .list(["poster"]))
    public var at = "poster"

    @Option(
        name: [.customLong("size")], help: ArgumentHelp("The box to fill or fit.", valueName: "WxH"))
    public var size = "320x320"

    @Flag(name: [.customLong("fill")], help: "Cover the whole box, cropped around the center (the default).")
    public var fill = false

    @Flag(name: [.customLong("fit")], help: "Fit inside the box, nothing cropped.")
    public var fit = false

    @Flag(
        name: [.customLong("exact")], help: "The frame at that very time (decoded forward), not the keyframe before it."
    )
    public var exact = false

    @Option(
        name: [.customLong("strip")],
        help: ArgumentHelp("N frames (1 to 200) spread over a video's duration instead of one.", valueName: "N"))
    public var strip: Int?

    @Option(
        name: [.customLong("format")], help: ArgumentHelp("jpeg (default), png or webp.", valueName: "FORMAT"),
        completion: .list(["jpeg", "png", "webp"]))
    public var format: String?

    @Option(
        name: [.customLong("quality")],
        help: ArgumentHelp("JPEG and WebP quality from 0 to 1.", valueName: "Q"))
    public var quality = "0.8"

    @Option(
        name: [.customLong("output"), .customShort("o")],
        help: ArgumentHelp(
            "The image (one file named, one frame) or a folder (default: the current folder; a folder, "
                + "several files or a strip need a folder).", valueName: "PATH"),
        completion: .file())
    public var output: String?

    @Flag(name: [.customLong("force")], help: "Replace images that exist already.")
    public var force = false

    @Flag(
        name: [.customLong("dry-run")],
        help: "Say which images would be written, and from which file; render and write nothing.")
    public var dryRun = false

    @Flag(name: [.customLong("json")], help: "Print one JSON object a line.")
    public var json = false

    @Flag(
        name: [.customShort("q"), .customLong("quiet")],
        help: "Only results and failures: no notes on standard error about files passed over.")
    public var quiet = false

    /// No options given.
    public init() {}
}

/// The arguments and options of `pickup export`.
public struct ExportArguments: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "Videos (MP4, MOV, M4V, 3GP, WebM, MKV); with --recursive, folders too. With several, -o names a folder.",
            valueName: "FILE|DIR"),
        completion: .file())
    public var arguments: [String] = []

    @Flag(
        name: [.customLong("recursive"), .customShort("r")],
        help: "Export the videos in the folders named, and below them, into the folder -o names.")
    public var recursive = false

    @OptionGroup public var files: FileListOptions

    @Option(
        name: [.customLong("preset")],
        help: ArgumentHelp(
            "Required: passthrough, low, medium, highest, 640x480, 960x540, 1280x720, 1920x1080, 3840x2160, "
                + "hevc-1920x1080, hevc-3840x2160 or hevc-highest.", valueName: "NAME"),
        completion: .list(ExportPreset.allCases.map(\.rawValue)))
    public var preset: String?

    @Option(
        name: [.customLong("output"), .customShort("o")],
        help: ArgumentHelp(
            "The file to write (without -o: NAME-PRESET.mp4 here, named after the video and the preset); a "
                + "folder for a folder or several videos.",
            valueName: "OUT"),
        completion: .file())
    public var output: String?

    @Option(
        name: [.customLong("trim")],
        help: ArgumentHelp(
            "Keep only this part: seconds or m:ss, like 1.5-10 or 0:05-1:30; 0:05- keeps from 0:05 to the end, "
                + "--trim=-10 the first 10 s.",
            valueName: "START-END"))
    public var trim: String?

    @Flag(
        name: [.customLong("strip-location")],
        help: "Leave out the location, make, model, software and content identifier.")
    public var stripLocation = false

    // Taken whatever it looks like, so that `--max-size -5M` is told what a size is, not that
    // the value is missing.
    @Option(
        name: [.customLong("max-size")], parsing: .unconditional,
        help: ArgumentHelp("The largest file to write: 25MB, 800k, 1.5G, 25MiB or bytes.", valueName: "SIZE"))
    public var maxSize: String?

    @Flag(name: [.customLong("mov")], help: "Write QuickTime (.mov) instead of MP4.")
    public var mov = false

    @Flag(name: [.customLong("compatible")], help: "Turn HEVC into H.264 even when it would fit.")
    public var compatible = false

    @Flag(name: [.customLong("force")], help: "Replace the output if it exists already.")
    public var force = false

    @Flag(
        name: [.customLong("dry-run")],
        help: "Say what each export would be (remux or encode, and why) and where it would go; write nothing.")
    public var dryRun = false

    @Flag(name: [.customLong("json")], help: "Print the plan and the result as JSON objects.")
    public var json = false

    @OptionGroup public var progress: ProgressOptions

    /// No options given.
    public init() {}
}
