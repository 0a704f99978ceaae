import Foundation
import Synchronization

/// Media files made at test time with real encoders (ffmpeg, exiftool,
/// heif-enc), cached in the temporary folder by recipe so that a second run
/// does not make them again. `scripts/setup.sh` installs the tools.
public enum Fixture: String, CaseIterable, Sendable {
    case mp4Rotated90 = "rotated-90.mp4"
    /// Upright it is 180x320, red above blue; stored turned a quarter right (320x180) with a
    /// 90° rotation to show it: the sideways-thumbnail trap.
    case mp4PortraitStored = "portrait-stored.mp4"
    /// Two seconds of black, then two of a test pattern, a keyframe every half second.
    case mp4BlackStart = "black-start.mp4"
    /// Upright 240x320, red above blue; stored turned a quarter left with EXIF orientation 6.
    case jpegOrientation6 = "orientation-6.jpg"
    case mp4MoovAtEnd = "moov-at-end.mp4"
    case mp4Large = "large.mp4"
    case mp4Faststart = "faststart.mp4"
    case movAppleKeys = "apple-keys.mov"
    case mp4AndroidLocation = "android-location.mp4"
    case mp4Fragmented = "fragmented.mp4"
    case movHEVC10BitHLG = "hevc-10bit-hlg.mov"
    case movProRes = "prores.mov"
    case m4aAudio = "audio.m4a"
    case webmVP9Opus = "vp9-opus.webm"
    case mkvH264AAC = "h264-aac.mkv"
    case threeGP = "clip.3gp"
    case mp4AV1 = "av1.mp4"
    case jpegEXIF = "exif.jpg"
    case jpegPlain = "plain.jpg"
    case pngRGBA = "rgba.png"
    case pngEXIF = "exif.png"
    case apng = "animated.apng"
    case gifAnimated = "animated.gif"
    case webpLossy = "lossy.webp"
    case webpLossless = "lossless.webp"
    case webpAnimated = "animated.webp"
    case webpEXIF = "exif.webp"
    case heic = "still.heic"
    case heicGPS = "gps.heic"
    case heicAlpha = "alpha.heic"
    case avif = "still.avif"
    /// 64x48, camera, date and GPS written by exiftool (which puts IFD0 first).
    case tiffEXIF = "exif.tif"
    /// 64x48 red, 16 bits a sample, orientation 6, written by ImageMagick (IFD0 after the pixels).
    case tiffOrientation6 = "orientation-6.tif"
    /// A TIFF that exiftool made a DNG by giving IFD0 a DNGVersion.
    case dng = "exiftool.dng"

