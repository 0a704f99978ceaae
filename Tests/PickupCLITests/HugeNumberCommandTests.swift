import Foundation
import PickupTestSupport
import Testing

/// Numbers at the edge of their types, from a file or a command line: a clear answer, never a
/// crash on an overflow.
@Suite("numbers at their types' edge")
struct HugeNumberCommandTests {
    @Test(
        "a movie whose header says it lasts 2^62 seconds is probed, imported, refused for a trim and thumbnailed without a crash"
    )
    func endlessMovie() throws {
        let folder = try Temporary.folder("cli-huge")
        defer { Temporary.remove(folder) }
        var spec = BoxBuilder.MovieSpec()
        spec.version = 1
        spec.timescale = 1
        spec.movieDuration = 1 << 62
        spec.mediaTimescale = 1
        spec.mediaDuration = 1 << 62
        let movie = folder + "/endless.mp4"
        try Data(BoxBuilder.movie(spec)).write(to: URL(fileURLWithPath: movie))
        for arguments in [
            ["probe", movie], ["probe", movie, "--json"], ["probe", movie, "--format", "csv"],
            ["import", movie, "--into", folder + "/L"], ["library", folder + "/L", "list"],
            ["library", folder + "/L", "list", "--json"],
            ["export", movie, "--preset", "passthrough", "--trim", "1-2", "-o", folder + "/out.mp4"],
            ["export", movie, "--preset", "low", "--dry-run", "-o", folder + "/out.mp4"],
            ["thumb", movie, "--at", "50%", "-o", folder + "/t.jpg"],
        ] {
            let result = try CLI.run(arguments)
            // 0 or 1: done, or refused in words; a crash is a signal's status (132, 134).
            #expect([0, 1].contains(result.status), "\(arguments): \(result.status) \(result.errorText)")
            #expect(!result.errorText.contains("Fatal error"), "\(arguments): \(result.errorText)")
        }
    }

    @Test("--max-size in gigabytes past what a file can hold is refused, not a crash")
    func hugeMaxSize() throws {
        let folder = try Temporary.folder("cli-huge")
        defer { Temporary.remove(folder) }
        let result = try CLI.run([
            "export", try Fixtures.path(.mp4BlackStart), "--preset", "low", "--max-size", "9999999999G", "-o",
            folder + "/out.mp4",
        ])
        #expect(result.status == 2, "\(result.errorText)")
        #expect(result.errorText.contains("--max-size 9999999999G"), "\(result.errorText)")
    }

    @Test("a time past 99999:59:59 for --trim or --at is refused in words, exit 2, not turned into ticks that overflow")
    func hugeTimes() throws {
        let folder = try Temporary.folder("cli-huge")
        defer { Temporary.remove(folder) }
        let video = try Fixtures.path(.mp4BlackStart)
        let trim = try CLI.run(["export", video, "--preset", "low", "--trim", "1e300-", "-o", folder + "/out.mp4"])
        #expect(trim.status == 2 && trim.errorText.contains("at most 99999:59:59"), "\(trim.errorText)")
        let at = try CLI.run(["thumb", video, "--at", "1e300", "-o", folder + "/t.jpg"])
        #expect(at.status == 2 && at.errorText.contains("--at 1e300: a time is at most 99999:59:59"), "\(at.errorText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test(
        "a video whose header states no duration, trimmed from past its end: refused once read, no empty file left",
        arguments: ["passthrough", "low"])
    func trimPastAnUnknownEnd(preset: String) throws {
        let folder = try Temporary.folder("cli-huge")
        defer { Temporary.remove(folder) }
        // Streams copied into Matroska written to a pipe: no duration, no cues, no duration tags.
        let video = folder + "/live.mkv"
        let made = try Shell.run(
            "ffmpeg -v error -i \"$IN\" -c copy -f matroska pipe:1 > \"$OUT\"",
            environment: ["IN": try Fixtures.path(.mp4BlackStart), "OUT": video])
        #expect(made.status == 0, "\(made.errorText)")
        let plan = try CLI.run(["export", video, "--preset", preset, "--dry-run", "-o", folder + "/out.mp4"])
        #expect(plan.status == 0 && !plan.outputText.contains("9223372036854775"), "\(plan.outputText)")
        let past = try CLI.run(["export", video, "--preset", preset, "--trim", "100-", "-o", folder + "/out.mp4"])
        #expect(past.status == 1, "\(past.errorText)")
        #expect(past.errorText.contains("the time range starts after the video"), "\(past.errorText)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.mp4"))
        let pastEnd = try CLI.run(["export", video, "--preset", preset, "--trim", "0-10", "-o", folder + "/out.mp4"])
        #expect(pastEnd.status == 1 && pastEnd.errorText.contains("the time range ends after the video"))
        let inside = try CLI.run(["export", video, "--preset", preset, "--trim", "1-2", "-o", folder + "/in.mp4"])
        #expect(inside.status == 0, "\(inside.errorText)")
        guard preset == "low" else { return }
        // Thumbnails of it: a share of no duration, a time past its end and a strip are refused in
        // words (each gave the first or last frame, exit 0); a time inside it works.
        for (at, said) in [
            (["--at", "25%"], "states no duration, so 25% of it cannot be found"),
            (["--at", "10"], "its last frame is at "), (["--strip", "4"], "a strip cannot spread its frames"),
        ] {
            let thumb = try CLI.run(["thumb", video] + at + ["-o", folder + "/thumbs/"])
            #expect(thumb.status == 1 && thumb.errorText.contains(said), "\(at): \(thumb.errorText)")
        }
        #expect(try CLI.run(["thumb", video, "--at", "1", "-o", folder + "/thumbs/"]).status == 0)
    }

