import Foundation
import PickupTestSupport
import Testing

/// The built `pickup` tool, run as a person would run it.
@Suite("pickup probe, end to end")
struct ProbeCommandTests {
    func pickup(_ arguments: String...) throws -> Shell.Result { try CLI.run(arguments) }
    func jsonLines(_ result: Shell.Result) throws -> [[String: Any]] { try CLI.jsonLines(result) }

    /// A folder with copies of fixtures under the given names.
    func folder(_ files: [(Fixture, String)], extra: [(String, [UInt8])] = []) throws -> URL {
        let folder = Temporary.url("cli")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (fixture, name) in files {
            try FileManager.default.copyItem(
                atPath: try Fixtures.path(fixture), toPath: folder.appendingPathComponent(name).path)
        }
        for (name, bytes) in extra {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        return folder
    }

    @Test("misuse exits 2 with a pointer to help")
    func usage() throws {
        let none = try pickup("probe")
        #expect(none.status == 2)
        #expect(none.errorText.contains("name at least one file or folder to probe"))
        #expect(none.errorText.contains("pickup probe --help"))
    }

    @Test("--json: one object a file with the manifest's field names")
    func json() throws {
        let folder = try folder([(.movAppleKeys, "IMG_0001.MOV"), (.jpegEXIF, "photo.jpg")])
        defer { Temporary.remove(folder) }
        let result = try pickup("probe", "--json", folder.path)
        #expect(result.status == 0)
        let lines = try jsonLines(result)
        #expect(lines.count == 2)
        let movie = try #require(lines.first { ($0["path"] as? String)?.hasSuffix("IMG_0001.MOV") == true })
        #expect(movie["kind"] as? String == "video")
        #expect(lines.allSatisfy { $0["status"] as? String == "probed" }, "\(lines)")
        #expect(movie["container"] as? String == "mov")
        #expect(movie["videoCodec"] as? String == "hevc")
        #expect(movie["rotation"] as? Int == 270)
        #expect(movie["creationDate"] as? String == "2024-05-06T10:20:30+09:30")
        #expect(movie["contentIdentifier"] as? String == "1E2D3C4B-5A69-7887-96A5-B4C3D2E1F001")
        #expect(abs((movie["latitude"] as? Double ?? 0) - -33.8568) < 0.0001)
        let photo = try #require(lines.first { ($0["path"] as? String)?.hasSuffix("photo.jpg") == true })
        #expect(photo["orientation"] as? Int == 8)
        #expect(photo["displayWidth"] as? Int == 480)
    }

    @Test("a failing file gets its own error line; the others go on; exit 1")
    func failures() throws {
        let folder = try folder(
            [(.jpegPlain, "a.jpg"), (.gifAnimated, "c.gif")],
            extra: [("b.mov", Array("not a movie at all\n".utf8)), ("d.mp4", [])])
        defer { Temporary.remove(folder) }
        let result = try pickup("probe", "--json", folder.path)
        #expect(result.status == 1)
        let lines = try jsonLines(result)
        #expect(
            lines.compactMap { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } } == [
                "a.jpg", "b.mov", "c.gif", "d.mp4",
            ])
        let error = try #require(lines[1]["error"] as? [String: Any])
        #expect(error["code"] as? String == "unrecognized")
        #expect((error["message"] as? String)?.contains("plain text") == true)
        #expect((lines[3]["error"] as? [String: Any])?["code"] as? String == "empty")

