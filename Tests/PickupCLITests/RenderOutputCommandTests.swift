import Foundation
import PickupStore
import PickupTestSupport
import Testing

/// Where `pickup thumb` and `pickup export` write, through the built tool: names they make
/// themselves fit the file system, and an output name that cannot hold what is asked is refused
/// before anything is rendered.
@Suite("thumb and export outputs, end to end")
struct RenderOutputCommandTests {
    func scratch() throws -> String {
        let folder = try Temporary.folder("cli-outputs")
        return folder
    }

    @Test("thumb of several files, or a strip, to -o one.jpg is an error, as for export; no folder is made")
    func severalImagesToOneName() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let many = try CLI.run([
            "thumb", try Fixtures.path(.jpegPlain), try Fixtures.path(.jpegEXIF), "-o", folder + "/one.jpg",
        ])
        #expect(many.status == 2)
        #expect(many.errorText.contains("names one image, but 2 files give 2 images"), "\(many.errorText)")
        #expect(many.errorText.contains("name a folder"))
        let strip = try CLI.run(["thumb", try Fixtures.path(.mp4BlackStart), "--strip", "3", "-o", folder + "/s.png"])
        #expect(strip.status == 2)
        #expect(strip.errorText.contains("--strip gives several images"), "\(strip.errorText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        // A folder that exists, or a name ending in '/', takes them.
        let into = try CLI.run([
            "thumb", try Fixtures.path(.jpegPlain), try Fixtures.path(.jpegEXIF), "-o", folder + "/thumbs.jpg/",
        ])
        #expect(into.status == 0, "\(into.errorText)")
        #expect(FileManager.default.fileExists(atPath: folder + "/thumbs.jpg/plain-thumb.jpg"))
        // Several files end with one closing line, as import and upload do.
        #expect(into.outputText.hasSuffix("\n2 files: 2 made, 0 already there, 0 failed.\n"), "\(into.outputText)")
    }

    @Test("export without a terminal: a remux done at once prints its plan and its result, no percentages")
    func quietQuickExport() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let result = try CLI.run([
            "export", try Fixtures.path(.mp4BlackStart), "--preset", "passthrough", "-o", folder + "/out.mp4",
        ])
        #expect(result.status == 0, "\(result.errorText)")
        let percentages = result.errorText.split(separator: "\n").filter { $0.hasSuffix("%") }
        #expect(percentages.isEmpty, "\(result.errorText)")
        #expect(result.errorText.contains("passthrough"), "the plan is said: \(result.errorText)")
    }

    @Test("a 250-byte file name gives thumbnails and exports under shortened names, not 'File name too long'")
    func longNamesAreShortened() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let stem = String(repeating: "é", count: 60) + String(repeating: "x", count: 126)  // 246 bytes
        let photo = folder + "/" + stem + ".jpg"
        let video = folder + "/" + stem + ".mp4"
        #expect(stem.utf8.count + 4 == 250)
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: photo)
        try FileManager.default.copyItem(atPath: try Fixtures.path(.mp4BlackStart), toPath: video)
        let out = folder + "/out"
        let thumb = try CLI.run(["thumb", photo, "--size", "64x64", "-o", out + "/", "--json"])
        #expect(thumb.status == 0, "\(thumb.errorText)")
        let written = try #require(CLI.jsonLines(thumb).first?["path"] as? String)
        let name = (written as NSString).lastPathComponent
        #expect(name.utf8.count <= 255 && name.hasSuffix("-thumb.jpg") && name.hasPrefix("éé"), "\(name)")
        #expect(FileManager.default.fileExists(atPath: written))
        let strip = try CLI.run(["thumb", video, "--strip", "2", "--size", "64x64", "-o", out + "/", "--json"])
        #expect(strip.status == 0, "\(strip.errorText)")
        #expect(try CLI.jsonLines(strip).count == 2)
        let export = try CLI.run(["export", video, "--preset", "passthrough", "-o", out + "/", "--json"])
        #expect(export.status == 0, "\(export.errorText)")
        let exported = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".mp4") }
        #expect(exported.count == 1 && exported.allSatisfy { $0.utf8.count <= 255 }, "\(exported)")
    }

    @Test("a Live Photo's still and movie, one name in one folder, get thumbnails named by their extensions")
    func sameNameOtherExtension() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let still = folder + "/IMG_0001.JPG"
        let movie = folder + "/IMG_0001.MOV"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: still)
        try FileManager.default.copyItem(atPath: try Fixtures.path(.movAppleKeys), toPath: movie)
        let result = try CLI.run(["thumb", still, movie, "--size", "16x16", "-o", folder + "/out/", "--json"])
        #expect(result.status == 0, "\(result.errorText)")
        let names = try CLI.jsonLines(result).compactMap { line in
            (line["path"] as? String).map { ($0 as NSString).lastPathComponent }
        }
        #expect(names == ["IMG_0001 (JPG)-thumb.jpg", "IMG_0001 (MOV)-thumb.jpg"], "\(names)")
    }

    @Test("a name given without a folder is told apart by the current folder's name, not '.'")
    func currentFolderNamed() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        for name in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: folder + "/\(name)/IMG.jpg")
        }
        let result = try Shell.run(
            "cd \"$DIR/a\" && \"$TOOL\" thumb IMG.jpg ../b/IMG.jpg --size 16x16 -o ../out/ --json",
            environment: [
                "DIR": folder,
                "TOOL": CLI.tool.hasPrefix("/") ? CLI.tool : FileManager.default.currentDirectoryPath + "/" + CLI.tool,
            ])
        #expect(result.status == 0, "\(result.errorText)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted()
        #expect(names == ["IMG (a)-thumb.jpg", "IMG (b)-thumb.jpg"], "\(names)")
    }

    @Test("pickup-render thumbnails takes a library only: a mistyped folder is said, and not made into one")
    func thumbnailsNeedALibrary() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let render = (CLI.tool as NSString).deletingLastPathComponent + "/pickup-render"
        let result = try Shell.execute(render, ["thumbnails", folder + "/typo"])
        #expect(result.status == 1)
        #expect(result.errorText.contains("typo: no such folder"), "\(result.errorText)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/typo"))
    }

    @Test("inputs of one name in folders of one name get thumbnails named with hashes of one length")
    func sameNamesSameHashLength() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        // Enough same-named folders that some hash has fewer than six hex digits (one in 16 does;
        // none of 100 only once in 600 runs).
        var inputs: [String] = []
        for index in 0..<100 {
            let path = folder + "/\(index)/DCIM/IMG.jpg"
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: path)
            inputs.append(path)
        }
        let result = try CLI.run(["thumb"] + inputs + ["--size", "16x16", "-o", folder + "/out/", "--json"])
        #expect(result.status == 0, "\(result.errorText)")
        let names = try CLI.jsonLines(result).compactMap { line in
            (line["path"] as? String).map { ($0 as NSString).lastPathComponent }
        }
        #expect(names.count == 100 && Set(names).count == 100)
        #expect(Set(names.map(\.count)) == ["IMG (DCIM 123456)-thumb.jpg".count], "\(names)")
    }

    @Test("export --dry-run prints the plan the export would follow, and writes nothing, not even its folder")
    func exportDryRun() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let video = try Fixtures.path(.mp4BlackStart)
        let out = folder + "/out/"
        let dry = try CLI.run(["export", video, "--preset", "640x480", "-o", out, "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.errorText)")
        let plan = try #require(CLI.jsonLines(dry).first)
        #expect(try CLI.jsonLines(dry).count == 1 && plan["type"] as? String == "plan")
        #expect(!FileManager.default.fileExists(atPath: out))
        let words = try CLI.run(["export", video, "--preset", "640x480", "-o", out, "--dry-run"])
        #expect(
            words.outputText.contains(
                (plan["plan"] as? String == "remux"
                    ? "would copy its streams as they are (" : "would re-encode it (")
                    + (plan["reason"] as? String ?? "?") + ")"),
            "\(words.outputText)")
        // The real export follows that very plan.
        let real = try CLI.run(["export", video, "--preset", "640x480", "-o", out, "--json"])
        #expect(real.status == 0, "\(real.errorText)")
        let followed = try #require(CLI.jsonLines(real).first)
        for key in ["path", "plan", "reason"] { #expect(followed[key] as? String == plan[key] as? String, "\(key)") }
        #expect(FileManager.default.fileExists(atPath: plan["path"] as? String ?? ""))
    }
}

