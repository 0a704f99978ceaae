import Foundation
import PickupTestSupport
import Testing

/// `--files-from`, `-0`, the argument `-` and `--include`/`--exclude`, through the built tool,
/// as `find -print0 | xargs -0` and rsync users would use them.
@Suite("File lists and patterns, end to end")
struct FileListCommandTests {
    func pickup(_ arguments: String...) throws -> Shell.Result { try CLI.run(arguments) }

    /// card/A.JPG, card/sub/B.jpg, card/sub/two⏎lines.jpg (a name with a newline), card/note.txt.
    func card() throws -> URL {
        let folder = Temporary.url("cli-list")
        let card = folder.appendingPathComponent("card")
        try FileManager.default.createDirectory(
            at: card.appendingPathComponent("sub"), withIntermediateDirectories: true)
        // Three contents, so that each is its own item in a library.
        for (name, fixture) in [
            ("A.JPG", Fixture.jpegEXIF), ("sub/B.jpg", .jpegPlain), ("sub/two\nlines.jpg", .jpegOrientation6),
        ] {
            try FileManager.default.copyItem(
                atPath: try Fixtures.path(fixture), toPath: card.appendingPathComponent(name).path)
        }
        try Data("a note".utf8).write(to: card.appendingPathComponent("note.txt"))
        return folder
    }

    func probedPaths(_ result: Shell.Result) throws -> [String] {
        try CLI.jsonLines(result).filter { $0["type"] as? String == "media" }.compactMap { $0["path"] as? String }
            .sorted()
    }