        let table = try pickup("probe", folder.path)
        #expect(table.status == 1)
        #expect(table.errorText.contains("b.mov: the file holds plain text"))
        #expect(table.outputText.contains("4 files: 2 probed, 2 failed."))
        #expect(table.outputText.hasPrefix("KIND"), "\(table.outputText)")
        // Every file failed: no table, not even its header; CSV keeps its header.
        let none = try pickup(
            "probe", folder.appendingPathComponent("b.mov").path, folder.appendingPathComponent("d.mp4").path)
        #expect(none.status == 1)
        #expect(!none.outputText.contains("KIND"), "\(none.outputText)")
        #expect(none.outputText == "2 files: 0 probed, 2 failed.\n", "\(none.outputText)")
        let csv = try pickup("probe", "--format", "csv", folder.appendingPathComponent("b.mov").path)
        #expect(csv.outputText.hasPrefix("path,"), "\(csv.outputText)")
    }

    @Test("the table: one row a file, m:ss durations, rotation, Live Photo pairs")
    func table() throws {
        // A Live Photo: a HEIC still whose EXIF carries the movie's content identifier.
        let folder = try folder([(.movAppleKeys, "IMG_0002.MOV"), (.gifAnimated, "loop.gif")])
        defer { Temporary.remove(folder) }
        let still = folder.appendingPathComponent("IMG_0002.HEIC")
        var heif = HEIFBuilder()
        var tiff = TIFFBuilder()
        tiff.exif = [
            (0x927C, .undefined(TIFFBuilder.appleMakerNote(contentIdentifier: "1E2D3C4B-5A69-7887-96A5-B4C3D2E1F001")))
        ]
        heif.exif = tiff.build()
        try Data(heif.build()).write(to: still)

        let result = try pickup("probe", folder.path)
        #expect(result.status == 0)
        let lines = result.outputText.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("KIND") == true)
        let movie = try #require(lines.first { $0.hasSuffix("IMG_0002.MOV") })
        #expect(movie.hasPrefix("live movie"))
        #expect(movie.contains("0:01"))
        #expect(movie.contains("240x320 r270"))
        #expect(movie.contains("hevc/aac"))
        #expect(movie.contains("-33.8568,151.2153"))
        #expect(result.outputText.contains("Live Photos:"))
        #expect(result.outputText.contains("IMG_0002.HEIC + "))

        let json = try jsonLines(try pickup("probe", "--json", folder.path))
        let pair = try #require(json.last?["livePhotoPair"] as? [String: Any])
        #expect(pair["contentIdentifier"] as? String == "1E2D3C4B-5A69-7887-96A5-B4C3D2E1F001")
        #expect((pair["still"] as? String)?.hasSuffix("IMG_0002.HEIC") == true)
        #expect((pair["movie"] as? String)?.hasSuffix("IMG_0002.MOV") == true)
    }

    @Test("folders: direct files by default, everything below with --recursive, symlink loops walked once")
    func recursion() throws {
        let folder = try folder([(.jpegPlain, "top.jpg")])
        defer { Temporary.remove(folder) }
        let nested = folder.appendingPathComponent("DCIM/100APPLE")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: try Fixtures.path(.pngRGBA), toPath: nested.appendingPathComponent("IMG_0001.PNG").path)
        try FileManager.default.createSymbolicLink(
            atPath: nested.appendingPathComponent("loop").path, withDestinationPath: folder.path)
        try Data("hidden".utf8).write(to: folder.appendingPathComponent(".DS_Store"))

        let flat = try jsonLines(try pickup("probe", "--json", folder.path))
        #expect(flat.count == 1)
        let deep = try pickup("probe", "--json", "--recursive", folder.path)
        #expect(deep.status == 0)
        let paths = try jsonLines(deep).compactMap { $0["path"] as? String }
        #expect(paths.count == 2)
        #expect(paths.contains { $0.hasSuffix("DCIM/100APPLE/IMG_0001.PNG") })
    }

    @Test("sidecars in a folder are left alone, not failures; a folder of folders says to add -r")
    func sidecarsAndSubfolders() throws {
        let edit = Array("<?xml version=\"1.0\"?><plist><dict/></plist>\n".utf8)
        let folder = try folder([(.jpegPlain, "IMG_0001.JPG")], extra: [("IMG_0001.AAE", edit)])
        defer { Temporary.remove(folder) }
        let table = try pickup("probe", folder.path)
        #expect(table.status == 0, "\(table.errorText)")
        #expect(table.outputText.contains("2 files: 1 probed, 1 left alone (see above), 0 failed."))
        #expect(
            table.errorText.contains("pickup probe: left alone 1 file (not a photo or video): ")
                && table.errorText.contains("IMG_0001.AAE"), "\(table.errorText)")
        let json = try jsonLines(try pickup("probe", "--json", folder.path))
        let aside = try #require(json.first { ($0["path"] as? String)?.hasSuffix(".AAE") == true })
        #expect(aside["status"] as? String == "leftAlone" && aside["error"] == nil)
        // Named on the command line, a file must be media.
        #expect(try pickup("probe", folder.appendingPathComponent("IMG_0001.AAE").path).status == 1)

        let card = try self.folder([])
        defer { Temporary.remove(card) }
        try FileManager.default.createDirectory(
            at: card.appendingPathComponent("100APPLE"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: try Fixtures.path(.jpegPlain), toPath: card.appendingPathComponent("100APPLE/IMG_0002.JPG").path)
        let flat = try pickup("probe", card.path)
        #expect(flat.errorText.contains("only folders (100APPLE); add -r (--recursive)"), "\(flat.errorText)")
        // Nothing else named: a usage mistake (exit 2), as `upload` of a folder without -r is.
        #expect(flat.status == 2 && flat.outputText.isEmpty, "\(flat.status) \(flat.outputText)")
        // Beside a file that is probed, the hint is a warning and the run succeeds.
        let beside = try pickup("probe", card.path, try Fixtures.path(.jpegPlain))
        #expect(beside.status == 0 && beside.errorText.contains("add -r"), "\(beside.status) \(beside.errorText)")
        #expect(!(try pickup("probe", "-r", card.path)).errorText.contains("add -r"))
    }

    @Test("paths with spaces, quotes and newlines are escaped in JSON")
    func awkwardNames() throws {
        let name = "trip \"day 1\"\nclip.mp4"
        let folder = try folder([(.mp4Faststart, name)])
        defer { Temporary.remove(folder) }
        let lines = try jsonLines(try pickup("probe", "--json", folder.appendingPathComponent(name).path))
        #expect((lines.first?["path"] as? String)?.hasSuffix(name) == true)
        // A table row stays one row: the newline (and an escape that would drive the terminal) is
        // shown as \n and \x1B, as every table, progress line and message shows it.
        let table = try pickup("probe", folder.appendingPathComponent(name).path)
        #expect(table.outputText.contains("trip \"day 1\"\\nclip.mp4"), "\(table.outputText)")
        #expect(table.outputText.split(separator: "\n").count == 3)  // header, row, closing line
        // thumb and export name their outputs as import names stored copies: '_' for a newline.
        let out = folder.appendingPathComponent("out").path
        let thumb = try CLI.run(["thumb", folder.appendingPathComponent(name).path, "-o", out + "/"])
        #expect(thumb.status == 0, "\(thumb.errorText)")
        #expect(FileManager.default.fileExists(atPath: out + "/trip \"day 1\"_clip-thumb.jpg"))
        #expect(thumb.outputText.split(separator: "\n").count == 1 && thumb.outputText.contains("\\nclip.mp4"))
        let escape = "bell\u{1B}[31m.jpg"
        try FileManager.default.copyItem(
            atPath: try Fixtures.path(.jpegPlain), toPath: folder.appendingPathComponent(escape).path)
        let failing = try pickup("probe", folder.appendingPathComponent(escape).path, "/nonexistent\u{1B}[2J.jpg")
        #expect(failing.outputText.contains("bell\\x1B[31m.jpg") && !failing.outputText.contains("\u{1B}"))
        #expect(failing.errorText.contains("\\x1B[2J") && !failing.errorText.contains("\u{1B}"))
    }
}
