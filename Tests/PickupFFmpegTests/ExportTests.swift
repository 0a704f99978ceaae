import Foundation
import Pickup
import PickupFFmpeg
import PickupTestSupport
import Testing

/// Exports through FFmpeg's libraries; every output is read back with Pickup's probe
/// and ffprobe (independent of the code that wrote it).
@Suite("export (FFmpeg)", .serialized)
struct ExportTests {
    let exporter = FFmpegExporter()

    func output(_ name: String = "out.mp4") throws -> String {
        let folder = Temporary.url("export")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name).path
    }

    func facts(_ path: String) throws -> MediaInfo { try MediaProbe().probe(path: path) }

    /// ffprobe's codec name and packet count of the first video stream.
    func ffprobe(_ path: String) throws -> (codec: String, packets: Int, tag: String) {
        let result = try Shell.run(
            "ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=codec_name,nb_read_packets,codec_tag_string -of csv=p=0 \"$F\"",
            environment: ["F": path])
        let fields = result.outputText.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(
            String.init)
        return (fields.first ?? "", Int(fields.last ?? "") ?? 0, fields.count > 1 ? fields[1] : "")
    }

    func leftovers(beside path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent).filter {
            $0.hasPrefix(".pickup-")
        }
    }

    @Test("passthrough remuxes: the same packets, HEVC tagged hvc1, rotation, date and Apple keys kept")
    func passthrough() async throws {
        let source = try Fixtures.path(.movAppleKeys)
        let out = try output()
        let result = try await exporter.export(source, to: out, ExportOptions(preset: .passthrough))
        #expect(result.plan.isPassthrough)
        let before = try facts(source)
        let after = try facts(out)
        #expect(after.videoCodec == "hevc" && after.rotation == before.rotation && after.rotation == .clockwise270)
        #expect(after.creationDate == before.creationDate)
        #expect(after.location != nil && after.contentIdentifier == before.contentIdentifier)
        #expect(abs((after.duration ?? 0) - (before.duration ?? 0)) < 0.1)
        let (codec, packets, tag) = try ffprobe(out)
        #expect(codec == "hevc" && tag == "hvc1")
        #expect(packets == (try ffprobe(source)).packets)
        #expect(try leftovers(beside: out).isEmpty)
    }

    @Test("strip location: the place, make, model and content id go; the date and the rotation stay")
    func stripLocation() async throws {
        let source = try Fixtures.path(.movAppleKeys)
        let out = try output("clean.mov")
        _ = try await exporter.export(
            source, to: out, ExportOptions(preset: .passthrough, container: .mov, stripLocation: true))
        let after = try facts(out)
        let before = try facts(source)
        #expect(after.location == nil && after.make == nil && after.model == nil && after.contentIdentifier == nil)
        #expect(after.creationDate == before.creationDate && after.rotation == before.rotation)
        let strings = try Shell.run("strings \"$F\" | grep -c 151.2153 || true", environment: ["F": out])
        #expect(strings.outputText.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "no coordinates left")
        let android = try output()
        _ = try await exporter.export(
            try Fixtures.path(.mp4AndroidLocation), to: android,
            ExportOptions(preset: .passthrough, stripLocation: true))
        #expect(try facts(android).location == nil)
    }

    @Test("strip location keeps an allow-list: artist, copyright, title, comment and unknown tags go; the date stays")
    func stripLocationAllowList() async throws {
        let source = try Fixtures.ffmpeg(
            "-f lavfi -i testsrc2=size=160x120:rate=10:duration=1 -c:v libx264 -preset ultrafast -pix_fmt yuv420p "
                + "-metadata artist=Jane-Roe -metadata copyright=Jane-Roe-2026 -metadata title=Our-House "
                + "-metadata comment=At-12-Elm-Street -metadata description=Home -metadata album_artist=Roe-Family "
                + "-metadata creation_time=2026-05-06T10:20:30Z -metadata:s:v:0 handler_name=VideoHandler",
            as: "mp4")
        defer { Temporary.remove(source) }
        let out = try output()
        _ = try await exporter.export(source, to: out, ExportOptions(preset: .passthrough, stripLocation: true))
        let tags = try Shell.run(
            "ffprobe -v error -show_entries format_tags:stream_tags -of default=noprint_wrappers=1 \"$F\"",
            environment: ["F": out]
        ).outputText
        for gone in ["Jane", "Roe", "Our-House", "Elm", "Home"] {
            #expect(!tags.contains(gone), "\(gone) survived: \(tags)")
        }
        #expect(tags.contains("creation_time=2026-05-06T10:20:30"), "\(tags)")
        let raw = try Shell.run("strings \"$F\" | grep -c Jane-Roe || true", environment: ["F": out])
        #expect(raw.outputText.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test("smart passthrough: a source that already fits the preset is remuxed, not encoded")
    func smartPassthrough() async throws {
        let source = try Fixtures.path(.mp4Faststart)  // H.264 320x240, small
        let out = try output()
        let (stream, continuation) = AsyncStream<ExportEvent>.makeStream()
        let result = try await exporter.export(
            source, to: out, ExportOptions(preset: .p1280x720), events: continuation)
        continuation.finish()
        #expect(result.plan.video == .copy)
        #expect(result.plan.reason.contains("remuxed"))
        var fractions: [Double] = []
        var planned = false
        for await event in stream {
            switch event {
            case .planned: planned = true
            case .progress(let fraction): fractions.append(fraction)
            case .finished: break
            }
        }
        #expect(planned && fractions == fractions.sorted() && fractions.last == 1)
        #expect((try ffprobe(out)).packets == (try ffprobe(source)).packets)
    }

    @Test("HEVC to H.264 when asked for compatibility; the rotation kept; the picture scaled into the box")
    func reencode() async throws {
        let source = try Fixtures.path(.movAppleKeys)  // HEVC 320x240, rotated
        let out = try output()
        let result = try await exporter.export(source, to: out, ExportOptions(preset: .p640x480, compatible: true))
        guard case .encode(.h264, _, _, _) = result.plan.video else {
            Issue.record("expected an H.264 encode, got \(result.plan)")
            return
        }
        let after = try facts(out)
        #expect(after.videoCodec == "h264" && after.audioCodec == "aac")
        #expect(after.rotation == (try facts(source)).rotation)
        let large = try output()
        _ = try await exporter.export(try Fixtures.path(.mp4Large), to: large, ExportOptions(preset: .low))
        let small = try facts(large)
        #expect(small.width == 480 && small.height == 270)
        let hevc = try output()
        _ = try await exporter.export(try Fixtures.path(.mp4Faststart), to: hevc, ExportOptions(preset: .hevc1920x1080))
        let (codec, _, tag) = try ffprobe(hevc)
        #expect(codec == "hevc" && tag == "hvc1")
    }

    @Test("HDR exported to H.264 keeps its BT.2020 colors and HLG transfer, tagged, and the plan says so")
    func hdrTags() async throws {
        let out = try output()
        let result = try await exporter.export(
            try Fixtures.path(.movHEVC10BitHLG), to: out, ExportOptions(preset: .p640x480))
        #expect(result.plan.reason.contains("HDR (hlg) kept"), "\(result.plan.reason)")
        let tags = try Shell.run(
            "ffprobe -v error -select_streams v:0 -show_entries "
                + "stream=codec_name,color_primaries,color_transfer,color_space -of csv=p=0 \"$F\"",
            environment: ["F": out])
        #expect(tags.outputText.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,bt2020nc,arib-std-b67,bt2020")
        #expect(try facts(out).hdr == .hlg)
    }

    @Test("trim keeps the time range: exact when encoding, and when copying too, through an edit list")
    func trim() async throws {
        let source = try Fixtures.path(.mp4Large)  // 4 s
        let encoded = try output()
        _ = try await exporter.export(source, to: encoded, ExportOptions(preset: .p640x480, trim: 1...3))
        let encodedDuration = try facts(encoded).duration ?? 0
        #expect(abs(encodedDuration - 2.0) < 0.1, "\(encodedDuration)")
        let copied = try output()
        _ = try await exporter.export(
            try Fixtures.path(.mp4BlackStart), to: copied, ExportOptions(preset: .passthrough, trim: 2...3))
        let duration = try facts(copied).duration ?? 0
        #expect(duration >= 0.95 && duration < 1.6, "\(duration)")
        await #expect(throws: RenderError.self) {
            try await exporter.export(source, to: try output(), ExportOptions(preset: .passthrough, trim: 9...12))
        }
        // A copy cut inside a GOP (one keyframe, at 0:00) starts at the very time asked, through an
        // edit list, as ffmpeg -ss -c copy does: it lasts the range asked, and its first frame shown
        // is the source's frame at that time (it gave 2.1 s from 0:00).
        let oneKeyframe = try Fixtures.ffmpeg(
            "-f lavfi -i testsrc=size=320x240:rate=25 -t 4 -c:v libx264 "
                + "-x264-params keyint=1000:min-keyint=1000:scenecut=0", as: "mp4")
        defer { Temporary.remove(oneKeyframe) }
        let cut = try output()
        _ = try await exporter.export(oneKeyframe, to: cut, ExportOptions(preset: .passthrough, trim: 1...2))
        let cutDuration = try facts(cut).duration ?? 0
        #expect(abs(cutDuration - 1.0) < 0.1, "\(cutDuration)")
        let frame = "-f rawvideo -pix_fmt rgb24 - | md5sum"
        let asked = try Shell.run(
            "ffmpeg -v error -i \"$F\" -vf 'select=eq(n\\,25)' -frames:v 1 \(frame)", environment: ["F": oneKeyframe])
        let shown = try Shell.run("ffmpeg -v error -i \"$F\" -frames:v 1 \(frame)", environment: ["F": cut])
        #expect(asked.outputText == shown.outputText && asked.outputText.count > 30)
    }

    @Test("a size limit: the bit rate is planned to fit, and the file fits")
    func maxSize() async throws {
        let source = try Fixtures.path(.mp4Large)
        let out = try output()
        let result = try await exporter.export(source, to: out, ExportOptions(preset: .highest, maxBytes: 250_000))
        #expect(result.bytes <= 250_000 && FFmpegExporter.sizeOnDisk(out) == result.bytes)
        await #expect(throws: RenderError.self) {
            try await exporter.export(source, to: try output(), ExportOptions(preset: .highest, maxBytes: 10_000))
        }
    }

    @Test("other audio becomes AAC: VP9 + Opus in WebM exports to H.264 + AAC in MP4")
    func webm() async throws {
        let out = try output()
        _ = try await exporter.export(try Fixtures.path(.webmVP9Opus), to: out, ExportOptions(preset: .medium))
        let after = try facts(out)
        #expect(after.videoCodec == "h264" && after.audioCodec == "aac" && after.container == .mp4)
    }

    @Test("bad input and cancellation leave nothing behind")
    func failures() async throws {
        let out = try output()
        await #expect(throws: RenderError.self) {
            try await exporter.export(try Fixtures.path(.m4aAudio), to: out, ExportOptions(preset: .medium))
        }
        let cut = Temporary.url("cut", suffix: ".mp4")
        let bytes = try Fixtures.bytes(.mp4MoovAtEnd)
        try Data(bytes.prefix(bytes.count / 2)).write(to: cut)
        defer { Temporary.remove(cut) }
        await #expect(throws: RenderError.self) {
            try await exporter.export(cut.path, to: out, ExportOptions(preset: .medium))
        }
        await #expect(throws: RenderError.self) {
            try await exporter.export(
                try Fixtures.path(.mp4Large), to: "/no/such/folder/out.mp4", ExportOptions(preset: .passthrough))
        }
        let task = Task {
            try await exporter.export(try Fixtures.path(.mp4Large), to: out, ExportOptions(preset: .highest))
        }
        try await Task.sleep(nanoseconds: 50_000_000)
        task.cancel()
        let outcome = await task.result
        if case .failure(let error as RenderError) = outcome { #expect(error.code == .cancelled) }
        #expect(!FileManager.default.fileExists(atPath: out) || outcome.isSuccess)
        #expect(try leftovers(beside: out).isEmpty)
    }

    @Test(
        "a file that cannot be probed fails the same way for thumbnails and exports: unreadable, unsupported, damaged")
    func probeFailures() async throws {
        let folder = Temporary.url("bad")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { Temporary.remove(folder) }
        let text = folder.appendingPathComponent("notes.mp4")
        try Data("shopping list: milk, eggs\n".utf8).write(to: text)
        let cut = folder.appendingPathComponent("cut.mp4")
        let bytes = try Fixtures.bytes(.mp4MoovAtEnd)
        try Data(bytes.prefix(bytes.count / 2)).write(to: cut)
        let cases: [(String, RenderError.Code)] = [
            (folder.appendingPathComponent("missing.mp4").path, .unreadable), (text.path, .unsupported),
            (cut.path, .damaged),
        ]
        let request = ThumbnailRequest(size: PixelSize(width: 64, height: 64))
        for (path, expected) in cases {
            var codes: [RenderError.Code] = []
            do {
                _ = try exporter.plan(path, ExportOptions(preset: .medium))
            } catch { codes.append(error.code) }
            do {
                _ = try await FFmpegThumbnailer().thumbnail(of: path, request)
            } catch { codes.append(error.code) }
            #expect(codes == [expected, expected], "\(path)")
        }
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
