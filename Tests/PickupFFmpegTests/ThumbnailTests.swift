import Foundation
import Pickup
import PickupFFmpeg
import PickupTestSupport
import Testing

/// Reads an encoded image back with the ffmpeg tool (an independent decoder): its size and pixels.
struct DecodedPicture {
    let width: Int
    let height: Int
    let pixels: [UInt8]

    init(_ image: RenderedImage) throws {
        let path = Temporary.path("thumb", suffix: ".\(image.format.fileExtension)")
        try Data(image.data).write(to: URL(fileURLWithPath: path))
        defer { Temporary.remove(path) }
        let probe = try Shell.run(
            "ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0 \"$F\"",
            environment: ["F": path])
        let sides = probe.outputText.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap {
            Int($0)
        }
        try #require(sides.count == 2, "ffprobe reads the image: \(probe.errorText)")
        width = sides[0]
        height = sides[1]
        let raw = try Shell.run(
            "ffmpeg -v error -i \"$F\" -f rawvideo -pix_fmt rgb24 -", environment: ["F": path])
        pixels = raw.output
    }

    /// The color at a point given as fractions of the width and height.
    func color(x: Double, y: Double) -> (r: Int, g: Int, b: Int) {
        let px = min(width - 1, Int(Double(width) * x))
        let py = min(height - 1, Int(Double(height) * y))
        let index = (py * width + px) * 3
        guard index + 2 < pixels.count else { return (0, 0, 0) }
        return (Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]))
    }

    func isRed(x: Double, y: Double) -> Bool {
        let c = color(x: x, y: y)
        return c.r > 180 && c.g < 80 && c.b < 80
    }

    func isBlue(x: Double, y: Double) -> Bool {
        let c = color(x: x, y: y)
        return c.b > 180 && c.r < 80 && c.g < 80
    }
}

@Suite("thumbnails and poster frames (FFmpeg, libheif)")
struct ThumbnailTests {
    let renderer = FFmpegThumbnailer()

    @Test(
        "codecs whose size is in the bitstream, not the container: MPEG-4 Part 2 in MP4, H.263 in 3GP",
        arguments: [("mpeg4", "mp4", 320, 240), ("h263", "3gp", 176, 144)])
    func sizeFromTheBitstream(_ codec: String, _ container: String, _ width: Int, _ height: Int) async throws {
        let path = try Fixtures.ffmpeg(
            "-f lavfi -i testsrc=size=\(width)x\(height):rate=10 -t 1 -c:v \(codec)", as: container)
        defer { Temporary.remove(path) }
        let image = try await renderer.thumbnail(
            of: path, ThumbnailRequest(size: PixelSize(width: 1000, height: 1000), mode: .fit))
        let decoded = try DecodedPicture(image)
        #expect(decoded.width == width && decoded.height == height)
    }

    @Test("a strip of a video with one keyframe gives distinct frames, each near its time; --at 5 is at 5 s")
    func stripOfLongGOP() async throws {
        let path = try Fixtures.ffmpeg(
            "-f lavfi -i testsrc=size=320x240:rate=25 -t 10 -c:v libx264 "
                + "-x264-params keyint=1000:min-keyint=1000:scenecut=0", as: "mp4")
        defer { Temporary.remove(path) }
        let strip = try await renderer.strip(
            of: path, count: 5, ThumbnailRequest(size: PixelSize(width: 160, height: 120)))
        let times = strip.compactMap(\.time)
        #expect(times.count == 5 && Set(times).count == 5, "\(times)")
        for (index, time) in times.enumerated() {
            #expect(abs(time - (Double(index) * 2 + 1)) <= 1.0, "frame \(index) at \(time) s")
        }
        #expect(Set(strip.map(\.data)).count == 5)
        // One frame at 5 s is the frame at 5 s, not the keyframe at 0:00.
        let five = try await renderer.thumbnail(
            of: path, ThumbnailRequest(size: PixelSize(width: 160, height: 120), time: .seconds(5)))
        #expect(abs((five.time ?? 0) - 5) < 0.1, "\(five.time ?? -1)")
    }

    @Test("animated WebP, with and without alpha: its first frame")
    func animatedWebP() async throws {
        let plain = try await renderer.thumbnail(
            of: try Fixtures.path(.webpAnimated), ThumbnailRequest(size: PixelSize(width: 320, height: 320), mode: .fit)
        )
        let decoded = try DecodedPicture(plain)
        #expect(decoded.width == 160 && decoded.height == 120)
        #expect(Set(decoded.pixels).count > 16, "a picture, not a blank")
        let path = try Fixtures.ffmpeg(
            "-f lavfi -i testsrc2=size=96x64:rate=10:duration=1,format=yuva420p -c:v libwebp_anim -lossless 0 "
                + "-loop 0", as: "webp")
        defer { Temporary.remove(path) }
        let alpha = try await renderer.thumbnail(
            of: path, ThumbnailRequest(size: PixelSize(width: 96, height: 64), mode: .fit, format: .png))
        #expect(alpha.size == PixelSize(width: 96, height: 64))
    }