/// A folder run twice: `-o` is a folder for a folder, whatever it holds, and what the first run
/// made is left as it is by the second, or made again when its file changed since.
@Suite("thumb and export of a folder, run again")
struct RenderAgainCommandTests {
    @Test("a folder of one photo and one video: -o is a folder; run again, each output is already there")
    func folderRunAgain() throws {
        let folder = try Temporary.folder("cli-again")
        defer { Temporary.remove(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/card/sub", withIntermediateDirectories: true)
        let photo = folder + "/card/sub/IMG_0001.JPG"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: photo)
        try FileManager.default.copyItem(atPath: try Fixtures.path(.mp4BlackStart), toPath: folder + "/clip.mp4")
        // One photo in a folder: -o names the folder its thumbnail goes in, not the thumbnail.
        let first = try CLI.run(["thumb", "-r", folder + "/card", "-o", folder + "/thumbs"])
        #expect(first.status == 0, "\(first.errorText)")
        let thumbnail = folder + "/thumbs/IMG_0001-thumb.jpg"
        let made = try #require(FileStatus(path: thumbnail))
        // Again: left as it is, said, exit 0; --json says alreadyThere.
        let again = try CLI.run(["thumb", "-r", folder + "/card", "-o", folder + "/thumbs"])
        #expect(again.status == 0, "\(again.errorText)")
        #expect(again.outputText.contains("IMG_0001-thumb.jpg: already there"), "\(again.outputText)")
        #expect(FileStatus(path: thumbnail) == made)
        let json = try CLI.run(["thumb", "-r", folder + "/card", "-o", folder + "/thumbs", "--json", "--dry-run"])
        #expect(json.status == 0)
        #expect(try CLI.jsonLines(json).map { $0["type"] as? String } == ["alreadyThere"])
        // The photo changed since: its thumbnail is made again, and said so (the dry run too).
        let later = Date().addingTimeInterval(5)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: photo)
        let plan = try CLI.run(["thumb", "-r", folder + "/card", "-o", folder + "/thumbs", "--dry-run"])
        #expect(plan.status == 0 && plan.outputText.contains("would be made again"), "\(plan.outputText)")
        let planJSON = try CLI.run(["thumb", "-r", folder + "/card", "-o", folder + "/thumbs", "--dry-run", "--json"])
        #expect(try CLI.jsonLines(planJSON).map { $0["madeAgain"] as? Bool } == [true], "\(planJSON.outputText)")
        let changed = try CLI.run(["thumb", "-r", folder + "/card", "-o", folder + "/thumbs"])
        #expect(changed.status == 0, "\(changed.errorText)")
        #expect(changed.outputText.contains("(made again: the file changed since)"), "\(changed.outputText)")
        let remade = try #require(FileStatus(path: thumbnail))
        #expect(remade != made)
        // --force makes every one again, changed or not.
        let forced = try CLI.run(["thumb", "-r", folder + "/card", "-o", folder + "/thumbs", "--force", "--json"])
        #expect(forced.status == 0, "\(forced.errorText)")
        #expect(try CLI.jsonLines(forced).map { $0["madeAgain"] as? Bool } == [true], "\(forced.outputText)")
        // Changed again, in JSON: the image line says it was made again.
        try FileManager.default.setAttributes([.modificationDate: later.addingTimeInterval(5)], ofItemAtPath: photo)
        let changedJSON = try CLI.run(["thumb", "-r", folder + "/card", "-o", folder + "/thumbs", "--json"])
        #expect(try CLI.jsonLines(changedJSON).map { $0["type"] as? String } == ["image"])
        #expect(try CLI.jsonLines(changedJSON).map { $0["madeAgain"] as? Bool } == [true])
        #expect(FileStatus(path: thumbnail) != remade)
        // One file named: -o still names it, and one that exists is refused as before.
        let named = try CLI.run(["thumb", photo, "-o", folder + "/one.jpg"])
        #expect(named.status == 0 && FileManager.default.fileExists(atPath: folder + "/one.jpg"))
        #expect(try CLI.run(["thumb", photo, "-o", folder + "/one.jpg"]).status == 1)

        // Export: the same for a folder of one video.
        try FileManager.default.createDirectory(atPath: folder + "/videos", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: folder + "/clip.mp4", toPath: folder + "/videos/clip.mp4")
        let export = ["export", "-r", folder + "/videos", "--preset", "passthrough", "-o", folder + "/exports"]
        let exported = try CLI.run(export)
        #expect(exported.status == 0, "\(exported.errorText)")
        let output = folder + "/exports/clip-passthrough.mp4"
        let written = try #require(FileStatus(path: output))
        let exportedAgain = try CLI.run(export + ["--json"])
        #expect(exportedAgain.status == 0, "\(exportedAgain.errorText)")
        #expect(try CLI.jsonLines(exportedAgain).map { $0["type"] as? String } == ["alreadyThere"])
        #expect(FileStatus(path: output) == written)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: folder + "/videos/clip.mp4")
        let exportPlan = try CLI.run(export + ["--dry-run", "--json"])
        #expect(try CLI.jsonLines(exportPlan).map { $0["madeAgain"] as? Bool } == [true], "\(exportPlan.outputText)")
        let exportedChanged = try CLI.run(export)
        #expect(exportedChanged.status == 0, "\(exportedChanged.errorText)")
        #expect(exportedChanged.errorText.contains("is made again"), "\(exportedChanged.errorText)")
        #expect(FileStatus(path: output) != written)
        let exportedFirst = try CLI.run(export + ["--force", "--json"])
        #expect(try CLI.jsonLines(exportedFirst).last?["madeAgain"] as? Bool == true, "\(exportedFirst.outputText)")
        try JSONSchemaTests().check("export", [exportedAgain, exportPlan, exportedFirst])
        try JSONSchemaTests().check("thumb", [json, planJSON, forced, changedJSON])
    }
}