    /// Shell commands that make the file at `$OUT` (a scratch folder is `$DIR`).
    var recipe: String {
        let ff = "ffmpeg -hide_banner -loglevel error -y"
        let video = "-f lavfi -i testsrc2=size=320x240:rate=25:duration=1"
        let tone = "-f lavfi -i sine=frequency=440:sample_rate=44100:duration=1"
        let x264 = "-c:v libx264 -preset ultrafast -pix_fmt yuv420p"
        switch self {
        case .mp4Rotated90:
            return "\(ff) \(video) \(x264) $DIR/a.mp4 && \(ff) -i $DIR/a.mp4 -c copy -metadata:s:v:0 rotate=270 $OUT"
        case .mp4MoovAtEnd:
            return "\(ff) \(video) \(tone) \(x264) -c:a aac -shortest $OUT"
        case .mp4PortraitStored:
            return """
                \(ff) -f lavfi -i color=red:s=180x160:r=25:d=2 -f lavfi -i color=blue:s=180x160:r=25:d=2 \
                -filter_complex "[0][1]vstack,transpose=1" \(x264) $DIR/a.mp4 && \(ff) -i $DIR/a.mp4 -c copy \
                -metadata:s:v:0 rotate=90 $OUT
                """
        case .mp4BlackStart:
            return """
                \(ff) -f lavfi -i color=black:s=320x240:r=25:d=2 -f lavfi -i testsrc2=size=320x240:rate=25:duration=2 \
                \(tone) -filter_complex "[0][1]concat=n=2:v=1:a=0[v]" -map "[v]" -map 2:a -g 12 \(x264) -c:a aac $OUT
                """
        case .jpegOrientation6:
            return """
                \(ff) -f lavfi -i color=red:s=240x160 -f lavfi -i color=blue:s=240x160 \
                -filter_complex "[0][1]vstack,transpose=2" -frames:v 1 $OUT && \
                exiftool -q -overwrite_original -Orientation#=6 $OUT
                """
        case .mp4Large:
            return "\(ff) -f lavfi -i testsrc2=size=1280x720:rate=30:duration=4 \(x264) -crf 10 $OUT"
        case .mp4Faststart:
            return "\(ff) \(video) \(tone) \(x264) -c:a aac -shortest -movflags +faststart $OUT"
        case .movAppleKeys:
            return """
                \(ff) \(video) \(tone) -c:v libx265 -x265-params log-level=error -preset ultrafast -tag:v hvc1 \
                -pix_fmt yuv420p -c:a aac -shortest $DIR/a.mov && \(ff) -i $DIR/a.mov -c copy \
                -metadata:s:v:0 rotate=90 -movflags use_metadata_tags \
                -metadata com.apple.quicktime.content.identifier=1E2D3C4B-5A69-7887-96A5-B4C3D2E1F001 \
                -metadata com.apple.quicktime.location.ISO6709=-33.8568+151.2153+005.000/ \
                -metadata com.apple.quicktime.creationdate=2024-05-06T10:20:30+0930 \
                -metadata com.apple.quicktime.make=Apple -metadata "com.apple.quicktime.model=iPhone 15 Pro" \
                -metadata com.apple.quicktime.software=17.4.1 \
                -metadata creation_time=2024-05-06T00:50:30Z -f mov $OUT
                """
        case .mp4AndroidLocation:
            return
                "\(ff) \(video) \(x264) -metadata location=+37.7749-122.4194/ -metadata creation_time=2022-07-01T09:30:00Z $OUT"
        case .mp4Fragmented:
            return
                "\(ff) -f lavfi -i testsrc2=size=320x240:rate=30:duration=2 \(x264) -g 15 -movflags frag_keyframe+empty_moov+default_base_moof $OUT"
        case .movHEVC10BitHLG:
            return """
                \(ff) \(video) -c:v libx265 -preset ultrafast -x265-params log-level=error -pix_fmt yuv420p10le \
                -tag:v hvc1 -color_primaries bt2020 -color_trc arib-std-b67 -colorspace bt2020nc -f mov $OUT
                """
        case .movProRes:
            return
                "\(ff) \(video) -f lavfi -i sine=sample_rate=48000:duration=1 -c:v prores_ks -profile:v 0 -c:a pcm_s16le -shortest $OUT"
        case .m4aAudio:
            return "\(ff) -f lavfi -i sine=frequency=440:sample_rate=44100:duration=2 -ac 2 -c:a aac $OUT"
        case .webmVP9Opus:
            return
                "\(ff) \(video) -f lavfi -i sine=sample_rate=48000:duration=1 -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -c:a libopus -shortest $OUT"
        case .mkvH264AAC:
            return "\(ff) \(video) \(tone) \(x264) -c:a aac -shortest $OUT"
        case .threeGP:
            return "\(ff) -f lavfi -i testsrc2=size=176x144:rate=15:duration=1 \(x264) -f 3gp $OUT"
        case .mp4AV1:
            return "\(ff) \(video) -c:v libsvtav1 -preset 12 -pix_fmt yuv420p $OUT"
        case .jpegEXIF:
            return """
                \(ff) -f lavfi -i testsrc2=size=640x480 -frames:v 1 $OUT && exiftool -q -overwrite_original \
                -Make=Apple "-Model=iPhone 15 Pro" -Software=17.4 -Orientation#=8 \
                "-DateTimeOriginal=2024:05:06 10:20:30" -OffsetTimeOriginal=-03:00 \
                -GPSLatitude=22.9519 -GPSLatitudeRef=S -GPSLongitude=43.2105 -GPSLongitudeRef=W \
                -GPSAltitude=12.5 -GPSAltitudeRef#=1 $OUT
                """
        case .jpegPlain:
            return "\(ff) -f lavfi -i testsrc2=size=800x600 -frames:v 1 $OUT"
        case .pngRGBA:
            return "\(ff) -f lavfi -i testsrc2=size=300x200 -frames:v 1 -pix_fmt rgba $OUT"
        case .pngEXIF:
            return """
                \(ff) -f lavfi -i testsrc2=size=300x200 -frames:v 1 $OUT && exiftool -q -overwrite_original \
                -Make=Pickup -Orientation#=3 "-DateTimeOriginal=2020:02:03 04:05:06" $OUT
                """
        case .apng:
            return "\(ff) -f lavfi -i testsrc2=size=64x48:rate=10:duration=1 -plays 0 -f apng $OUT"
        case .gifAnimated:
            return "\(ff) -f lavfi -i testsrc2=size=160x120:rate=10:duration=1 $OUT"
        case .webpLossy:
            return "\(ff) -f lavfi -i testsrc2=size=640x480 -frames:v 1 -c:v libwebp -quality 60 $OUT"
        case .webpLossless:
            return "\(ff) -f lavfi -i testsrc2=size=320x240 -frames:v 1 -c:v libwebp -lossless 1 $OUT"
        case .webpAnimated:
            return "\(ff) -f lavfi -i testsrc2=size=160x120:rate=10:duration=1 -c:v libwebp_anim -loop 0 $OUT"
        case .webpEXIF:
            return """
                \(ff) -f lavfi -i testsrc2=size=200x100 -frames:v 1 -c:v libwebp $OUT && exiftool -q -overwrite_original \
                -Make=HTC "-Model=HTC Desire" -Orientation#=6 -GPSLatitude=45.5 -GPSLatitudeRef=N \
                -GPSLongitude=9.11 -GPSLongitudeRef=E $OUT
                """
        case .heic:
            return """
                \(ff) -f lavfi -i testsrc2=size=640x480 -frames:v 1 $DIR/a.png && heif-enc -q 40 -o $OUT $DIR/a.png \
                && exiftool -q -overwrite_original -Make=Apple "-Model=iPhone 12" \
                "-DateTimeOriginal=2021:03:04 05:06:07" -OffsetTimeOriginal=-05:00 $OUT
                """
        case .heicGPS:
            return """
                \(ff) -f lavfi -i testsrc2=size=640x480 -frames:v 1 $DIR/a.png && heif-enc -q 40 -o $OUT $DIR/a.png \
                && exiftool -q -overwrite_original -Make=Apple "-Model=iPhone 15 Pro" -Orientation#=6 \
                "-DateTimeOriginal=2024:06:01 12:34:56" -OffsetTimeOriginal=+02:00 -GPSLatitude=48.8584 \
                -GPSLatitudeRef=N -GPSLongitude=2.2945 -GPSLongitudeRef=E -GPSAltitude=35 -XMP:GPSLatitude=48.8584 \
                -XMP:GPSLongitude=2.2945 -XMP-photoshop:City=Paris $OUT
                """
        case .heicAlpha:
            return
                "\(ff) -f lavfi -i testsrc2=size=128x96 -frames:v 1 -pix_fmt rgba $DIR/a.png && heif-enc -q 40 -o $OUT $DIR/a.png"
        case .avif:
            return
                "\(ff) -f lavfi -i testsrc2=size=640x480 -frames:v 1 $DIR/a.png && heif-enc --avif -q 40 -o $OUT $DIR/a.png"
        case .tiffEXIF:
            return """
                \(ff) -f lavfi -i testsrc2=size=64x48 -frames:v 1 $OUT && exiftool -q -overwrite_original -Make=Nikon \
                -Model=D850 "-DateTimeOriginal=2022:05:06 07:08:09" -OffsetTimeOriginal=+09:00 -GPSLatitude=35.6586 \
                -GPSLatitudeRef=N -GPSLongitude=139.7454 -GPSLongitudeRef=E $OUT
                """
        case .tiffOrientation6:
            return "convert -size 64x48 xc:red -orient RightTop $OUT"
        case .dng:
            return """
                \(ff) -f lavfi -i testsrc2=size=96x64 -frames:v 1 $DIR/a.tif && exiftool -q -o $OUT -Make=Apple \
                "-Model=iPhone 15 Pro" -Orientation#=8 -IFD0:DNGVersion=1.6.0.0 $DIR/a.tif
                """
        }
    }
}