    @Test("a portrait video stored sideways comes out upright: red above blue, taller than wide")
    func uprightVideo() async throws {
        let image = try await renderer.thumbnail(
            of: try Fixtures.path(.mp4PortraitStored),
            ThumbnailRequest(size: PixelSize(width: 90, height: 160), mode: .fit, format: .png, time: .seconds(0.5)))
        let picture = try DecodedPicture(image)
        #expect(picture.width == 90 && picture.height == 160)
        #expect(image.size == PixelSize(width: 90, height: 160))
        #expect(picture.isRed(x: 0.5, y: 0.2) && picture.isBlue(x: 0.5, y: 0.8))
    }

    @Test("a JPEG with EXIF orientation 6 comes out upright, decoded at reduced scale when small")
    func uprightJPEG() async throws {
        let path = try Fixtures.path(.jpegOrientation6)
        for size in [PixelSize(width: 60, height: 80), PixelSize(width: 240, height: 320)] {
            let image = try await renderer.thumbnail(
                of: path, ThumbnailRequest(size: size, mode: .fit, format: .jpeg, quality: 0.9))
            let picture = try DecodedPicture(image)
            #expect(picture.width == size.width && picture.height == size.height)
            #expect(picture.isRed(x: 0.5, y: 0.2) && picture.isBlue(x: 0.5, y: 0.8))
        }
    }