/// What a run again does with an output made with other options, or from another file of the
/// same name: the record each output keeps of how it was made (an extended attribute).
@Suite("thumb and export run again with other options or other files")
struct RenderAskedDifferentlyCommandTests {
    /// Whether the test folder's file system keeps extended attributes (ext4, XFS, btrfs, tmpfs
    /// since Linux 6.6, APFS): without them outputs are judged by their times alone.
    static func keepsAttributes(_ folder: String) throws -> Bool {
        let probe = folder + "/.attribute-probe"
        _ = FileManager.default.createFile(atPath: probe, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: probe) }
        let set = try Shell.run(
            "python3 -c 'import os, sys; os.setxattr(sys.argv[1], \"user.pickup.probe\", b\"1\")' \"$PROBE\"",
            environment: ["PROBE": probe])
        return set.status == 0
    }

    @Test("another --size, --strip-location or --trim makes the output again; another file of one name gets its own")
    func askedDifferently() throws {
        let folder = try Temporary.folder("cli-asked")
        defer { Temporary.remove(folder) }
        guard try Self.keepsAttributes(folder) else { return }
        for sub in ["a", "b", "videos"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: folder + "/a/x.jpg")
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegEXIF), toPath: folder + "/b/x.jpg")
        let thumbs = folder + "/thumbs"
        #expect(try CLI.run(["thumb", "-r", folder + "/a", "-o", thumbs]).status == 0)
        let bigger = try CLI.run(["thumb", "-r", folder + "/a", "-o", thumbs, "--size", "64x64", "--json"])
        #expect(bigger.status == 0, "\(bigger.errorText)")
        let line = try #require(try CLI.jsonLines(bigger).first)
        #expect(line["type"] as? String == "image" && line["width"] as? Int == 64 && line["madeAgain"] as? Bool == true)
        let text = try CLI.run(["thumb", "-r", folder + "/a", "-o", thumbs, "--size", "32x32"])
        #expect(text.outputText.contains("(made again: it was made with other options)"), "\(text.outputText)")
        // The same again: already there.
        let same = try CLI.run(["thumb", "-r", folder + "/a", "-o", thumbs, "--size", "32x32", "--json"])
        #expect(try CLI.jsonLines(same).map { $0["type"] as? String } == ["alreadyThere"])
        // b/x.jpg is another photo of the same name: a's thumbnail is kept, and b's takes the name
        // a run with both would give it, in this run and the next, alone or beside a's.
        let before = try Data(contentsOf: URL(fileURLWithPath: thumbs + "/x-thumb.jpg"))
        let other = try CLI.run(["thumb", "-r", folder + "/b", "-o", thumbs, "--size", "32x32"])
        #expect(other.status == 0, "\(other.errorText)")
        #expect(other.outputText.contains("→ \(thumbs)/x (b)-thumb.jpg 32x32"), "\(other.outputText)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: thumbs + "/x-thumb.jpg")) == before)
        for run in [[folder + "/b"], [folder + "/b", folder + "/a"]] {
            let again = try CLI.run(["thumb", "-r"] + run + ["-o", thumbs, "--size", "32x32", "--json"])
            #expect(
                try CLI.jsonLines(again).compactMap { $0["path"] as? String }.sorted()
                    == [
                        thumbs + "/x (b)-thumb.jpg", thumbs + "/x-thumb.jpg",
                    ].filter { run.count == 2 || $0.contains("(b)") }, "\(again.outputText)")
            #expect(try CLI.jsonLines(again).allSatisfy { $0["type"] as? String == "alreadyThere" })
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: thumbs).sorted() == ["x (b)-thumb.jpg", "x-thumb.jpg"])
        // A person's own file of the name is refused, as before: it is nobody's output.
        try FileManager.default.removeItem(atPath: thumbs + "/x (b)-thumb.jpg")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: thumbs + "/x (b)-thumb.jpg"))
        let mine = try CLI.run(["thumb", folder + "/a/x.jpg", folder + "/b/x.jpg", "-o", thumbs, "--size", "32x32"])
        #expect(mine.status == 1 && mine.errorText.contains("x (b)-thumb.jpg"), "\(mine.errorText)")
        #expect(try String(contentsOfFile: thumbs + "/x (b)-thumb.jpg", encoding: .utf8) == "mine")

        // An export made without --strip-location is not what one with it asks for.
        try FileManager.default.copyItem(atPath: try Fixtures.path(.mp4BlackStart), toPath: folder + "/videos/clip.mp4")
        let export = ["export", "-r", folder + "/videos", "--preset", "passthrough", "-o", folder + "/exports"]
        #expect(try CLI.run(export).status == 0)
        let stripped = try CLI.run(export + ["--strip-location"])
        #expect(stripped.status == 0 && stripped.errorText.contains("is made again: it was made with other options"))
        let trimmed = try CLI.run(export + ["--strip-location", "--trim", "0-1", "--json"])
        #expect(try CLI.jsonLines(trimmed).last?["madeAgain"] as? Bool == true, "\(trimmed.outputText)")
        let again = try CLI.run(export + ["--strip-location", "--trim", "0-1", "--json"])
        #expect(try CLI.jsonLines(again).map { $0["type"] as? String } == ["alreadyThere"], "\(again.outputText)")
        try JSONSchemaTests().check("thumb", [bigger, same])
        try JSONSchemaTests().check("export", [trimmed, again])
    }

    @Test(
        "a file Pickup did not make at an output's name is refused, older or newer; a source replaced by an older copy makes its output again; --at does not shape a photo's"
    )
    func notPickupsOrReplaced() throws {
        let folder = try Temporary.folder("cli-asked")
        defer { Temporary.remove(folder) }
        guard try RenderAskedDifferentlyCommandTests.keepsAttributes(folder) else { return }
        try FileManager.default.createDirectory(atPath: folder + "/card", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        let photo = folder + "/card/IMG.jpg"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: photo)
        // The person's own file under the name Pickup would give, older and then newer than the photo.
        let mine = folder + "/out/IMG-thumb.jpg"
        for date in [Date(timeIntervalSince1970: 978_307_200), Date().addingTimeInterval(60)] {
            try Data("precious".utf8).write(to: URL(fileURLWithPath: mine))
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: mine)
            let refused = try CLI.run(["thumb", "-r", folder + "/card", "-o", folder + "/out"])
            #expect(refused.status == 1 && refused.errorText.contains("exists"), "\(refused.outputText)")
            #expect(try String(contentsOfFile: mine, encoding: .utf8) == "precious")
        }
        try FileManager.default.removeItem(atPath: mine)
        #expect(try CLI.run(["thumb", "-r", folder + "/card", "-o", folder + "/out"]).status == 0)
        // A photo's thumbnail does not depend on --at: already there.
        let at = try CLI.run(["thumb", "-r", folder + "/card", "-o", folder + "/out", "--at", "50%", "--json"])
        #expect(try CLI.jsonLines(at).map { $0["type"] as? String } == ["alreadyThere"], "\(at.outputText)")
        // Another photo copied over it keeping its older time (cp -p, rsync -t): made again.
        let other = folder + "/other.jpg"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegEXIF), toPath: other)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 978_307_200)], ofItemAtPath: other)
        try FileManager.default.removeItem(atPath: photo)
        try FileManager.default.copyItem(atPath: other, toPath: photo)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 978_307_200)], ofItemAtPath: photo)
        let replaced = try CLI.run(["thumb", "-r", folder + "/card", "-o", folder + "/out"])
        #expect(replaced.outputText.contains("(made again: the file changed since)"), "\(replaced.outputText)")
    }

    @Test("outputs inside the folder read are left alone on a run again, in -o or not; named, they are taken")
    func outputsInsideTheCard() throws {
        let folder = try Temporary.folder("cli-inside")
        defer { Temporary.remove(folder) }
        let card = folder + "/card"
        try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Fixtures.path(.mp4BlackStart), toPath: card + "/clip.mp4")
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: card + "/photo.jpg")
        let export = ["export", "-r", card, "--preset", "passthrough", "-o", card + "/exports"]
        let thumb = ["thumb", "-r", card, "-o", card + "/thumbs", "--json"]
        #expect(try CLI.run(export).status == 0)
        #expect(try CLI.run(thumb).status == 0)
        for again in [export + ["--json"], thumb] {
            let run = try CLI.run(again)
            #expect(run.status == 0, "\(again): \(run.outputText) \(run.errorText)")
            let lines = try CLI.jsonLines(run)
            #expect(lines.allSatisfy { ["alreadyThere", "leftAlone"].contains($0["type"] as? String) }, "\(lines)")
            #expect(lines.contains { $0["reason"] as? String == "an output Pickup made" }, "\(lines)")
        }
        // Where the file system keeps records, an output found in a folder -o does not name
        // is Pickup's too: a thumbnail of the export is not made from it.
        if try RenderAskedDifferentlyCommandTests.keepsAttributes(folder) {
            let elsewhere = try CLI.run(["thumb", "-r", card, "-o", folder + "/other", "--json"])
            let made = try CLI.jsonLines(elsewhere).filter { $0["type"] as? String == "image" }
            #expect(made.compactMap { $0["source"] as? String }.sorted() == [card + "/clip.mp4", card + "/photo.jpg"])
        }
        // Named itself, an output is taken.
        let named = try CLI.run(["thumb", card + "/exports/clip-passthrough.mp4", "-o", folder + "/named.jpg"])
        #expect(named.status == 0, "\(named.errorText)")
    }

    @Test("a strip made again with fewer frames removes the earlier strip's other images, not a person's file")
    func shorterStrip() throws {
        let folder = try Temporary.folder("cli-asked")
        defer { Temporary.remove(folder) }
        guard try RenderAskedDifferentlyCommandTests.keepsAttributes(folder) else { return }
        try FileManager.default.createDirectory(atPath: folder + "/videos", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Fixtures.path(.mp4BlackStart), toPath: folder + "/videos/clip.mp4")
        let out = folder + "/out"
        let thumb = ["thumb", "-r", folder + "/videos", "-o", out]
        #expect(try CLI.run(thumb + ["--strip", "6"]).status == 0)
        func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: out).sorted() }
        #expect(try names() == (1...6).map { "clip-strip-0\($0).jpg" })
        // The person's own file in place of the fifth image: not Pickup's, so it stays.
        try FileManager.default.removeItem(atPath: out + "/clip-strip-05.jpg")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: out + "/clip-strip-05.jpg"))
        let planned = try CLI.run(thumb + ["--strip", "3", "--dry-run", "--json"])
        let wouldRemove = try CLI.jsonLines(planned).filter { $0["type"] as? String == "wouldRemove" }
        #expect(
            wouldRemove.compactMap { $0["path"] as? String } == [
                out + "/clip-strip-04.jpg", out + "/clip-strip-06.jpg",
            ])
        #expect(try names().count == 6)
        let shorter = try CLI.run(thumb + ["--strip", "3", "--json"])
        #expect(shorter.status == 0, "\(shorter.errorText)")
        let removed = try CLI.jsonLines(shorter).filter { $0["type"] as? String == "removed" }
        #expect(
            removed.compactMap { $0["path"] as? String } == [out + "/clip-strip-04.jpg", out + "/clip-strip-06.jpg"])
        #expect(try names() == ["clip-strip-01.jpg", "clip-strip-02.jpg", "clip-strip-03.jpg", "clip-strip-05.jpg"])
        #expect(try String(contentsOfFile: out + "/clip-strip-05.jpg", encoding: .utf8) == "mine")
        try JSONSchemaTests().check("thumb", [planned, shorter])
        // The person's fifth refuses the whole strip of 6: nothing of it is written.
        #expect(try CLI.run(thumb + ["--strip", "6"]).status == 1)
        #expect(try names() == ["clip-strip-01.jpg", "clip-strip-02.jpg", "clip-strip-03.jpg", "clip-strip-05.jpg"])
        // An image of Pickup's written over in place (its attribute stays): the person's now.
        let edited = try #require(FileHandle(forWritingAtPath: out + "/clip-strip-02.jpg"))
        try edited.truncate(atOffset: 0)
        try edited.write(contentsOf: Data("edited".utf8))
        try edited.close()
        let plannedAgain = try CLI.run(thumb + ["--strip", "2", "--dry-run", "--json"])
        #expect(plannedAgain.status == 1)
        let planned2 = try CLI.jsonLines(plannedAgain)
        #expect(planned2.count == 1 && planned2.first?["type"] as? String == "error", "\(plannedAgain.outputText)")
        let refused = try CLI.run(thumb + ["--strip", "2"])
        #expect(refused.status == 1 && refused.errorText.contains("was changed after Pickup made it"))
        #expect(try String(contentsOfFile: out + "/clip-strip-02.jpg", encoding: .utf8) == "edited")
        #expect(FileManager.default.fileExists(atPath: out + "/clip-strip-03.jpg"))
        // A strip of one: the third goes, in words; the edited second stays.
        let text = try CLI.run(thumb + ["--strip", "1"])
        #expect(text.status == 0, "\(text.errorText)")
        #expect(
            text.outputText.contains("clip-strip-03.jpg: removed: an image of an earlier strip"), "\(text.outputText)")
        #expect(try names() == ["clip-strip-01.jpg", "clip-strip-02.jpg", "clip-strip-05.jpg"])
        #expect(try String(contentsOfFile: out + "/clip-strip-02.jpg", encoding: .utf8) == "edited")
    }
}

