import Foundation
import PickupTestSupport
import Testing

/// An export lasts as long as its source, as ffprobe measures both.
@Suite("export timing, end to end")
struct ExportTimingCommandTests {
    /// The container's duration and the first video packet's presentation time, by ffprobe.
    func timing(_ path: String) throws -> (duration: Double, start: Double) {
        let format = try Shell.run(
            "ffprobe -v error -show_entries format=duration -of csv=p=0 \"$F\"", environment: ["F": path])
        let stream = try Shell.run(
            "ffprobe -v error -select_streams v:0 -show_entries stream=start_time -of csv=p=0 \"$F\"",
            environment: ["F": path])
        let duration = try #require(Double(format.outputText.trimmingCharacters(in: .whitespacesAndNewlines)))
        let start = try #require(Double(stream.outputText.trimmingCharacters(in: .whitespacesAndNewlines)))
        return (duration, start)
    }

    @Test("--trim past the end of the video is refused, naming its duration; nothing is written")
    func trimPastTheEnd() throws {
        let folder = try Temporary.folder("cli-trim")
        defer { Temporary.remove(folder) }
        let video = try Fixtures.path(.mp4Large)
        let probed = try CLI.jsonLines(try CLI.run(["probe", video, "--json"]))
        let seconds = try #require(probed.first?["duration"] as? Double)
        let lasts = "which lasts \(Int(seconds)).\(String(Int((seconds * 1000).rounded()) % 1000 + 1000).dropFirst()) s"
        for extra in [[String](), ["--dry-run"]] {
            let result = try CLI.run(
                ["export", video, "--preset", "passthrough", "--trim", "2-9", "-o", folder + "/out.mp4"] + extra)
            #expect(result.status == 1, "\(result.outputText)")
            #expect(result.errorText.contains("2.0-9.0 s ends after the video, \(lasts)"), "\(result.errorText)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/out.mp4"))
        }
        // A range inside the video still goes.
        let inside = try CLI.run([
            "export", video, "--preset", "passthrough", "--trim", "2-3", "-o", folder + "/in.mp4",
        ])
        #expect(inside.status == 0, "\(inside.errorText)")
    }

    @Test(
        "--trim START- keeps the rest of the video, --trim=-END its start; reversed, empty and open-both ranges are named"
    )
    func openAndReversedRanges() throws {
        let folder = try Temporary.folder("cli-trim-open")
        defer { Temporary.remove(folder) }
        let video = try Fixtures.path(.mp4Large)
        let source = try timing(video).duration
        // From 1 s to the end, and the first second: each as long as it says, by ffprobe.
        for (range, lasts) in [("1-", source - 1), ("-1", 1.0)] {
            let output = folder + "/\(range.replacingOccurrences(of: "-", with: "_")).mp4"
            let result = try CLI.run(["export", video, "--preset", "640x480", "--trim=\(range)", "-o", output])
            #expect(result.status == 0, "\(range): \(result.errorText)")
            let made = try timing(output).duration
            #expect(abs(made - lasts) < 0.07, "--trim \(range): \(made) s, not \(lasts) s")
        }
        let misuse: [(String, String)] = [
            ("5-2", "--trim 5-2 ends before it starts; give START first, like 2-5"),
            ("2-2", "--trim 2-2 is empty"),
            ("-", "--trim - is not a time range"),
            ("a-3", "--trim a-3: a time is not seconds or m:ss"),
        ]
        for (range, message) in misuse {
            let result = try CLI.run(["export", video, "--preset", "640x480", "--trim=\(range)", "--dry-run"])
            #expect(result.status == 2, "\(range): \(result.outputText)")
            #expect(result.errorText.contains(message), "\(range): \(result.errorText)")
        }
        // An open range that starts past the end is refused with the video's duration.
        let late = try CLI.run(["export", video, "--preset", "640x480", "--trim=99-", "--dry-run"])
        #expect(late.status == 1, "\(late.outputText)")
        #expect(late.errorText.contains("the time range 99.0- s starts after the video"), "\(late.errorText)")
    }

    @Test("an encoded export (x264 with B-frames) starts at zero and lasts exactly as long as its source")
    func encodedDurationEqualsSource() throws {
        let folder = try Temporary.folder("cli-timing")
        defer { Temporary.remove(folder) }
        let source = folder + "/clip.mp4"
        let made = try Shell.run(
            "ffmpeg -v error -y -f lavfi -i testsrc2=size=1280x720:rate=30:duration=1 -c:v libx264 -pix_fmt yuv420p "
                + "\"$OUT\"", environment: ["OUT": source])
        try #require(made.status == 0, "\(made.errorText)")
        let before = try timing(source)
        #expect(abs(before.duration - 1) < 0.001, "the source lasts 1.000 s")
        let exported = try CLI.run(["export", source, "--preset", "640x480", "-o", folder + "/small.mp4", "--json"])
        #expect(exported.status == 0, "\(exported.errorText)")
        #expect(try CLI.jsonLines(exported).first?["plan"] as? String == "encode")
        let after = try timing(folder + "/small.mp4")
        #expect(abs(after.start) < 0.001, "the picture starts at \(after.start) s")
        #expect(abs(after.duration - before.duration) < 0.001, "\(after.duration) s from \(before.duration) s")
    }
}