public enum Fixtures {
    private static let made = Mutex<[Fixture: String]>([:])

    /// The path of `fixture`, made now if no earlier run made it.
    public static func path(_ fixture: Fixture) throws -> String {
        try made.withLock { cache in
            if let path = cache[fixture] { return path }
            let folder = cacheFolder.appendingPathComponent(String(stableHash(fixture.recipe), radix: 16))
            let path = folder.appendingPathComponent(fixture.rawValue).path
            if !FileManager.default.fileExists(atPath: path) {
                try make(fixture, in: folder)
            }
            cache[fixture] = path
            return path
        }
    }

    /// A media file made now by `ffmpeg -v error ARGUMENTS OUT` for one test (not cached): its
    /// path, in a new temporary file named `*.EXTENSION`; the test removes it.
    public static func ffmpeg(_ arguments: String, as fileExtension: String) throws -> String {
        let path = Temporary.path("made", suffix: ".\(fileExtension)")
        let made = try Shell.run("ffmpeg -v error \(arguments) \"$OUT\"", environment: ["OUT": path])
        guard made.status == 0 else {
            throw FixtureError(message: "ffmpeg \(arguments) failed: \(made.errorText)")
        }
        return path
    }

    /// The bytes of `fixture`.
    public static func bytes(_ fixture: Fixture) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: try path(fixture))))
    }

    static let cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("pickup-fixtures")

    private static func make(_ fixture: Fixture, in folder: URL) throws {
        let scratch = folder.appendingPathComponent(
            "scratch-\(ProcessInfo.processInfo.processIdentifier)-\(fixture.rawValue)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { Temporary.remove(scratch) }
        let temporary = scratch.appendingPathComponent(fixture.rawValue)
        let result = try Shell.run(fixture.recipe, environment: ["OUT": temporary.path, "DIR": scratch.path])
        guard result.status == 0, FileManager.default.fileExists(atPath: temporary.path) else {
            throw FixtureError(
                message: "could not make fixture \(fixture.rawValue) (status \(result.status)): \(result.errorText)\n"
                    + "Run scripts/setup.sh to install ffmpeg, exiftool and heif-enc.")
        }
        // Rename into place: a concurrent run sees the whole file or none.
        let final = folder.appendingPathComponent(fixture.rawValue)
        if rename(temporary.path, final.path) != 0, !FileManager.default.fileExists(atPath: final.path) {
            throw FixtureError(message: "could not move fixture \(fixture.rawValue) into place")
        }
    }

    /// A seed for a fixture's random tests, the same on every run.
    public static func stableSeed(_ name: String) -> UInt64 { stableHash(name) }

    /// FNV-1a, stable across runs (Swift's Hasher is seeded per process).
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}

public struct FixtureError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// Runs shell commands for fixtures and end-to-end tests.
public enum Shell {
    public struct Result: Sendable {
        public let status: Int32
        public let output: [UInt8]
        public let error: [UInt8]
        public var outputText: String { String(decoding: output, as: UTF8.self) }
        public var errorText: String { String(decoding: error, as: UTF8.self) }
    }

    public static func run(_ command: String, environment: [String: String] = [:]) throws -> Result {
        try execute("/bin/bash", ["-c", command], environment: environment)
    }

    /// Runs `executable` with `arguments`, collecting its output.
    public static func execute(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:]
    )
        throws -> Result
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        // Standard error goes to a file, so neither pipe can fill up and block the process.
        let errorURL = Temporary.url("stderr")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer { Temporary.remove(errorURL) }
        let errorHandle = try FileHandle(forWritingTo: errorURL)
        process.standardOutput = out
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errorHandle.close()
        let errorData = (try? Data(contentsOf: errorURL)) ?? Data()
        return Result(
            status: process.terminationStatus, output: [UInt8](output), error: [UInt8](errorData))
    }
}