/// `-o` for one file named: a name without an extension that does not exist yet could mean a
/// folder, so it is asked for, not guessed.
@Suite("thumb and export -o without an extension")
struct RenderOutputExtensionCommandTests {
    @Test("one file to a new -o without an extension: exit 2, naming the image or the folder to give; nothing made")
    func noExtension() throws {
        let folder = try Temporary.folder("cli-no-extension")
        defer { Temporary.remove(folder) }
        let thumb = try CLI.run(["thumb", try Fixtures.path(.jpegPlain), "-o", folder + "/out"])
        #expect(thumb.status == 2)
        #expect(thumb.errorText.contains("has no extension: name the image (\(folder)/out.jpg) or a folder"))
        let export = try CLI.run([
            "export", try Fixtures.path(.mp4BlackStart), "--preset", "passthrough", "-o", folder + "/single",
        ])
        #expect(export.status == 2)
        #expect(export.errorText.contains("name the export (\(folder)/single.mp4) or a folder"), "\(export.errorText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        // A folder that exists, or a name ending in '/', takes it.
        #expect(try CLI.run(["thumb", try Fixtures.path(.jpegPlain), "-o", folder + "/out/"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/out/plain-thumb.jpg"))
        // A folder made for an output that failed is not left behind, empty.
        let failed = try CLI.run(["export", try Fixtures.path(.jpegPlain), "--preset", "low", "-o", folder + "/new/"])
        #expect(failed.status == 1, "\(failed.errorText)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/new"))
    }
}