    @Test(
        "an upload target or endpoint whose port is past 65535: exit 2 in words, nothing journaled (it crashed)",
        arguments: [
            ["--to", "http://127.0.0.1:99999/upload"], ["--to", "tus+http://127.0.0.1:65536/files/"],
            ["--to", "s3://bucket/p/", "--endpoint", "http://127.0.0.1:99999"],
        ])
    func portPastRange(target: [String]) throws {
        let folder = try Temporary.folder("cli-huge")
        defer { Temporary.remove(folder) }
        let journal = folder + "/j.sqlite"
        let result = try CLI.run(
            ["upload", try Fixtures.path(.jpegPlain), "--journal", journal] + target,
            environment: ["AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s", "AWS_REGION": "us-east-1"])
        #expect(result.status == 2, "\(result.errorText)")
        #expect(result.errorText.contains("a port is a number from 1 to 65535"), "\(result.errorText)")
        #expect(!FileManager.default.fileExists(atPath: journal))
    }

    @Test("a strip of 100 frames or more is numbered with three digits, so that its names sort as its frames do")
    func longStripNames() throws {
        let folder = try Temporary.folder("cli-huge")
        defer { Temporary.remove(folder) }
        let result = try CLI.run([
            "thumb", try Fixtures.path(.mp4BlackStart), "--strip", "100", "--size", "16x16", "-o", folder + "/s/",
        ])
        #expect(result.status == 0, "\(result.errorText)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/s").sorted()
        #expect(names.count == 100 && names.first?.hasSuffix("-strip-001.jpg") == true, "\(names.prefix(3))")
        #expect(names.last?.hasSuffix("-strip-100.jpg") == true, "\(names.suffix(3))")
    }

    @Test(
        "a temporary a killed export or thumbnail left is removed by the next run; one still held, or just made, is not"
    )
    func abandonedTemporaries() throws {
        let folder = try Temporary.folder("cli-huge")
        defer { Temporary.remove(folder) }
        let out = folder + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let old = Date().addingTimeInterval(-600)
        for name in [
            ".pickup-export-left.mp4", ".pickup-thumb-left", ".pickup-export-held.mp4", ".pickup-export-new.mp4",
        ] {
            try Data("x".utf8).write(to: URL(fileURLWithPath: out + "/" + name))
            if name != ".pickup-export-new.mp4" {
                try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: out + "/" + name)
            }
        }
        // A writer that still runs holds its temporary's lock (flock, as Pickup's writers do).
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [out + "/.pickup-export-held.mp4", "sleep", "20"]
        try holder.run()
        defer { holder.terminate() }
        Thread.sleep(forTimeInterval: 0.3)
        let result = try CLI.run([
            "export", try Fixtures.path(.mp4BlackStart), "--preset", "passthrough", "-o", out + "/clip.mp4",
        ])
        #expect(result.status == 0, "\(result.errorText)")
        let left = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(left == [".pickup-export-held.mp4", ".pickup-export-new.mp4", "clip.mp4"], "\(left)")
    }
}
