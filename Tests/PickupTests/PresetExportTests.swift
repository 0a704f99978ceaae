import Pickup
import PickupTestSupport
import Testing

/// Exports through a preset-only session (AVFoundation on iPhone), driven through a fake that
/// behaves as `AVAssetExportSession.h` documents.
@Suite("Preset exports")
struct PresetExportTests {
    let plan: ExportPlan

    /// The plan for a ten-second 1080p H.264 video of 50 MB, encoded to 720p.
    init() throws {
        var info = MediaInfo(kind: .video, container: .mp4, fileSize: 50_000_000)
        (info.width, info.height, info.duration, info.videoCodec) = (1920, 1080, 10, "h264")
        plan = try ExportPlan.make(for: info, ExportOptions(preset: .p1280x720))
    }

    @Test("a size limit picks the largest preset whose estimate fits, not a cut at the limit")
    func limitPicksPreset() async throws {
        let session = FakeExportSession(
            rates: [.p1920x1080: 1_250_000, .p1280x720: 700_000, .p960x540: 400_000], duration: 10)
        let options = ExportOptions(preset: .p1920x1080, maxBytes: 8_000_000)
        let output = try await PresetExport.run(session, plan: plan, options: options, to: "/tmp/out.mp4")
        #expect(session.exported.current == [.p1280x720])
        #expect(output.duration == 10)
        #expect(output.bytes <= 8_000_000)
    }

    @Test("an output that stopped early is refused, never kept cut short")
    func truncatedRefused() async {
        let session = FakeExportSession(rates: [.p1280x720: 700_000], duration: 10, stopsAt: 3_000_000)
        await #expect(throws: RenderError.self) {
            _ = try await PresetExport.run(
                session, plan: plan, options: ExportOptions(preset: .p1280x720), to: "/tmp/out.mp4")
        }
    }

    @Test("an estimate that was too low gives an output over the limit: refused when no smaller preset fits")
    func overLimitRefused() async {
        let presets: [ExportPreset] = [.p1280x720, .p960x540, .p640x480, .low]
        let session = FakeExportSession(
            rates: Dictionary(uniqueKeysWithValues: presets.map { ($0, 900_000) }),
            estimates: Dictionary(uniqueKeysWithValues: presets.map { ($0, 6_000_000) }), duration: 10)
        let options = ExportOptions(preset: .p1280x720, maxBytes: 8_000_000)
        do {
            _ = try await PresetExport.run(session, plan: plan, options: options, to: "/tmp/out.mp4")
            Issue.record("an output over the limit was kept")
        } catch {
            #expect(error.code == .impossible, "\(error)")
        }
        #expect(session.exported.current == presets, "each smaller preset tried, each over the limit")
    }

    @Test("a session that cannot estimate (0) gets each preset tried, largest first, until one fits")
    func unknownEstimates() async throws {
        let session = FakeExportSession(
            rates: [.p1280x720: 900_000, .p960x540: 500_000, .p640x480: 300_000],
            estimates: [.p1280x720: 0, .p960x540: 0, .p640x480: 0], duration: 10)
        let options = ExportOptions(preset: .p1280x720, maxBytes: 6_000_000)
        let output = try await PresetExport.run(session, plan: plan, options: options, to: "/tmp/out.mp4")
        #expect(session.exported.current == [.p1280x720, .p960x540])
        #expect(output.bytes == 5_000_000)
    }

    @Test("no preset fits: refused before anything is written")
    func nothingFits() async {
        let session = FakeExportSession(rates: [.p640x480: 500_000, .low: 300_000], duration: 10)
        let options = ExportOptions(preset: .p640x480, maxBytes: 1_000_000)
        await #expect(throws: RenderError.self) {
            _ = try await PresetExport.run(session, plan: plan, options: options, to: "/tmp/out.mp4")
        }
        #expect(session.exported.current.isEmpty)
    }

    @Test("a container the session cannot write is refused before the export starts")
    func unsupportedContainer() async {
        let session = FakeExportSession(rates: [.p1280x720: 700_000], duration: 10, supported: [.mp4])
        await #expect(throws: RenderError.self) {
            _ = try await PresetExport.run(
                session, plan: plan, options: ExportOptions(preset: .p1280x720, container: .mov), to: "/tmp/o.mov")
        }
        #expect(session.exported.current.isEmpty)
    }

    @Test("the ladder goes from the preset asked down to the smallest")
    func ladder() {
        #expect(PresetExport.ladder(from: .p1280x720) == [.p1280x720, .p960x540, .p640x480, .low])
        #expect(PresetExport.ladder(from: .hevc1920x1080).first == .hevc1920x1080)
    }
}