    @Test("an empty folder named (a card's mount point with no card, a folder named like a photo) is said to be one")
    func emptyFolder() throws {
        let folder = Temporary.url("cli-empty")
        defer { Temporary.remove(folder) }
        let empty = folder.appendingPathComponent("IMG_0001.JPG").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: empty + "/.DS_Store"))
        let runs = [
            ["probe", empty], ["thumb", "-r", empty, "-o", folder.path + "/t"],
            ["export", "-r", empty, "--preset", "low", "-o", folder.path + "/e"],
            // -r, as the other commands take it: import scans folders anyway.
            ["import", "-r", empty, "--into", folder.path + "/lib"],
            ["upload", "-r", empty, "--to", "http://127.0.0.1:9/upload", "--journal", folder.path + "/j.sqlite"],
        ]
        for arguments in runs {
            let result = try CLI.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.errorText)")
            #expect(
                result.errorText.contains("pickup \(arguments[0]): \(empty) is an empty folder (hidden files aside)"),
                "\(arguments): \(result.errorText)")
        }
        // A folder with a photo in it is not.
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: empty + "/a.jpg")
        let probed = try CLI.run(["probe", empty])
        #expect(probed.status == 0 && !probed.errorText.contains("empty folder"), "\(probed.errorText)")
    }

    @Test("--include takes files by name in either case; --exclude leaves a folder out")
    func patterns() throws {
        let folder = try card()
        defer { Temporary.remove(folder) }
        let card = folder.appendingPathComponent("card").path
        let jpegs = try pickup("probe", "-r", card, "--include", "*.jpg", "--json")
        #expect(jpegs.status == 0, "note.txt is not taken, so nothing fails")
        #expect(
            try probedPaths(jpegs).map { ($0 as NSString).lastPathComponent } == ["A.JPG", "B.jpg", "two\nlines.jpg"])
        let top = try pickup("probe", "-r", card, "--exclude", "sub/**", "--exclude", "*.txt", "--json")
        #expect(try probedPaths(top) == [card + "/A.JPG"])
        // A file named itself that the patterns leave out is said to be left alone, not dropped in silence.
        let named = try pickup("probe", card + "/A.JPG", card + "/note.txt", "--exclude", "*.txt")
        #expect(named.status == 0)
        #expect(
            named.errorText.contains(
                "pickup probe: left alone 1 file (not taken by the --include/--exclude patterns): \(card)/note.txt"),
            "\(named.errorText)")
        // Every command says what it left alone in the same words.
        for command in [["import", "--into", folder.path + "/L", "--dry-run"], ["thumb", "-o", folder.path + "/t/"]] {
            let said = try CLI.run(
                [command[0], card + "/A.JPG", card + "/note.txt", "--exclude", "*.txt"] + command.dropFirst())
            #expect(
                said.errorText.contains(
                    "pickup \(command[0]): left alone 1 file (not taken by the --include/--exclude patterns): "
                        + "\(card)/note.txt"),
                "\(said.errorText)")
        }
    }

    @Test("find -print0 | pickup probe --files-from - -0 reads names with newlines; lines work without -0")
    func nulList() throws {
        let folder = try card()
        defer { Temporary.remove(folder) }
        let card = folder.appendingPathComponent("card").path
        let nul = try Shell.run(
            "find '\(card)' -name '*.jpg' -print0 | '\(CLI.tool)' probe --files-from - -0 --json")
        #expect(nul.status == 0, "\(nul.errorText)")
        #expect(try probedPaths(nul) == [card + "/sub/B.jpg", card + "/sub/two\nlines.jpg"])
        let list = folder.appendingPathComponent("list.txt")
        try Data("\(card)/A.JPG\r\n\n\(card)/sub/B.jpg\n".utf8).write(to: list)
        let lines = try pickup("probe", "--files-from", list.path, "--json")
        #expect(try probedPaths(lines) == [card + "/A.JPG", card + "/sub/B.jpg"], "CRLF and empty lines are fine")
        let dash = try Shell.run("printf '%s\\n' '\(card)/A.JPG' | '\(CLI.tool)' probe - --json")
        #expect(try probedPaths(dash) == [card + "/A.JPG"])
        // A pipe named as the list (bash's process substitution), read once though checked twice.
        let piped = try Shell.run("'\(CLI.tool)' probe --files-from <(printf '%s\\n' '\(card)/A.JPG') --json")
        #expect(piped.status == 0, "\(piped.errorText)")
        #expect(try probedPaths(piped) == [card + "/A.JPG"])
    }

    @Test(
        "find's whole output (folders too) takes each file once; a listed note is left alone as in a walk, not a failure"
    )
    func wholeFindOutput() throws {
        let folder = try card()
        defer { Temporary.remove(folder) }
        let card = folder.appendingPathComponent("card").path
        let probed = try Shell.run("cd '\(card)' && find . -print0 | '\(CLI.tool)' probe --files-from - -0")
        #expect(probed.status == 0, "\(probed.errorText)")
        #expect(probed.outputText.contains("4 files: 3 probed, 1 left alone"), "\(probed.outputText)")
        #expect(probed.outputText.components(separatedBy: "./sub/B.jpg").count == 2, "probed once")
        #expect(!probed.errorText.contains("note.txt: "), "a listed note is no failure: \(probed.errorText)")
        let library = folder.path + "/L"
        let imported = try Shell.run(
            "cd '\(card)' && find . -print0 | '\(CLI.tool)' import --files-from - -0 --into '\(library)' --json")
        #expect(imported.status == 0, "\(imported.errorText)")
        let lines = try CLI.jsonLines(imported)
        #expect(lines.filter { $0["type"] as? String == "item" }.count == 3)
        #expect(lines.contains { $0["type"] as? String == "leftAlone" && $0["path"] as? String == "./note.txt" })
        // The folder named too, beside find's list of it: each file once, probed or left alone.
        let both = try Shell.run("cd '\(card)' && find . -print0 | '\(CLI.tool)' probe -r . --files-from - -0")
        #expect(both.outputText.contains("4 files: 3 probed, 1 left alone"), "\(both.outputText)")
        let dry = try Shell.run(
            "cd '\(card)' && find . -print0 | '\(CLI.tool)' import . --files-from - -0 --into '\(folder.path)/M' --dry-run"
        )
        #expect(dry.errorText.contains("left alone 1 file (not a photo or video): ./note.txt\n"), "\(dry.errorText)")
        // A folder listed with a trailing slash (ls -dp, */) is a folder all the same.
        let slashed = try Shell.run("printf '%s\\n' '\(card)/sub/' | '\(CLI.tool)' probe - --json")
        #expect(
            try probedPaths(slashed) == [card + "/sub/B.jpg", card + "/sub/two\nlines.jpg"], "\(slashed.outputText)")
        // Across arguments too: a folder and a file in it give the file once, for every command.
        let thumbs = try pickup(
            "thumb", "-r", card + "/sub", card + "/sub/B.jpg", "-o", folder.path + "/t/", "--dry-run")
        #expect(thumbs.outputText.components(separatedBy: "B.jpg").count == 2, "\(thumbs.outputText)")
        let sends = try pickup(
            "upload", "-r", card + "/sub", card + "/sub/B.jpg", "--to", "tus+http://127.0.0.1:9/files/", "--dry-run")
        #expect(sends.outputText.contains("2 files ("), "\(sends.outputText)")
        // A folder listed alone still stands for what is in it.
        let alone = try Shell.run("printf '%s\\n' '\(card)/sub' | '\(CLI.tool)' probe - --json")
        #expect(try probedPaths(alone) == [card + "/sub/B.jpg", card + "/sub/two\nlines.jpg"])
        // An empty list (a find that found nothing): nothing done, no library made, no crash.
        for command in ["import - --into '\(folder.path)/Empty'", "thumb -", "export - --preset low", "probe -"] {
            let empty = try Shell.run("printf '' | '\(CLI.tool)' \(command)")
            #expect(empty.status == 0, "\(command): \(empty.errorText)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/Empty"))
        // Named itself, a note is still a failure: the user asked for that very file.
        #expect(try pickup("probe", card + "/note.txt").status == 1)
    }

    @Test("misuse: -0 with no list, standard input twice, a list that is not there, NULs without -0")
    func misuse() throws {
        let folder = try card()
        defer { Temporary.remove(folder) }
        let card = folder.appendingPathComponent("card").path
        let alone = try pickup("probe", "-0", card + "/A.JPG")
        #expect(alone.status == 2 && alone.errorText.contains("-0 reads a list of paths"))
        let twice = try pickup("probe", "-", "--files-from", "-")
        #expect(twice.status == 2 && twice.errorText.contains("standard input ('-') can be read once"))
        let missing = try pickup("probe", "--files-from", folder.appendingPathComponent("nosuch").path)
        #expect(missing.status == 2 && missing.errorText.contains("cannot read the list of files"))
        #expect(missing.errorText.contains("no such file"))
        let folderGiven = try pickup("probe", "--files-from", card)
        #expect(folderGiven.status == 2 && folderGiven.errorText.contains("is a folder"))
        let nuls = try Shell.run("find '\(card)' -name '*.jpg' -print0 | '\(CLI.tool)' probe --files-from -")
        #expect(nuls.status == 2 && nuls.errorText.contains("add -0"))
    }

    @Test("import takes a list and patterns; its dry run agrees; thumb and export take them too")
    func importAndRender() throws {
        let folder = try card()
        defer { Temporary.remove(folder) }
        let card = folder.appendingPathComponent("card").path
        let library = folder.appendingPathComponent("Library").path
        let dry = try pickup("import", card, "--into", library, "--exclude", "sub/*", "--dry-run")
        #expect(dry.status == 0, "\(dry.errorText)")
        #expect(dry.outputText.contains("1 item would be imported"), "\(dry.outputText)")
        // A file that would fail is counted in the summary, as the real run counts it.
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: folder.path + "/broken.jpg"))
        let failing = try pickup("import", folder.path + "/broken.jpg", "--into", library, "--dry-run")
        #expect(
            failing.status == 1 && failing.outputText.contains("1 file that would fail (see above)"),
            "\(failing.outputText)")
        let done = try pickup("import", card, "--into", library, "--exclude", "sub/*", "--json")
        #expect(done.status == 0, "\(done.errorText)")
        let imported = try CLI.jsonLines(done).filter { $0["status"] as? String == "imported" }
        #expect(imported.compactMap { $0["path"] as? String } == [card + "/A.JPG"])
        let list = folder.appendingPathComponent("list.txt")
        try Data("\(card)/sub/B.jpg\n".utf8).write(to: list)
        let listed = try pickup("import", "--files-from", list.path, "--into", library, "--json")
        #expect(try CLI.jsonLines(listed).compactMap { $0["status"] as? String } == ["imported"])

        // An iPhone's edits go with the photo an --include takes, and only with it.
        let edits = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict/></plist>"#
        try Data(edits.utf8).write(to: URL(fileURLWithPath: card + "/A.AAE"))
        try Data(edits.utf8).write(to: URL(fileURLWithPath: card + "/sub/Z.AAE"))
        let withEdits = try pickup(
            "import", card, "--into", folder.appendingPathComponent("L2").path, "--include", "a.jpg", "--json")
        #expect(withEdits.status == 0, "\(withEdits.errorText)")
        let item = try #require(try CLI.jsonLines(withEdits).first { $0["status"] as? String == "imported" })
        #expect("\(item)".contains("A.AAE"), "the photo's edits went with it: \(item)")
        #expect(!withEdits.outputText.contains("Z.AAE"), "another photo's edits were not asked for")

        let thumbs = folder.appendingPathComponent("thumbs").path + "/"
        let thumb = try pickup("thumb", "-r", card, "--include", "b.*", "-o", thumbs)
        #expect(thumb.status == 0, "\(thumb.errorText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: thumbs).count == 1)
    }

    @Test("upload's patterns take a photo's .AAE with it, dated as the photo; what they leave out is counted")
    func uploadEditsAndCounts() throws {
        let folder = try card()
        defer { Temporary.remove(folder) }
        let card = folder.appendingPathComponent("card").path
        let edits = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict/></plist>"#
        try Data(edits.utf8).write(to: URL(fileURLWithPath: card + "/A.AAE"))
        let sent = try pickup(
            "upload", "-r", card, "--include", "*.jpg", "--exclude", "sub/**", "--to", "s3://bucket/roll/",
            "--key", "{date}/{name}", "--dry-run")
        #expect(sent.status == 0, "\(sent.errorText)")
        let keys = sent.outputText.split(separator: "\n").filter { $0.hasPrefix("would send") }
            .compactMap { $0.split(separator: " ").first { $0.hasPrefix("s3://") }.map(String.init) }
        // The fixture's photo was taken on 2021-06-15 (Fixture.jpegEXIF); its edits say no date.
        #expect(keys.count == 2, "\(sent.outputText)")
        let photo = try #require(keys.first { $0.hasSuffix("/A.JPG") })
        #expect(!photo.contains("undated"), "\(photo)")
        #expect(keys.contains(photo.replacingOccurrences(of: "A.JPG", with: "A.AAE")), "\(keys)")
        // note.txt and the two photos in sub/ were not taken: said as a count, not dropped in silence.
        #expect(
            sent.errorText.contains("3 files in the folders were not taken by the --include/--exclude patterns"),
            "\(sent.errorText)")
        let probed = try pickup("probe", "-r", card, "--include", "*.jpg", "--exclude", "sub/**")
        #expect(
            probed.outputText.contains("; 3 more not taken by the --include/--exclude patterns."),
            "\(probed.outputText)")
        let thumbs = folder.appendingPathComponent("thumbs").path + "/"
        let thumb = try pickup("thumb", "-r", card, "--include", "b.*", "-o", thumbs)
        #expect(thumb.errorText.contains("pickup thumb: 4 files in the folders were not taken"), "\(thumb.errorText)")
    }
}
