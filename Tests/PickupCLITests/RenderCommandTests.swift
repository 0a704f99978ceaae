import Foundation
import PickupTestSupport
import Testing

/// `pickup thumb`, `pickup export`, `pickup import --thumbnails` and `pickup upload --export`, end to end.
@Suite("pickup thumb and export, end to end", .serialized)
struct RenderCommandTests {
    func scratch() throws -> String {
        let folder = try Temporary.folder("cli-render")
        return folder
    }

    func size(_ path: String) throws -> String {
        try Shell.run(
            "ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0 \"$F\"",
            environment: ["F": path]
        ).outputText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("thumb: upright images named after their files, -o for one, strips, JSON, errors per file")
    func thumb() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let portrait = try Fixtures.path(.mp4PortraitStored)
        let one = try CLI.run([
            "thumb", portrait, "--size", "90x160", "--fit", "--format", "png", "-o", folder + "/p.png",
        ])
        #expect(one.status == 0, "\(one.errorText)")
        #expect(try size(folder + "/p.png") == "90,160")
        #expect(one.outputText.contains("→ \(folder)/p.png 90x160"))
        let many = try CLI.run([
            "thumb", try Fixtures.path(.heic), try Fixtures.path(.m4aAudio), try Fixtures.path(.jpegPlain), "-o",
            folder,
            "--json",
        ])
        #expect(many.status == 1, "the audio file fails, the others do not")
        let lines = try CLI.jsonLines(many)
        #expect(lines.count == 3)
        #expect(lines[0]["path"] as? String == folder + "/still-thumb.jpg")
        #expect(lines[0]["source"] as? String == (try Fixtures.path(.heic)))
        #expect((lines[1]["error"] as? [String: Any])?["code"] as? String == "noPicture")
        #expect(FileManager.default.fileExists(atPath: folder + "/plain-thumb.jpg"))
        let strip = try CLI.run([
            "thumb", try Fixtures.path(.mp4BlackStart), "--strip", "3", "--size", "64x48", "-o", folder + "/strip",
        ])
        #expect(strip.status == 0)
        for index in 1...3 {
            #expect(FileManager.default.fileExists(atPath: folder + "/strip/black-start-strip-0\(index).jpg"))
        }
        // A time past the end is an error that says how long the video is, not a silent first frame.
        let past = try CLI.run(["thumb", try Fixtures.path(.mp4BlackStart), "--at", "9:59", "-o", folder + "/past.jpg"])
        #expect(past.status == 1 && past.errorText.contains("there is no frame at 9:59"), "\(past.errorText)")
        // Its hint fits the case (it named export's --max-size).
        #expect(past.errorText.contains("Ask for a time inside the video") && !past.errorText.contains("--max-size"))
        let photoStrip = try CLI.run(["thumb", try Fixtures.path(.heic), "--strip", "3", "-o", folder + "/hs/"])
        #expect(photoStrip.status == 1 && photoStrip.errorText.contains("Make one thumbnail of a photo instead"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/past.jpg"))
        let inside = try CLI.run(["thumb", try Fixtures.path(.mp4BlackStart), "--at", "0:01", "-o", folder + "/at.jpg"])
        #expect(inside.status == 0, "\(inside.errorText)")
        #expect(try CLI.run(["thumb", portrait, "--size", "big"]).status == 2)
        #expect(try CLI.run(["thumb", portrait, "--fill", "--fit"]).status == 2)
        #expect(try CLI.run(["thumb", "--help"]).outputText.contains("--strip <N>"))
    }

