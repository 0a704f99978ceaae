import Pickup
import Testing

/// Export planning: remux or encode, sizes, bit rates, from the facts alone.
@Suite("export plans")
struct ExportPlanTests {
    func video(
        _ codec: String, _ width: Int, _ height: Int, seconds: Double = 10, bytes: Int64 = 2_500_000,
        audio: String? = "aac"
    ) -> MediaInfo {
        var info = MediaInfo(kind: .video, container: .mov, fileSize: bytes)
        info.videoCodec = codec
        info.audioCodec = audio
        info.width = width
        info.height = height
        info.duration = seconds
        return info
    }

    @Test("a source that fits the preset is remuxed; one that does not is encoded, and the plan says why")
    func smartPassthrough() throws {
        let fits = try ExportPlan.make(for: video("h264", 1280, 720), ExportOptions(preset: .p1920x1080))
        #expect(fits.isPassthrough && fits.reason.contains("remuxed"))
        let large = try ExportPlan.make(for: video("h264", 3840, 2160), ExportOptions(preset: .p1920x1080))
        #expect(
            large.video
                == .encode(
                    codec: .h264, size: PixelSize(width: 1920, height: 1080), quality: 21, maxBitRate: 10_000_000))
        #expect(large.reason.contains("3840x2160 → 1920x1080"))
        let hevc = try ExportPlan.make(for: video("hvc1", 1920, 1080), ExportOptions(preset: .hevc1920x1080))
        #expect(hevc.video == .copy)
        let compatible = try ExportPlan.make(
            for: video("hvc1", 1920, 1080), ExportOptions(preset: .p1920x1080, compatible: true))
        #expect(compatible.reason.contains("hevc → h264"))
        let fast = try ExportPlan.make(
            for: video("h264", 1280, 720, bytes: 50_000_000), ExportOptions(preset: .p1280x720))
        #expect(fast.reason.contains("40000 → 6000 kbit/s"))
    }

    @Test("boxes fit whichever way the picture stands, never scale up, give even sides")
    func boxes() {
        #expect(
            ExportPlan.fitted(PixelSize(width: 1080, height: 1920), in: PixelSize(width: 1920, height: 1080))
                == PixelSize(width: 1080, height: 1920))
        #expect(
            ExportPlan.fitted(PixelSize(width: 1440, height: 1920), in: PixelSize(width: 640, height: 480))
                == PixelSize(width: 480, height: 640))
        #expect(
            ExportPlan.fitted(PixelSize(width: 321, height: 241), in: PixelSize(width: 1280, height: 720))
                == PixelSize(width: 320, height: 240))
        #expect(
            ExportPlan.fitted(PixelSize(width: 1000, height: 562), in: PixelSize(width: 480, height: 360))
                == PixelSize(width: 480, height: 270))
    }

    @Test("a size limit plans the bit rate; too small a limit, passthrough over it, audio-only: clear errors")
    func limits() throws {
        // Already under the limit: remuxed.
        let small = try ExportPlan.make(
            for: video("h264", 1920, 1080), ExportOptions(preset: .highest, maxBytes: 5_000_000))
        #expect(small.isPassthrough)
        let plan = try ExportPlan.make(
            for: video("h264", 1920, 1080, bytes: 20_000_000), ExportOptions(preset: .highest, maxBytes: 5_000_000))
        guard case .encode(_, _, _, let cap) = plan.video else {
            Issue.record("a size limit encodes")
            return
        }
        // 5 MB over 10 s is 4 Mbit/s; 3% for the container, 128 kbit/s for the audio.
        #expect(cap == 3_752_000)
        #expect(throws: RenderError.self) {
            try ExportPlan.make(for: video("h264", 1920, 1080), ExportOptions(preset: .highest, maxBytes: 50_000))
        }
        // A limit too small to plan a picture's bit rate for, that the source already fits as it
        // is (42 kbit/s, 21 KB under 100 KB): remuxed, not refused, nor encoded into a larger file.
        let tiny = try ExportPlan.make(
            for: video("h264", 320, 240, seconds: 4, bytes: 21_375), ExportOptions(preset: .p640x480, maxBytes: 100_000)
        )
        #expect(tiny.isPassthrough && tiny.reason.contains("and 100000 bytes: remuxed"), "\(tiny.reason)")
        // Over the limit as it is: encoded (here refused: under 100 kbit/s would be left).
        #expect(throws: RenderError.self) {
            try ExportPlan.make(
                for: video("h264", 320, 240, seconds: 4, bytes: 210_000),
                ExportOptions(preset: .p640x480, maxBytes: 40_000))
        }
        #expect(throws: RenderError.self) {
            try ExportPlan.make(
                for: video("h264", 1920, 1080), ExportOptions(preset: .passthrough, maxBytes: 1_000_000))
        }
        #expect(throws: RenderError.self) {
            try ExportPlan.make(
                for: MediaInfo(kind: .audio, container: .m4a, fileSize: 10), ExportOptions(preset: .medium))
        }
        let trimmed = try ExportPlan.make(
            for: video("h264", 640, 480), ExportOptions(preset: .passthrough, trim: 2...5))
        #expect(trimmed.duration == 3)
        #expect(throws: RenderError.self) {
            try ExportPlan.make(for: video("h264", 640, 480), ExportOptions(preset: .passthrough, trim: 12...15))
        }
        let opus = try ExportPlan.make(for: video("h264", 640, 480, audio: "opus"), ExportOptions(preset: .p640x480))
        #expect(opus.audio == .encode(bitRate: 128_000))
    }

    @Test("thumbnail geometry: fill crops centered, fit fits, rotation swaps sides, reduction exponents")
    func geometry() {
        let fill = ThumbnailGeometry(
            source: PixelSize(width: 1920, height: 1080), orientation: .upright,
            target: PixelSize(width: 200, height: 200),
            mode: .fill)
        #expect(fill.scaled == PixelSize(width: 356, height: 200) && fill.output == PixelSize(width: 200, height: 200))
        #expect(fill.cropX == 78 && fill.cropY == 0)
        let portrait = ThumbnailGeometry(
            source: PixelSize(width: 1920, height: 1080), orientation: Orientation(rotation: .clockwise90),
            target: PixelSize(width: 90, height: 160), mode: .fit)
        #expect(
            portrait.scaled == PixelSize(width: 160, height: 90) && portrait.output == PixelSize(width: 90, height: 160)
        )
        #expect(
            ThumbnailGeometry.reductionExponent(
                source: PixelSize(width: 4000, height: 3000), scaled: PixelSize(width: 400, height: 300)) == 3)
        #expect(
            ThumbnailGeometry.reductionExponent(
                source: PixelSize(width: 4000, height: 3000), scaled: PixelSize(width: 1500, height: 1125)) == 1)
        #expect(PixelSize(parsing: "320x240") == PixelSize(width: 320, height: 240) && PixelSize(parsing: "0x5") == nil)
        #expect(FrameTime(parsing: "25%") == .fraction(0.25) && FrameTime(parsing: "-1") == nil)
        // --at takes m:ss and h:mm:ss as --trim does.
        #expect(FrameTime(parsing: "1:05") == .seconds(65) && FrameTime(parsing: "0:01.5") == .seconds(1.5))
        #expect(FrameTime(parsing: "1:02:03") == .seconds(3723) && FrameTime(parsing: "12.5") == .seconds(12.5))
        #expect(FrameTime(parsing: "1:60") == nil && FrameTime(parsing: "1:75:00") == nil)
        #expect(FrameTime(parsing: "a:05") == nil && FrameTime(parsing: "1::05") == nil)
        #expect(FrameTime.seconds(99).isPastEnd(of: 10) && !FrameTime.seconds(9.9).isPastEnd(of: 10))
        #expect(!FrameTime.fraction(1).isPastEnd(of: 10) && !FrameTime.seconds(99).isPastEnd(of: nil))
    }

    @Test("turning a picture: each orientation puts the top-left pixel where it belongs")
    func orientation() {
        // 2x1: red, blue.
        let image = RGBImage(width: 2, height: 1, pixels: [255, 0, 0, 0, 0, 255])
        #expect(image.oriented(Orientation(rotation: .clockwise90)).pixels == [255, 0, 0, 0, 0, 255])
        #expect(image.oriented(Orientation(rotation: .clockwise90)).width == 1)
        #expect(image.oriented(Orientation(rotation: .clockwise270)).pixels == [0, 0, 255, 255, 0, 0])
        #expect(image.oriented(Orientation(rotation: .upsideDown)).pixels == [0, 0, 255, 255, 0, 0])
        #expect(image.oriented(Orientation(rotation: .none, mirrored: true)).pixels == [0, 0, 255, 255, 0, 0])
    }
}