    @Test("a camera's raw photo: its JPEG preview, turned upright by the raw's orientation; none, and it says so")
    func rawPreview() async throws {
        // The preview as the camera stores it: sideways (red left, blue right), no orientation of its own.
        let folder = Temporary.path("raw-preview")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { Temporary.remove(folder) }
        let made = try Shell.run(
            "ffmpeg -v error -f lavfi -i color=red:size=160x240 -f lavfi -i color=blue:size=160x240 "
                + "-filter_complex hstack -frames:v 1 -y \"$D/preview.jpg\"", environment: ["D": folder])
        try #require(made.status == 0, "\(made.errorText)")
        let preview = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/preview.jpg")))
        var exif = TIFFBuilder()
        exif.ifd0 = [(0x010F, .ascii("FUJIFILM")), (0x0112, .short(6))]
        // The RAF's preview carries the EXIF: the JPEG again, with an APP1 before its frame.
        var app1 = ByteWriter()
        app1.append([0xFF, 0xD8, 0xFF, 0xE1])
        app1.u16(UInt16(2 + 6 + exif.build().count))
        app1.ascii("Exif\0\0")
        app1.append(exif.build())
        let withEXIF = app1.bytes + preview.dropFirst(2)
        let raf = folder + "/DSCF0001.RAF"
        try Data(RawPhotoBuilder.raf(preview: withEXIF)).write(to: URL(fileURLWithPath: raf))

        // A NEF: the preview after the IFDs, named by IFD0's JPEGInterchangeFormat and its length.
        var nef = TIFFBuilder(littleEndian: true)
        func ifd0(_ at: UInt32) -> [(UInt16, TIFFBuilder.Value)] {
            [
                (0x010F, .ascii("NIKON CORPORATION")), (0x0112, .short(6)), (0x0201, .long(at)),
                (0x0202, .long(UInt32(preview.count))),
            ]
        }
        nef.ifd0 = ifd0(0)
        nef.subIFDs = [[(0x0100, .long(6048)), (0x0101, .long(4024)), (0x0106, .short(32803))]]
        let at = UInt32(nef.build().count)
        nef.ifd0 = ifd0(at)
        let nefPath = folder + "/DSC_0001.NEF"
        try Data(nef.build() + preview).write(to: URL(fileURLWithPath: nefPath))

        for path in [raf, nefPath] {
            let image = try await renderer.thumbnail(
                of: path, ThumbnailRequest(size: PixelSize(width: 60, height: 80), mode: .fit, format: .png))
            let picture = try DecodedPicture(image)
            #expect(picture.width == 60 && picture.height == 80, "\(path)")
            #expect(picture.isRed(x: 0.5, y: 0.2) && picture.isBlue(x: 0.5, y: 0.8), "\(path)")
        }

        // No preview: refused, saying why and what to do, never taken for a damaged file.
        let bare = folder + "/DSCF0002.RAF"
        try Data(RawPhotoBuilder.raf(preview: [])).write(to: URL(fileURLWithPath: bare))
        await #expect {
            try await renderer.thumbnail(of: bare, ThumbnailRequest(size: PixelSize(width: 60, height: 80)))
        } throws: { error in
            let error = error as? RenderError
            return error?.code == .unsupported && error?.message.contains("no JPEG preview") == true
                && error?.hint.contains("RAW+JPEG") == true
        }
    }

    @Test("fill crops around the center to the exact size; fit keeps the whole picture inside")
    func fillAndFit() async throws {
        let path = try Fixtures.path(.mp4Large)  // 1280x720
        let fill = try await renderer.thumbnail(
            of: path, ThumbnailRequest(size: PixelSize(width: 200, height: 200), mode: .fill, time: .seconds(1)))
        #expect(fill.size == PixelSize(width: 200, height: 200))
        let fit = try await renderer.thumbnail(
            of: path, ThumbnailRequest(size: PixelSize(width: 200, height: 200), mode: .fit, time: .seconds(1)))
        #expect(fit.size == PixelSize(width: 200, height: 113))
        let picture = try DecodedPicture(fit)
        #expect(picture.width == 200 && picture.height == 113)
        #expect(fill.data.starts(with: [0xFF, 0xD8, 0xFF]), "JPEG")
    }

    @Test("the poster frame skips a black opening; a frame at a time gives that time")
    func poster() async throws {
        let path = try Fixtures.path(.mp4BlackStart)
        let request = ThumbnailRequest(size: PixelSize(width: 160, height: 120), format: .png)
        let poster = try await renderer.thumbnail(of: path, request)
        #expect((poster.time ?? 0) >= 1.9, "past the two black seconds")
        let picture = try DecodedPicture(poster)
        #expect(picture.pixels.count == 160 * 120 * 3)
        #expect(picture.pixels.reduce(0) { $0 + Int($1) } / picture.pixels.count > 30, "not black")
        var first = request
        first.time = .seconds(0)
        let opening = try DecodedPicture(try await renderer.thumbnail(of: path, first))
        #expect(opening.pixels.reduce(0) { $0 + Int($1) } / opening.pixels.count < 10, "the opening is black")
        var exact = request
        exact.time = .seconds(3.3)
        exact.tolerance = .exact
        let precise = try await renderer.thumbnail(of: path, exact)
        #expect(abs((precise.time ?? 0) - 3.3) < 0.05)
        var keyframe = exact
        keyframe.tolerance = .keyframe
        let near = try await renderer.thumbnail(of: path, keyframe)
        #expect((near.time ?? 0) <= 3.3 && (near.time ?? 0) > 2.7, "the keyframe before")
        var fraction = exact
        fraction.time = .fraction(0.75)
        #expect(abs((try await renderer.thumbnail(of: path, fraction).time ?? 0) - 3.0) < 0.05)
    }

    @Test("a strip: frames spread over the duration, in order")
    func strip() async throws {
        let frames = try await renderer.strip(
            of: try Fixtures.path(.mp4BlackStart), count: 8,
            ThumbnailRequest(size: PixelSize(width: 64, height: 48), tolerance: .exact))
        #expect(frames.count == 8)
        let times = frames.compactMap(\.time)
        #expect(times.count == 8 && times == times.sorted())
        #expect(abs(times[0] - 0.25) < 0.05 && abs(times[7] - 3.75) < 0.05)
        #expect(frames.allSatisfy { $0.size == PixelSize(width: 64, height: 48) })
    }

    @Test(
        "stills of every kind: JPEG, PNG, WebP, GIF's first frame, HEIC, AVIF",
        arguments: [
            Fixture.jpegPlain, .pngRGBA, .webpLossy, .gifAnimated, .heic, .avif, .pngEXIF,
        ])
    func stills(_ fixture: Fixture) async throws {
        let image = try await renderer.thumbnail(
            of: try Fixtures.path(fixture),
            ThumbnailRequest(size: PixelSize(width: 64, height: 64), mode: .fill, format: .webp))
        #expect(image.size == PixelSize(width: 64, height: 64))
        let picture = try DecodedPicture(image)
        #expect(picture.width == 64 && picture.height == 64)
    }

    @Test("bad input: audio only, corrupt, missing, past the pixel limit: clear errors")
    func badInput() async throws {
        let request = ThumbnailRequest(size: PixelSize(width: 64, height: 64))
        await #expect(throws: RenderError.self) { try await renderer.thumbnail(of: "/no/such/file.mp4", request) }
        do {
            _ = try await renderer.thumbnail(of: try Fixtures.path(.m4aAudio), request)
            Issue.record("audio has no frames")
        } catch let error as RenderError {
            #expect(error.code == .noPicture)
        }
        let tiny = FFmpegThumbnailer(limits: RenderLimits(maxPixels: 100_000))
        do {
            _ = try await tiny.thumbnail(of: try Fixtures.path(.mp4Large), request)
            Issue.record("1280x720 is past 100,000 pixels")
        } catch let error as RenderError {
            #expect(error.code == .tooLarge && error.description.contains("1280x720"))
        }
        // A video cut in half: moov at the end is gone, so it is damaged, not a crash.
        let cut = Temporary.url("cut", suffix: ".mp4")
        let bytes = try Fixtures.bytes(.mp4MoovAtEnd)
        try Data(bytes.prefix(bytes.count / 2)).write(to: cut)
        defer { Temporary.remove(cut) }
        do {
            _ = try await renderer.thumbnail(of: cut.path, request)
            Issue.record("a cut file has no moov")
        } catch {
            #expect(error.code == .damaged)
        }
    }
}
