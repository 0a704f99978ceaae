import Pickup
import PickupTestSupport
import Testing

/// Stills and animations made with ffmpeg, exiftool and heif-enc at test time.
@Suite("Probing images")
struct ImageProbeTests {
    let probe = MediaProbe()

    func info(_ fixture: Fixture) throws -> MediaInfo {
        try probe.probe(path: try Fixtures.path(fixture))
    }

    @Test("JPEG with EXIF: orientation 8, southern and western GPS, local date with offset")
    func jpegEXIF() throws {
        let info = try info(.jpegEXIF)
        #expect(info.container == .jpeg)
        #expect(info.width == 640 && info.height == 480)
        #expect(info.exifOrientation == 8)
        #expect(info.rotation == .clockwise270)
        #expect(info.displayWidth == 480 && info.displayHeight == 640)
        #expect(info.creationDate?.iso8601 == "2024-05-06T10:20:30-03:00")
        let place = try #require(info.location)
        #expect(abs(place.latitude - -22.9519) < 0.0001)
        #expect(abs(place.longitude - -43.2105) < 0.0001)
        #expect(abs((place.altitude ?? 0) - -12.5) < 0.01)
        #expect(info.make == "Apple" && info.model == "iPhone 15 Pro" && info.software == "17.4")
    }

    @Test("JPEG without EXIF: upright, orientation 1, no date")
    func jpegPlain() throws {
        let info = try info(.jpegPlain)
        #expect(info.exifOrientation == 1)
        #expect(info.rotation == .none)
        #expect(info.creationDate == nil && info.location == nil)
        #expect(info.bitDepth == 8)
    }

    @Test("PNG: alpha from the colour type, EXIF from eXIf")
    func png() throws {
        let rgba = try info(.pngRGBA)
        #expect(rgba.alpha)
        #expect(rgba.width == 300 && rgba.height == 200)
        let exif = try info(.pngEXIF)
        #expect(!exif.alpha)
        #expect(exif.make == "Pickup")
        #expect(exif.rotation == .upsideDown)
        #expect(exif.creationDate?.iso8601 == "2020-02-03T04:05:06")
        #expect(exif.creationDate?.zone == .unspecified)
    }

    @Test("APNG: frame count and duration")
    func apng() throws {
        let info = try info(.apng)
        #expect(info.animated)
        #expect(info.frameCount == 10)
        #expect(abs((info.duration ?? 0) - 1) < 0.05)
    }

    @Test("GIF: frames counted and delays summed")
    func gif() throws {
        let info = try info(.gifAnimated)
        #expect(info.container == .gif)
        #expect(info.animated)
        #expect(info.frameCount == 10)
        #expect(abs((info.duration ?? 0) - 1) < 0.05)
        #expect(info.width == 160 && info.height == 120)
    }

    @Test("WebP: lossy, lossless, animated and with EXIF")
    func webp() throws {
        let lossy = try info(.webpLossy)
        #expect(lossy.width == 640 && lossy.height == 480 && !lossy.animated)
        let lossless = try info(.webpLossless)
        #expect(lossless.width == 320 && lossless.height == 240)
        let animated = try info(.webpAnimated)
        #expect(animated.animated && animated.frameCount == 10)
        #expect(abs((animated.duration ?? 0) - 1) < 0.05)
        let exif = try info(.webpEXIF)
        #expect(exif.model == "HTC Desire")
        #expect(exif.rotation == .clockwise90)
        #expect(exif.displayWidth == 100 && exif.displayHeight == 200)
        #expect(abs((exif.location?.latitude ?? 0) - 45.5) < 0.0001)
    }

    @Test("HEIC: size, codec, EXIF date and camera")
    func heic() throws {
        let info = try info(.heic)
        #expect(info.container == .heic)
        #expect(info.imageCodec == "hevc")
        #expect(info.width == 640 && info.height == 480)
        #expect(info.creationDate?.iso8601 == "2021-03-04T05:06:07-05:00")
        #expect(info.make == "Apple" && info.model == "iPhone 12")
        #expect(!info.alpha)
    }

    @Test("HEIC with an alpha plane")
    func heicAlpha() throws {
        let info = try info(.heicAlpha)
        #expect(info.alpha)
        #expect(info.width == 128 && info.height == 96)
    }

    @Test("AVIF")
    func avif() throws {
        let info = try info(.avif)
        #expect(info.container == .avif)
        #expect(info.imageCodec == "av1")
        #expect(info.width == 640 && info.height == 480)
    }
}