    @Test("thumb and export never write over an input, and replace an existing output only with --force")
    func outputsNeverClobber() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let photo = folder + "/self.jpg"
        let movie = folder + "/self.mp4"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: photo)
        try FileManager.default.copyItem(atPath: try Fixtures.path(.mp4PortraitStored), toPath: movie)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.mp4", withDestinationPath: movie)
        let photoBytes = try Data(contentsOf: URL(fileURLWithPath: photo))
        let movieBytes = try Data(contentsOf: URL(fileURLWithPath: movie))
        for force in [[], ["--force"]] {
            let thumb = try CLI.run(["thumb", photo, "-o", photo] + force)
            #expect(thumb.status == 1)
            #expect(thumb.errorText.contains("is the input"), "\(thumb.errorText)")
            for output in [movie, folder + "/link.mp4"] {
                let export = try CLI.run(["export", movie, "--preset", "640x480", "-o", output] + force)
                #expect(export.status == 1)
                #expect(export.errorText.contains("is the input"), "\(export.errorText)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == photoBytes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: movie)) == movieBytes)
        // An existing output that is not an input: refused, then replaced with --force.
        let other = folder + "/other.jpg"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: other))
        let refused = try CLI.run(["thumb", photo, "-o", other])
        #expect(refused.status == 1)
        #expect(refused.errorText.contains("--force"))
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "keep me")
        #expect(try CLI.run(["thumb", photo, "-o", other, "--force"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)).starts(with: [0xFF, 0xD8]))
    }

    @Test("an output's name says its format, or is refused; same-named inputs never depend on argument order")
    func outputNames() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let photo = try Fixtures.path(.jpegPlain)
        #expect(try CLI.run(["thumb", photo, "-o", folder + "/t.png"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/t.png")).starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try CLI.run(["thumb", photo, "-o", folder + "/t.webp"]).status == 0)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: folder + "/t.webp")).dropFirst(8).starts(with: Array("WEBP".utf8))
        )
        let mismatch = try CLI.run(["thumb", photo, "-o", folder + "/m.png", "--format", "jpeg"])
        #expect(mismatch.status == 2 && mismatch.errorText.contains("names a PNG image but --format is jpeg"))
        let gif = try CLI.run(["thumb", photo, "-o", folder + "/t.gif"])
        #expect(gif.status == 2 && gif.errorText.contains("name the image .jpg, .png or .webp"))
        #expect(
            !FileManager.default.fileExists(atPath: folder + "/m.png")
                && !FileManager.default.fileExists(atPath: folder + "/t.gif"))

        let movie = try Fixtures.path(.mp4PortraitStored)
        let mkv = try CLI.run(["export", movie, "--preset", "low", "-o", folder + "/out.mkv"])
        #expect(mkv.status == 2 && mkv.errorText.contains("name the output .mp4 or .mov"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.mkv"))
        #expect(try CLI.run(["export", movie, "--preset", "low", "-o", folder + "/out.mov"]).status == 0)
        let facts = try #require(try CLI.jsonLines(try CLI.run(["probe", folder + "/out.mov", "--json"])).first)
        #expect(facts["container"] as? String == "mov")
        let hevc = try CLI.run(["export", movie, "--preset", "hevc-1920x1080", "--compatible", "-o", folder + "/h.mp4"])
        #expect(hevc.status == 2 && hevc.errorText.contains("choose an H.264 preset"))

        // Two IMG_0001.jpg from two folders: each named after its folder, whatever the order.
        for name in ["A", "B"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: photo, toPath: folder + "/\(name)/IMG_0001.jpg")
        }
        for order in [["A", "B"], ["B", "A"]] {
            let out = folder + "/thumbs-" + order.joined()
            let result = try CLI.run(["thumb"] + order.map { folder + "/\($0)/IMG_0001.jpg" } + ["-o", out, "--json"])
            #expect(result.status == 0, "\(result.errorText)")
            let outputs = try CLI.jsonLines(result).compactMap {
                ($0["path"] as? String).map { ($0 as NSString).lastPathComponent }
            }
            #expect(Set(outputs) == ["IMG_0001 (A)-thumb.jpg", "IMG_0001 (B)-thumb.jpg"])
            #expect(outputs.first == "IMG_0001 (\(order[0]))-thumb.jpg")
        }
        // Two folders of one name (two cards' DCIM), one run after the other: the second takes the
        // name a run with both gives it, folder and hash.
        for card in ["c1", "c2"] {
            try FileManager.default.createDirectory(
                atPath: folder + "/\(card)/DCIM", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: photo, toPath: folder + "/\(card)/DCIM/IMG_0001.jpg")
        }
        let paths = ["c1", "c2"].map { folder + "/\($0)/DCIM/IMG_0001.jpg" }
        func made(_ result: Shell.Result) throws -> [String] {
            try CLI.jsonLines(result).compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }
        }
        let together = try made(try CLI.run(["thumb"] + paths + ["-o", folder + "/both", "--json"]))
        _ = try CLI.run(["thumb", paths[1], "-o", folder + "/apart/"])
        let second = try made(try CLI.run(["thumb", paths[0], "-o", folder + "/apart/", "--json"]))
        #expect(second == [together[0]], "\(second) against \(together)")
    }

    @Test("thumb takes folders with --recursive: their photos and videos, other files left alone")
    func thumbFolders() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try FileManager.default.createDirectory(
            atPath: folder + "/card/DCIM/100APPLE", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: folder + "/card/DCIM/a.jpg")
        try FileManager.default.copyItem(
            atPath: try Fixtures.path(.mp4PortraitStored), toPath: folder + "/card/DCIM/100APPLE/b.mp4")
        try Data("edits".utf8).write(to: URL(fileURLWithPath: folder + "/card/DCIM/100APPLE/b.AAE"))
        let without = try CLI.run(["thumb", folder + "/card", "-o", folder + "/out"])
        #expect(without.status == 2 && without.errorText.contains("add --recursive (-r)"))
        let result = try CLI.run(["thumb", "-r", folder + "/card", "-o", folder + "/out", "--json"])
        #expect(result.status == 0, "\(result.errorText)")
        let lines = try CLI.jsonLines(result)
        #expect(lines.filter { $0["type"] as? String == "image" }.count == 2)
        #expect(
            lines.contains {
                $0["type"] as? String == "leftAlone" && ($0["path"] as? String)?.hasSuffix("b.AAE") == true
            })
        #expect(FileManager.default.fileExists(atPath: folder + "/out/a-thumb.jpg"))
        #expect(FileManager.default.fileExists(atPath: folder + "/out/b-thumb.jpg"))
        // The note about b.AAE goes to standard error, unless -q asks for results and failures only.
        let noted = try CLI.run(["thumb", "-r", folder + "/card", "-o", folder + "/noted"])
        #expect(noted.status == 0 && noted.errorText.contains("left alone 1 file"), "\(noted.errorText)")
        #expect(
            noted.outputText.contains("2 files: 2 made, 0 already there, 0 failed; 1 left alone (see above)."),
            "\(noted.outputText)")
        let quiet = try CLI.run(["thumb", "-q", "-r", folder + "/card", "-o", folder + "/quiet"])
        #expect(quiet.status == 0 && quiet.errorText.isEmpty, "\(quiet.errorText)")
        #expect(quiet.outputText.contains("2 made, 0 already there, 0 failed; 1 left alone."), "\(quiet.outputText)")
        // export takes folders the same way: their videos, into the folder -o names.
        #expect(try CLI.run(["export", folder + "/card", "--preset", "low"]).status == 2)
        let several = try CLI.run([
            "export", "-r", folder + "/card", try Fixtures.path(.movAppleKeys), "--preset", "low", "-o",
            folder + "/exports", "--json",
        ])
        #expect(several.status == 0, "\(several.errorText)")
        let exported = try CLI.jsonLines(several).filter { $0["type"] as? String == "export" }
        #expect(
            exported.compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } } == [
                "b-low.mp4", "apple-keys-low.mp4",
            ])
        // Without --json, what a folder holds beside its videos is one line, not one a file.
        let human = try CLI.run([
            "export", "-r", folder + "/card", "--preset", "low", "-o", folder + "/human/", "--dry-run",
        ])
        #expect(human.status == 0, "\(human.errorText)")
        let notVideos = human.errorText.split(separator: "\n").filter { $0.contains("left alone") }
        #expect(notVideos.count == 1, "one line: \(human.errorText)")
        #expect(notVideos.first?.contains("left alone 2 files (not videos)") == true, "\(human.errorText)")
        let named = try CLI.run([
            "export", try Fixtures.path(.movAppleKeys), folder + "/card/DCIM/100APPLE/b.mp4", "--preset", "low",
            "-o", folder + "/one.mp4",
        ])
        #expect(named.status == 2 && named.errorText.contains("with several videos, -o names a folder"))
        // A file whose name is not UTF-8 is found by its bytes like any other: this one, without
        // an extension, is left alone as not media, said in valid JSON; the others are made.
        let badName: [CChar] = (folder + "/card/DCIM/c").utf8CString.dropLast() + [CChar(bitPattern: 0xFF), 0]
        let descriptor = open(badName, O_CREAT | O_WRONLY, 0o644)
        #expect(descriptor >= 0)
        close(descriptor)
        for command in ["thumb", "export"] {
            let output = folder + "/" + command + "-again"
            let result = try CLI.run(
                [command, "-r", folder + "/card", "-o", output + "/", "--json"]
                    + (command == "export" ? ["--preset", "low"] : [])
            )
            #expect(result.status == 0, "\(command): \(result.outputText) \(result.errorText)")
            let lines = try CLI.jsonLines(result)
            #expect(
                lines.contains {
                    $0["status"] as? String == "leftAlone" && ($0["path"] as? String)?.hasSuffix(#"/c\xFF"#) == true
                }, "\(command): \(lines)")
            #expect(
                FileManager.default.fileExists(atPath: output + (command == "thumb" ? "/b-thumb.jpg" : "/b-low.mp4")))
        }
    }

    @Test("stderr stays quiet: no FFmpeg log lines ([swscaler @ 0x…] deprecated pixel format) from full-range sources")
    func quietStandardError() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        // Full-range (JPEG-style) pixel formats are what swscale warns about as deprecated.
        let video = try Fixtures.ffmpeg(
            "-f lavfi -i testsrc=size=640x360:rate=10 -t 1 -pix_fmt yuvj420p -c:v libx264", as: "mp4")
        let photo = try Fixtures.ffmpeg("-f lavfi -i testsrc=size=640x360 -frames:v 1 -pix_fmt yuvj422p", as: "jpg")
        defer { for path in [video, photo] { try? FileManager.default.removeItem(atPath: path) } }
        let thumb = try CLI.run(["thumb", video, photo, "--size", "100x100", "-o", folder + "/t/"])
        #expect(thumb.status == 0 && thumb.errorText.isEmpty, "\(thumb.errorText)")
        let export = try CLI.run(["export", video, "--preset", "low", "-o", folder + "/e.mp4", "--quiet"])
        #expect(export.status == 0 && export.errorText.isEmpty, "\(export.errorText)")
    }

    @Test("export: plan printed, output written, trim and size parsed, misuse exits 2, audio fails with 1")
    func export() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let result = try CLI.run([
            "export", try Fixtures.path(.movAppleKeys), "--preset", "640x480", "--compatible", "--strip-location",
            "--trim", "0:00.2-0:00.8", "-o", folder + "/out.mp4", "--json",
        ])
        #expect(result.status == 0, "\(result.errorText)")
        let lines = try CLI.jsonLines(result)
        #expect(lines.first?["plan"] as? String == "encode")
        #expect((lines.last?["bytes"] as? Int ?? 0) > 0)
        let probe = try CLI.run(["probe", folder + "/out.mp4", "--json"])
        let facts = try #require(try CLI.jsonLines(probe).first)
        #expect(facts["videoCodec"] as? String == "h264" && facts["latitude"] == nil)
        #expect(abs((facts["duration"] as? Double ?? 0) - 0.6) < 0.15)
        #expect(try CLI.run(["export", try Fixtures.path(.mp4Large)]).status == 2)
        #expect(try CLI.run(["export", try Fixtures.path(.mp4Large), "--preset", "huge"]).status == 2)
        #expect(try CLI.run(["export", try Fixtures.path(.mp4Large), "--preset", "low", "--trim", "5-2"]).status == 2)
        // 1:90 is no time (not 2:30): said so, not taken for an end before its start.
        let noTime = try CLI.run(["export", try Fixtures.path(.mp4Large), "--preset", "low", "--trim", "1:90-2:00"])
        #expect(noTime.status == 2 && noTime.errorText.contains("a time is not seconds or m:ss"), "\(noTime.errorText)")
        #expect(
            try CLI.run(["export", try Fixtures.path(.mp4Large), "--preset", "low", "--max-size", "lots"]).status == 2)
        // Binary units as well as decimal ones; digits only (Double would read 0x10 and 1e3).
        for (size, bytes) in [("1MiB", "1048576 bytes"), ("1.5 MB", "1500000 bytes"), ("2g", "2000000000 bytes")] {
            let planned = try CLI.run([
                "export", try Fixtures.path(.mp4Large), "--preset", "low", "--max-size", size, "--dry-run",
            ])
            #expect(planned.status == 0 && planned.outputText.contains(bytes), "\(size): \(planned.outputText)")
        }
        for size in ["0x10", "1e3", "1Mx", "KiB", "1.2.3M"] {
            let refused = try CLI.run(["export", try Fixtures.path(.mp4Large), "--preset", "low", "--max-size", size])
            #expect(refused.status == 2 && refused.errorText.contains("--max-size \(size):"), "\(refused.errorText)")
        }
        let audio = try CLI.run(["export", try Fixtures.path(.m4aAudio), "--preset", "low", "-o", folder + "/a.mp4"])
        #expect(audio.status == 1 && audio.errorText.contains("no video"))
        // A photo is not "audio-only": its message and hint say what it is and what to do.
        let photo = try CLI.run(["export", try Fixtures.path(.heic), "--preset", "low", "-o", folder + "/p.mp4"])
        #expect(photo.status == 1 && photo.errorText.contains("the file is a photo, not a video"))
        #expect(photo.errorText.contains("a photo can be sent as it is") && !photo.errorText.contains("Audio-only"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/a.mp4"))
    }

    @Test("import --thumbnails makes and records one per item; library show lists it")
    func importThumbnails() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let arguments = [
            "import", try Fixtures.path(.mp4PortraitStored), try Fixtures.path(.jpegOrientation6), "--into",
            folder + "/lib", "--thumbnails", "64x64", "--json",
        ]
        let result = try CLI.run(arguments)
        #expect(result.status == 0, "\(result.errorText)")
        // A thumbnail file deleted since (the catalog still names it) is made again.
        let first = try #require(try CLI.jsonLines(result).first?["thumbnail"] as? [String: Any])
        let deleted = folder + "/lib/" + (try #require(first["name"] as? String))
        #expect(unlink(deleted) == 0)
        #expect(try CLI.run(arguments).status == 0)
        #expect(FileManager.default.fileExists(atPath: deleted), "made again")
        for line in try CLI.jsonLines(result) {
            let thumbnail = try #require(line["thumbnail"] as? [String: Any])
            let name = try #require(thumbnail["name"] as? String)
            #expect(try size(folder + "/lib/" + name) == "64,64")
            let id = try #require(line["id"] as? String)
            let shown = try CLI.run(["library", folder + "/lib", "show", id, "--json"])
            #expect(shown.outputText.contains(name))
            let table = try CLI.run(["library", folder + "/lib", "show", id])
            #expect(table.outputText.contains("thumbnail") && table.outputText.contains(name + "  64x"))
        }
        // Asked for at another size, each is made again at that size; asked again, it is there.
        let render = (CLI.tool as NSString).deletingLastPathComponent + "/pickup-render"
        let larger = try Shell.execute(render, ["thumbnails", folder + "/lib", "--size", "96x96"])
        #expect(larger.outputText.components(separatedBy: "96x96 (made)").count == 3, "\(larger.outputText)")
        #expect(try size(deleted) == "96,96")
        let again = try Shell.execute(render, ["thumbnails", folder + "/lib", "--size", "96x96"])
        #expect(again.outputText.components(separatedBy: "96x96 (already there)").count == 3, "\(again.outputText)")
    }

    @Test("a picture smaller than the box keeps its thumbnail at its own size: already there, not made each time")
    func smallPictureThumbnail() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let result = try CLI.run([
            "import", try Fixtures.path(.apng), "--into", folder + "/lib", "--thumbnails", "96x96", "-q",
        ])
        #expect(result.status == 0, "\(result.errorText)")
        let render = (CLI.tool as NSString).deletingLastPathComponent + "/pickup-render"
        let again = try Shell.execute(render, ["thumbnails", folder + "/lib", "--size", "96x96"])
        #expect(again.outputText.contains("64x48 (already there)"), "\(again.outputText)")
    }

    @Test("a HEIC's thumbnail (libheif decodes, FFmpeg encodes) prints none of FFmpeg's own log lines")
    func heicThumbnailQuiet() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let result = try CLI.run([
            "import", try Fixtures.path(.heicGPS), "--into", folder + "/lib", "--thumbnails", "64x64", "-q",
        ])
        #expect(result.status == 0, "\(result.errorText)")
        #expect(!result.errorText.contains("swscaler") && !result.errorText.contains("@ 0x"), "\(result.errorText)")
    }

    @Test("thumb --dry-run: a file that would fail (empty, cut short, a raw without a preview) is said to, not planned")
    func thumbDryRunProbes() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let good = try Fixtures.path(.jpegPlain)
        let empty = folder + "/IMG_0005.JPG"
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        let cut = folder + "/MVI_0006.MP4"
        let movie = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.path(.mp4Faststart)))
        try movie.prefix(movie.count / 2).write(to: URL(fileURLWithPath: cut))
        let raw = folder + "/DSCF0001.RAF"
        try Data(RawPhotoBuilder.raf(preview: [])).write(to: URL(fileURLWithPath: raw))
        let dry = try CLI.run(["thumb", good, empty, cut, raw, "-o", folder + "/out/", "--dry-run"])
        #expect(dry.status == 1, "\(dry.outputText)")
        #expect(dry.outputText.contains("\(good) → ") && dry.outputText.contains("would be written"))
        for path in [empty, cut, raw] {
            #expect(!dry.outputText.contains("\(path) → "), "\(path): \(dry.outputText)")
            #expect(dry.errorText.contains("pickup thumb: \(path): "), "\(path): \(dry.errorText)")
        }
        #expect(dry.errorText.contains("no JPEG preview"), "\(dry.errorText)")
    }

    @Test("upload --export and --strip-location: the video exported, every photo stripped, other files held back")
    func uploadExported() throws {
        let server = try TusServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let audio = try Fixtures.path(.m4aAudio)
        let result = try CLI.run([
            "upload", try Fixtures.path(.movAppleKeys), try Fixtures.path(.jpegEXIF), try Fixtures.path(.heicGPS),
            try Fixtures.path(.pngEXIF), try Fixtures.path(.webpEXIF), try Fixtures.path(.gifAnimated), audio,
            "--to", "tus+" + server.endpoint.absoluteString, "--export", "640x480", "--strip-location", "--journal",
            folder + "/j.sqlite", "--json",
        ])
        #expect(result.status == 1, "the audio file is refused: \(result.errorText)")
        let lines = try CLI.jsonLines(result)
        // With --json, the file held back is an error line of its own, beside the upload records.
        let held = lines.filter { $0["type"] as? String == "error" }
        #expect(held.count == 1 && held.first?["path"] as? String == audio)
        #expect(((held.first?["error"] as? [String: Any])?["message"] as? String)?.contains("audio/mp4") == true)
        let records = lines.filter { $0["type"] as? String == "upload" }
        #expect(records.count == 6 && records.allSatisfy { $0["state"] as? String == "done" })
        // Each sent copy keeps its source's name (a video's extension becomes .mp4), and says its source.
        let sent = records.compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }
        #expect(sent == ["apple-keys.mp4", "exif.jpg", "gps.heic", "exif.png", "exif.webp", "animated.gif"])
        #expect(records.first?["source"] as? String == (try Fixtures.path(.movAppleKeys)))
        for (index, record) in records.enumerated() {
            let stored = folder + "/stored-\(index)"
            try server.stored(try #require(record["remote"] as? String)).write(to: URL(fileURLWithPath: stored))
            let facts = try #require(try CLI.jsonLines(try CLI.run(["probe", stored, "--json"])).first)
            #expect(facts["latitude"] == nil && facts["make"] == nil, "\(facts)")
        }
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/exports")) ?? []
        #expect(leftovers.isEmpty, "exports and stripped copies are removed once uploaded")
        // Sent again: the copies are already there, and removed all the same.
        let again = try CLI.run([
            "upload", try Fixtures.path(.jpegEXIF), "--to", "tus+" + server.endpoint.absoluteString,
            "--strip-location", "--journal", folder + "/j.sqlite", "--json",
        ])
        #expect(try CLI.jsonLines(again).first?["state"] as? String == "alreadyThere", "\(again.outputText)")
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/exports")) ?? []
        #expect(kept.isEmpty, "a copy already there is removed too: \(kept)")
    }

    @Test(
        "upload --strip-location of a Live Photo: the movie dated as its still, both keys side by side, the movie's name and container kept, the copy described in words"
    )
    func uploadLivePhotoStripped() throws {
        let server = try SeaweedServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let credentials = folder + "/credentials"
        try "AWS_ACCESS_KEY_ID=\(server.accessKey)\nAWS_SECRET_ACCESS_KEY=\(server.secretKey)\n".write(
            toFile: credentials, atomically: true, encoding: .utf8)
        // A Live Photo: a HEIC still with a date, whose EXIF carries the movie's content identifier.
        var tiff = TIFFBuilder()
        tiff.exif = [
            (0x927C, .undefined(TIFFBuilder.appleMakerNote(contentIdentifier: "1E2D3C4B-5A69-7887-96A5-B4C3D2E1F001"))),
            (0x9003, .ascii("2019:08:21 10:20:30")),
        ]
        var heif = HEIFBuilder()
        heif.exif = tiff.build()
        try Data(heif.build()).write(to: URL(fileURLWithPath: folder + "/IMG_0263.HEIC"))
        try FileManager.default.copyItem(atPath: try Fixtures.path(.movAppleKeys), toPath: folder + "/IMG_0263.MOV")
        let result = try CLI.run([
            "upload", folder + "/IMG_0263.HEIC", folder + "/IMG_0263.MOV", "--to", "s3://photos/",
            "--key", "{date}/{name}", "--endpoint", server.endpoint.absoluteString, "--credentials", credentials,
            "--strip-location", "--journal", folder + "/j.sqlite",
        ])
        #expect(result.status == 0, "\(result.errorText)")
        #expect(result.outputText.contains("s3://photos/2019/08/21/IMG_0263.HEIC"), "\(result.outputText)")
        #expect(result.outputText.contains("s3://photos/2019/08/21/IMG_0263.MOV"), "\(result.outputText)")
        #expect(result.errorText.contains("made a copy to send, streams copied"), "\(result.errorText)")
        #expect(!result.errorText.contains("{\"type\""), "no raw JSON in human output: \(result.errorText)")
    }
}
