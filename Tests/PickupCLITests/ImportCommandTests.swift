import Foundation
import PickupTestSupport
import Testing

/// `pickup import` and `pickup library`, run as a person would run them.
@Suite("pickup import and library, end to end")
struct ImportCommandTests {
    func pickup(_ arguments: String...) throws -> Shell.Result { try CLI.run(arguments) }
    func jsonLines(_ result: Shell.Result) throws -> [[String: Any]] { try CLI.jsonLines(result) }

    func scratch() throws -> URL {
        let folder = Temporary.url("cli-import")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("card/DCIM"), withIntermediateDirectories: true)
        return folder
    }

    func add(_ fixture: Fixture, _ name: String, to folder: URL) throws {
        try FileManager.default.copyItem(
            atPath: try Fixtures.path(fixture), toPath: folder.appendingPathComponent("card/DCIM/" + name).path)
    }

    /// A Live Photo on the card: `IMG_0263.HEIC` (its content identifier in Apple's maker note)
    /// and `IMG_0263.MOV`. Returns the still's path.
    @discardableResult
    func addLivePhoto(to folder: URL) throws -> String {
        var tiff = TIFFBuilder()
        tiff.exif = [
            (0x927C, .undefined(TIFFBuilder.appleMakerNote(contentIdentifier: "1E2D3C4B-5A69-7887-96A5-B4C3D2E1F001")))
        ]
        var heif = HEIFBuilder()
        heif.exif = tiff.build()
        try add(.movAppleKeys, "IMG_0263.MOV", to: folder)
        let still = folder.appendingPathComponent("card/DCIM/IMG_0263.HEIC").path
        try Data(heif.build()).write(to: URL(fileURLWithPath: still))
        return still
    }

    @Test("help and misuse")
    func help() throws {
        let help = try pickup("import", "--help")
        #expect(help.status == 0)
        for text in ["--into <DIR>", "--filter", "--order", "--limit", "Ctrl-C"] {
            #expect(help.outputText.contains(text))
        }
        #expect(try pickup("import", "x").errorText.contains("--into"))
        #expect(try pickup("import", "x", "--into", "y", "--order", "random").status == 2)
        let filter = try pickup("import", "x", "--into", "y", "--filter", "selfies")
        #expect(filter.status == 2 && filter.errorText.contains("unknown filter 'selfies'"))
        #expect(try pickup("library", "--help").outputText.contains("remove ID"))
        #expect(try pickup("library", "x", "explode").status == 2)
        // A folder with nothing to import: its closing line, no empty table.
        let empty = try scratch()
        defer { Temporary.remove(empty) }
        try FileManager.default.createDirectory(
            at: empty.appendingPathComponent("card"), withIntermediateDirectories: true)
        let nothing = try pickup("import", empty.appendingPathComponent("card").path, "--into", empty.path + "/Library")
        #expect(nothing.status == 0 && nothing.outputText.hasPrefix("0 items: "), "\(nothing.outputText)")
        let remove = try pickup("library", "x", "remove")
        #expect(remove.status == 2 && remove.errorText.contains("'remove' needs the item's id"), "\(remove.errorText)")
    }

    @Test("a card imports into a library; a cut movie fails alone; files that are not media are left alone")
    func importCard() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try add(.jpegEXIF, "IMG_0001.JPG", to: folder)
        try add(.movAppleKeys, "IMG_0002.MOV", to: folder)
        try add(.gifAnimated, "IMG_0003.GIF", to: folder)
        let notes = folder.appendingPathComponent("card/DCIM/NOTES.TXT")
        try Data("not a photo".utf8).write(to: notes)
        let edits = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict/></plist>"#
        try Data(edits.utf8).write(to: folder.appendingPathComponent("card/DCIM/IMG_0001.AAE"))
        let cut = try Fixtures.bytes(.mp4MoovAtEnd)
        try Data(cut.prefix(cut.count / 2)).write(to: folder.appendingPathComponent("card/DCIM/IMG_0004.MP4"))
        let card = folder.appendingPathComponent("card").path
        let library = folder.appendingPathComponent("Library").path

        let first = try pickup("import", card, "--into", library, "--json")
        #expect(first.status == 1, "the cut movie fails")
        let lines = try jsonLines(first)
        let failed = lines.filter { $0["status"] as? String == "failed" }
        #expect(failed.compactMap { ($0["path"] as? String)?.hasSuffix("IMG_0004.MP4") } == [true])
        #expect((failed.first?["error"] as? [String: Any])?["code"] as? String == "damaged")
        let alone = lines.filter { $0["status"] as? String == "leftAlone" }.compactMap { $0["path"] as? String }
        // IMG_0001.AAE, the iPhone's edits of IMG_0001.JPG, goes with its item; the note is left alone.
        #expect(alone.map { ($0 as NSString).lastPathComponent }.sorted() == ["NOTES.TXT"])
        let photo = try #require(lines.first { $0["originalName"] as? String == "IMG_0001.JPG" })
        let files = (photo["files"] as? [[String: Any]]) ?? []
        #expect(files.compactMap { $0["role"] as? String } == ["primary", "edits"])
        #expect(files.last?["name"] as? String == "IMG_0001.AAE")
        // Named on the command line, a file that is not media is an error.
        let named = try pickup("import", notes.path, "--into", library, "--json")
        #expect(named.status == 1)
        #expect((try jsonLines(named).first?["error"] as? [String: Any])?["code"] as? String == "notMedia")
        let imported = lines.filter { $0["status"] as? String == "imported" }
        #expect(imported.count == 3)
        #expect(
            imported.compactMap { $0["originalName"] as? String } == ["IMG_0001.JPG", "IMG_0002.MOV", "IMG_0003.GIF"])
        let stored = try FileManager.default.contentsOfDirectory(atPath: library).filter { !$0.hasPrefix(".") }.sorted()
        #expect(stored == ["IMG_0001.AAE", "IMG_0001.JPG", "IMG_0002.MOV", "IMG_0003.GIF"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: library + "/IMG_0001.AAE")) == Data(edits.utf8))
        #expect(try pickup("library", library, "verify").status == 0)

        let second = try pickup("import", card, "--into", library)
        #expect(second.outputText.contains("0 imported, 3 already there"))
        let list = try pickup("library", library, "list")
        #expect(list.status == 0)
        #expect(list.outputText.contains("3 items"))
        let listed = try jsonLines(try pickup("library", library, "list", "--json"))
        #expect(listed.count == 3)
        let id = try #require(listed.first?["id"] as? String)
        let show = try pickup("library", library, "show", String(id.prefix(6)))
        #expect(show.status == 0 && show.outputText.contains("sha256"))
        let removed = try pickup("library", library, "remove", id, "--yes")
        #expect(removed.status == 0 && removed.outputText.contains("removed \(id)"))
        #expect(try jsonLines(try pickup("library", library, "list", "--json")).count == 2)
        #expect(try pickup("library", library, "show", "ffffffffffff").status == 1)
        #expect(try pickup("library", folder.path, "list").errorText.contains("not a Pickup library"))
    }

    @Test("filter, order and limit choose what is imported")
    func choosing() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try add(.mp4AndroidLocation, "a.mp4", to: folder)  // 2022
        try add(.jpegEXIF, "b.jpg", to: folder)  // 2024-05-06 10:20:30 -03:00 = 13:20:30 UTC
        try add(.movAppleKeys, "c.mov", to: folder)  // 2024-05-06 10:20:30 +09:30 = 00:50:30 UTC: earlier
        let card = folder.appendingPathComponent("card").path
        let library = folder.appendingPathComponent("Library").path
        let videos = try jsonLines(
            try pickup("import", card, "--into", library, "--filter", "videos", "--order", "oldest", "--json"))
        #expect(videos.compactMap { $0["originalName"] as? String } == ["a.mp4", "c.mov"])
        let newest = try jsonLines(
            try pickup("import", card, "--into", library + "2", "--order", "newest", "--limit", "1", "--json"))
        // Zones count: the same wall-clock time in Brazil is later than in Adelaide.
        #expect(newest.compactMap { $0["originalName"] as? String } == ["b.jpg"])
        // Run again, the limit takes the next new item: the one held already does not count
        // (the dry run says so first).
        let preview = try pickup(
            "import", card, "--into", library + "2", "--order", "newest", "--limit", "1", "--dry-run")
        #expect(
            preview.outputText.contains("Dry run: 1 item would be imported, 1 already there"), "\(preview.outputText)")
        let next = try jsonLines(
            try pickup("import", card, "--into", library + "2", "--order", "newest", "--limit", "1", "--json"))
        #expect(
            next.map { "\($0["originalName"] ?? "")=\($0["status"] ?? "")" } == [
                "b.jpg=alreadyThere", "c.mov=imported",
            ], "\(next)")
        // The help's example: exclusions apply to the whole selection (not "images, or anything
        // that is not a screenshot", which took the videos too).
        var tiff = TIFFBuilder()
        tiff.exif = [(0x9286, .undefined(Array("ASCII\0\0\0Screenshot".utf8)))]
        try Data(TIFFBuilder.jpeg(width: 1179, height: 2556, exif: tiff.build())).write(
            to: folder.appendingPathComponent("card/DCIM/shot.jpg"))
        let photos = try jsonLines(
            try pickup("import", card, "--into", library + "3", "--filter", "images,!screenshots", "--json"))
        #expect(photos.compactMap { $0["originalName"] as? String } == ["b.jpg"])
        // In words, the closing line says what the filter and the limit left out.
        let said = try pickup("import", card, "--into", library + "4", "--filter", "videos", "--limit", "1")
        #expect(
            said.outputText.contains(
                "1 item: 1 imported, 0 already there, 0 failed; 2 not taken by --filter, 1 past --limit."),
            "\(said.outputText)")
        let planned = try pickup("import", card, "--into", library + "5", "--filter", "images", "--dry-run")
        #expect(planned.outputText.contains("; 2 not taken by --filter; "), "\(planned.outputText)")
        // And how many files of the folders the patterns did not take, as probe says.
        let patterns = try pickup("import", card, "--into", library + "6", "--include", "*.jpg")
        #expect(
            patterns.outputText.contains(
                "2 imported, 0 already there, 0 failed; 2 not taken by the --include/--exclude patterns. Wrote"),
            "\(patterns.outputText)")
    }

    @Test("import --dry-run says what would be imported, what is already there and what is left alone; writes nothing")
    func dryRun() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try add(.mp4AndroidLocation, "a.mp4", to: folder)
        try add(.jpegEXIF, "b.jpg", to: folder)
        try Data("<plist/>".utf8).write(to: folder.appendingPathComponent("card/DCIM/b.AAE"))
        try Data("a note".utf8).write(to: folder.appendingPathComponent("card/DCIM/notes.txt"))
        let card = folder.appendingPathComponent("card").path
        let library = folder.appendingPathComponent("Library").path
        let dry = try pickup("import", card, "--into", library, "--dry-run")
        #expect(dry.status == 0, "\(dry.errorText)")
        #expect(dry.outputText.contains("would import: \(card)/DCIM/a.mp4"))
        #expect(dry.outputText.contains("would import: \(card)/DCIM/b.jpg + \(card)/DCIM/b.AAE"))
        #expect(dry.outputText.contains("Dry run: 2 items would be imported"))
        #expect(dry.outputText.contains("0 already there, 1 left alone"))
        #expect(!FileManager.default.fileExists(atPath: library))
        let real = try pickup("import", card, "--into", library, "--quiet")
        #expect(real.status == 0)
        // The closing line counts what was left alone, as the dry run and upload do.
        #expect(real.outputText.contains("0 failed; 1 left alone (see above)."), "\(real.outputText)")
        try add(.movAppleKeys, "c.mov", to: folder)
        let again = try CLI.jsonLines(try pickup("import", card, "--into", library, "--dry-run", "--json"))
        let planned = again.filter { $0["type"] as? String == "dryRun" }
        #expect(planned.map { $0["status"] as? String } == ["alreadyThere", "alreadyThere", "wouldImport"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: library).filter { !$0.hasPrefix(".") }.count == 3)
    }

    @Test(
        "import --dry-run finds what the import finds: the same file however its path is spelled, the same content under another name, a stored file to restore"
    )
    func dryRunByContent() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try add(.jpegEXIF, "b.jpg", to: folder)
        try add(.mp4AndroidLocation, "a.mp4", to: folder)
        let library = folder.appendingPathComponent("Library").path
        #expect(
            try pickup("import", folder.appendingPathComponent("card").path, "--into", library, "--quiet").status == 0)
        // Spelled relative to another folder, and a copy of the card under another name.
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent("card"), to: folder.appendingPathComponent("copy"))
        let relative = try Shell.run(
            "cd '\(folder.path)/card/DCIM' && '\(CLI.tool)' import ../../card ../../copy --into ../../Library --dry-run --json"
        )
        let statuses = try CLI.jsonLines(relative).filter { $0["type"] as? String == "dryRun" }.map {
            $0["status"] as? String ?? ""
        }
        #expect(statuses == ["alreadyThere", "alreadyThere", "alreadyThere", "alreadyThere"], "\(relative.outputText)")
        // A stored file gone: the import would copy it back, and the dry run says so.
        let stored = try FileManager.default.contentsOfDirectory(atPath: library).filter { $0.hasSuffix(".mp4") }
        try FileManager.default.removeItem(atPath: library + "/" + (try #require(stored.first)))
        let missing = try pickup("import", folder.appendingPathComponent("copy").path, "--into", library, "--dry-run")
        #expect(missing.outputText.contains("would restore"), "\(missing.outputText)")
        #expect(missing.outputText.contains("0 items would be imported"))
        #expect(missing.outputText.contains("1 would be restored"))
        let imported = try pickup("import", folder.appendingPathComponent("copy").path, "--into", library)
        #expect(imported.outputText.contains("1 restored"), "\(imported.outputText)")
    }

    @Test("import --dry-run of two sources with the same bytes counts one new item, as the import then does")
    func dryRunSameBytesTwice() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try add(.jpegEXIF, "b.jpg", to: folder)
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent("card"), to: folder.appendingPathComponent("backup"))
        let sources = [folder.appendingPathComponent("card").path, folder.appendingPathComponent("backup").path]
        let library = folder.appendingPathComponent("Library").path
        let dry = try CLI.run(["import"] + sources + ["--into", library, "--dry-run"])
        #expect(dry.outputText.contains("Dry run: 1 item would be imported"), "\(dry.outputText)")
        #expect(dry.outputText.contains("1 already there"))
        #expect(dry.outputText.contains("already there once \(sources[0])/DCIM/b.jpg is imported"))
        let json = try CLI.jsonLines(try CLI.run(["import"] + sources + ["--into", library, "--dry-run", "--json"]))
        let planned = json.filter { $0["type"] as? String == "dryRun" }
        #expect(planned.map { $0["status"] as? String } == ["wouldImport", "alreadyThere"])
        #expect(planned.last?["sameAs"] as? String == sources[0] + "/DCIM/b.jpg")
        let real = try jsonLines(try CLI.run(["import"] + sources + ["--into", library, "--json"]))
        let items = real.filter { $0["type"] as? String == "item" }
        #expect(items.map { $0["status"] as? String } == ["imported", "alreadyThere"])
    }

    @Test("--rehash reads a source the library knows by path, size and time: a byte changed behind both is found")
    func rehash() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try add(.jpegEXIF, "b.jpg", to: folder)
        let card = folder.appendingPathComponent("card").path
        let library = folder.appendingPathComponent("Library").path
        #expect(try pickup("import", card, "--into", library, "--quiet").status == 0)
        // One byte of the photo's data changed, its size and modification time kept.
        let photo = card + "/DCIM/b.jpg"
        let changed = try Shell.run(
            "cp -p \"$F\" \"$F.ref\" && printf 'Z' | dd of=\"$F\" bs=1 seek=2000 conv=notrunc 2>/dev/null "
                + "&& touch -r \"$F.ref\" \"$F\" && rm \"$F.ref\"", environment: ["F": photo])
        #expect(changed.status == 0, "\(changed.errorText)")
        let trusting = try pickup("import", card, "--into", library)
        #expect(trusting.outputText.contains("0 imported, 1 already there"), "\(trusting.outputText)")
        let dry = try pickup("import", card, "--into", library, "--rehash", "--dry-run")
        #expect(dry.outputText.contains("Dry run: 1 item would be imported"), "\(dry.outputText)")
        let read = try pickup("import", card, "--into", library, "--rehash")
        #expect(read.outputText.contains("1 imported, 0 already there"), "\(read.outputText)")
        // Unchanged since, --rehash reads it again and finds it there, by content.
        let again = try pickup("import", card, "--into", library, "--rehash")
        #expect(again.outputText.contains("0 imported, 1 already there"), "\(again.outputText)")
    }

    @Test(
        "two sources holding the same Live Photo store it once: the second is already there, its movie not stored again"
    )
    func sameLivePhotoTwice() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try addLivePhoto(to: folder)
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent("card"), to: folder.appendingPathComponent("backup"))
        let library = folder.appendingPathComponent("Library").path
        let result = try pickup(
            "import", folder.appendingPathComponent("card").path, folder.appendingPathComponent("backup").path,
            "--into", library, "--json")
        let items = try jsonLines(result).filter { $0["type"] as? String == "item" }
        #expect(items.map { $0["status"] as? String } == ["imported", "alreadyThere"], "\(result.outputText)")
        let stored = try FileManager.default.contentsOfDirectory(atPath: library).filter { !$0.hasPrefix(".") }
        #expect(stored.sorted() == ["IMG_0263.HEIC", "IMG_0263.MOV"])
        // The Live Photo's row has a time: its movie's, as probe gives it for the movie.
        let movie = try pickup("probe", folder.appendingPathComponent("card/DCIM/IMG_0263.MOV").path)
        let movieTime = try #require(
            movie.outputText.split(separator: "\n").dropFirst().first?.split(separator: " ")[2])
        let list = try pickup("library", library, "list")
        let row = try #require(list.outputText.split(separator: "\n").first { $0.contains("live photo") })
        #expect(movieTime != "-" && row.split(separator: " ").contains(movieTime), "\(row) \(movie.outputText)")
    }

    @Test("a Live Photo's still imported alone, then its card: the dry run says the movie would be added, and it is")
    func stillThenCard() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let still = try addLivePhoto(to: folder)
        let card = folder.appendingPathComponent("card").path
        let library = folder.appendingPathComponent("Library").path
        #expect(try pickup("import", still, "--into", library).status == 0)
        let dry = try pickup("import", card, "--into", library, "--dry-run")
        #expect(dry.outputText.contains("would add IMG_0263.MOV to "), "\(dry.outputText)")
        #expect(dry.outputText.contains("1 would be completed"), "\(dry.outputText)")
        let dryJSON = try jsonLines(try pickup("import", card, "--into", library, "--dry-run", "--json"))
        #expect(dryJSON.contains { $0["status"] as? String == "wouldComplete" }, "\(dryJSON)")
        #expect(dry.outputText.contains("1 would be completed, 0 left alone; "), "\(dry.outputText)")
        // The movie's bytes, as the dry run shows what it would add.
        let toAdd = try #require(
            dry.outputText.split(separator: "\n").first { $0.hasPrefix("would add") }?.split(separator: "(").last?
                .split(separator: " to add)").first, "\(dry.outputText)")
        // The run says what the dry run said: completed, the movie added, only its bytes written.
        let copy = folder.appendingPathComponent("Copy").path
        try FileManager.default.copyItem(atPath: library, toPath: copy)
        let table = try pickup("import", card, "--into", copy)
        #expect(table.outputText.contains("0 imported, 0 already there, 1 completed, 0 failed"), "\(table.outputText)")
        #expect(table.outputText.contains("Wrote \(toAdd)."), "\(table.outputText) \(toAdd)")
        #expect(table.errorText.contains(": added IMG_0263.MOV"), "\(table.errorText)")
        let result = try pickup("import", card, "--into", library, "--json")
        let items = try jsonLines(result).filter { $0["type"] as? String == "item" }
        #expect(items.map { $0["status"] as? String } == ["completed"], "\(result.outputText)")
        #expect(items.first?["added"] as? [String] == ["IMG_0263.MOV"], "\(result.outputText)")
        let stored = try FileManager.default.contentsOfDirectory(atPath: library).filter { !$0.hasPrefix(".") }
        #expect(stored.sorted() == ["IMG_0263.HEIC", "IMG_0263.MOV"])
        let verify = try pickup("library", library, "verify")
        #expect(verify.outputText.contains("1 item, 2 files"), "\(verify.outputText)")
        #expect(try pickup("library", library, "list").outputText.contains("live photo"))
    }

    @Test("a card of raw photos: each imported by the date it was taken, none left alone as a sidecar")
    func rawPhotos() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        var exif = TIFFBuilder()
        exif.ifd0 = [(0x010F, .ascii("FUJIFILM")), (0x0110, .ascii("X-T5"))]
        exif.exif = [(0x9003, .ascii("2024:05:06 10:20:30"))]
        let raf = RawPhotoBuilder.raf(preview: TIFFBuilder.jpeg(width: 1920, height: 1280, exif: exif.build()))
        try Data(raf).write(to: folder.appendingPathComponent("card/DCIM/DSCF0001.RAF"))
        // Cut short, as an interrupted copy is: a failure, said, never imported.
        try Data(raf.prefix(raf.count - 100)).write(to: folder.appendingPathComponent("card/DCIM/DSCF0002.RAF"))
        let library = folder.appendingPathComponent("Library").path
        let result = try pickup(
            "import", folder.appendingPathComponent("card").path, "--into", library, "--layout", "date", "--json")
        #expect(result.status == 1, "\(result.errorText)")
        let lines = try jsonLines(result).filter { $0["type"] as? String == "item" || $0["status"] != nil }
        let imported = try #require(lines.first { ($0["path"] as? String)?.hasSuffix("DSCF0001.RAF") == true })
        #expect(imported["status"] as? String == "imported", "\(lines)")
        let stored = (imported["files"] as? [[String: Any]])?.first?["name"] as? String
        #expect(stored == "2024/05/DSCF0001.RAF", "\(imported)")
        #expect((imported["info"] as? [String: Any])?["container"] as? String == "raf")
        let cut = try #require(lines.first { ($0["path"] as? String)?.hasSuffix("DSCF0002.RAF") == true })
        #expect(cut["status"] as? String == "failed", "\(cut)")
        #expect(!result.errorText.contains("left alone"), "\(result.errorText)")
    }

    @Test("a video item's id still leads to its file once a Live Photo has taken it over as its movie")
    func videoIDAfterTakeover() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try addLivePhoto(to: folder)
        let card = folder.appendingPathComponent("card").path
        let library = folder.appendingPathComponent("Library").path
        let movie = try jsonLines(
            try pickup("import", card + "/DCIM/IMG_0263.MOV", "--into", library, "--json")
        ).first { $0["type"] as? String == "item" }
        let videoID = try #require(movie?["id"] as? String)
        #expect(try pickup("import", card, "--into", library).status == 0)
        let live = try #require(
            try jsonLines(try pickup("library", library, "list", "--json")).first?["id"] as? String)
        #expect(live != videoID)

        // show: the Live Photo, and a line that says why.
        let show = try pickup("library", library, "show", videoID)
        #expect(show.status == 0 && show.outputText.contains(live), "\(show.outputText) \(show.errorText)")
        #expect(
            show.errorText.contains(
                "'\(videoID)' was a video item; its file is now the movie of the Live Photo \(live)"))
        // remove: refused, with the id that removes the pair; nothing removed.
        let remove = try pickup("library", library, "remove", String(videoID.prefix(8)), "--yes", "--json")
        let refusal = try #require(try jsonLines(remove).first?["error"] as? [String: Any])
        #expect(remove.status == 1 && refusal["code"] as? String == "takenOver", "\(remove.outputText)")
        #expect((refusal["hint"] as? String)?.contains(live) == true, "\(refusal)")
        #expect(try pickup("library", library, "verify").outputText.contains("1 item, 2 files"))
        // upload: the movie's file alone, as the id named it before.
        let dry = try pickup(
            "upload", videoID, "--library", library, "--to", "tus+http://127.0.0.1:9/files", "--dry-run")
        #expect(dry.status == 0 && dry.outputText.contains("IMG_0263.MOV"), "\(dry.outputText) \(dry.errorText)")
        #expect(!dry.outputText.contains("IMG_0263.HEIC"), "\(dry.outputText)")
    }

    @Test("a still named alone takes its .AAE edits from beside it, and says its movie there was not named")
    func stillNamedAlone() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let still = try addLivePhoto(to: folder)
        let edits = folder.appendingPathComponent("card/DCIM/IMG_0263.AAE").path
        try Data("<plist/>".utf8).write(to: URL(fileURLWithPath: edits))
        let library = folder.appendingPathComponent("Library").path
        let dry = try pickup("import", still, "--into", library, "--dry-run")
        #expect(dry.outputText.contains("would import: \(still) + \(edits) ("), "\(dry.outputText)")
        let result = try pickup("import", still, "--into", library)
        #expect(result.status == 0, "\(result.errorText)")
        #expect(result.errorText.contains("IMG_0263.MOV, beside \(still), is not named"), "\(result.errorText)")
        let stored = try FileManager.default.contentsOfDirectory(atPath: library).filter { !$0.hasPrefix(".") }
        #expect(stored.sorted() == ["IMG_0263.AAE", "IMG_0263.HEIC"])
        // Named with its still, the movie is not mentioned: it goes with it.
        let both = try pickup(
            "import", still, folder.appendingPathComponent("card/DCIM/IMG_0263.MOV").path, "--into", library + "2")
        #expect(!both.errorText.contains("is not named"), "\(both.errorText)")
    }

    @Test("the table lines up with Japanese names: a wide character takes two columns")
    func wideNames() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try add(.jpegPlain, "東京タワー.jpg", to: folder)
        try add(.jpegEXIF, "tokyo.jpg", to: folder)
        let result = try pickup(
            "import", folder.appendingPathComponent("card").path, "--into", folder.appendingPathComponent("L").path)
        // Where SOURCE begins on each row, in terminal columns (CJK ideographs and kana are two wide).
        func column(of needle: String, in line: Substring) -> Int? {
            guard let range = line.range(of: needle) else { return nil }
            return line[..<range.lowerBound].unicodeScalars.reduce(0) { $0 + ($1.value >= 0x3000 ? 2 : 1) }
        }
        let rows = result.outputText.split(separator: "\n").filter { $0.contains(" imported ") }
        let columns = rows.compactMap { column(of: folder.appendingPathComponent("card").path, in: $0) }
        #expect(rows.count == 2 && columns.count == 2 && columns[0] == columns[1], "\(result.outputText)")
    }

    @Test("a file already inside the library, named or in a folder named, is left alone and said so")
    func insideTheLibrary() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try add(.jpegPlain, "good.jpg", to: folder)
        let library = folder.appendingPathComponent("Library").path
        #expect(try pickup("import", folder.appendingPathComponent("card").path, "--into", library).status == 0)
        let stray = library + "/stray.jpg"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegEXIF), toPath: stray)
        for named in [stray, library] {
            let result = try pickup("import", named, "--into", library)
            #expect(result.status == 0, "\(result.errorText)")
            #expect(
                result.errorText.contains("left alone ")
                    && result.errorText.contains("(already inside the library it would go into): "),
                "\(result.errorText)")
            #expect(result.errorText.contains("'pickup library \(library) verify' lists them"), "\(result.errorText)")
            #expect(result.outputText.contains("left alone (see above)"), "\(result.outputText)")
        }
        let json = try jsonLines(try pickup("import", stray, "--into", library, "--json"))
        #expect(json.contains { $0["reason"] as? String == "already inside the library it would go into" }, "\(json)")
    }

    @Test("--into a file, or a new library among the files imported, is refused before anything is read or made")
    func libraryThatCannotBe() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try add(.jpegPlain, "good.jpg", to: folder)
        let card = folder.appendingPathComponent("card").path
        let photo = card + "/DCIM/good.jpg"
        for (into, named, says) in [
            (photo, card, "is a file, not a folder"), (card + "/DCIM", card, "lies inside \(card)"),
            (card, photo, "lies inside --into \(card)"), (card, card, "lies inside \(card)"),
        ] {
            for dry in [[], ["--dry-run"]] {
                let result = try CLI.run(["import", named, "--into", into] + dry)
                #expect(result.status == 2 && result.errorText.contains(says), "\(into): \(result.errorText)")
            }
        }
        // A new folder under a link into the card is in the card too.
        let link = folder.appendingPathComponent("cardlink").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: card)
        let linked = try CLI.run(["import", card, "--into", link + "/Lib"])
        #expect(linked.status == 2 && linked.errorText.contains("lies inside"), "\(linked.errorText)")
        #expect(!FileManager.default.fileExists(atPath: card + "/Lib"))
        #expect(!FileManager.default.fileExists(atPath: card + "/.pickup"), "no library made")
        #expect(!FileManager.default.fileExists(atPath: card + "/DCIM/.pickup"), "no library made")
    }

    @Test("probe and import share one rule: a file named as media that is not fails; other files are left alone")
    func namedAsMedia() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try add(.jpegPlain, "good.jpg", to: folder)
        try Data("not a photo".utf8).write(to: folder.appendingPathComponent("card/DCIM/broken.jpg"))
        try Data("a note".utf8).write(to: folder.appendingPathComponent("card/DCIM/notes.txt"))
        // Empty: one named as a photo is an interrupted copy; one that is not is left alone as well.
        try Data().write(to: folder.appendingPathComponent("card/DCIM/empty.jpg"))
        try Data().write(to: folder.appendingPathComponent("card/DCIM/Thumbs.db"))
        let card = folder.appendingPathComponent("card").path
        let imported = try jsonLines(
            try pickup("import", card, "--into", folder.appendingPathComponent("L").path, "--json"))
        let probed = try jsonLines(try pickup("probe", "-r", card, "--json"))
        for lines in [imported, probed] {
            let failed = lines.filter { $0["type"] as? String == "error" }.compactMap { $0["path"] as? String }
            let alone = lines.filter { $0["type"] as? String == "leftAlone" }.compactMap { $0["path"] as? String }
            #expect(failed.map { ($0 as NSString).lastPathComponent }.sorted() == ["broken.jpg", "empty.jpg"])
            #expect(alone.map { ($0 as NSString).lastPathComponent }.sorted() == ["Thumbs.db", "notes.txt"])
        }
        // In words: the two files that never became items are failures in the closing line, as
        // the exit status says (it read "0 failed (+2 files not imported)" with exit 1).
        let text = try pickup("import", card, "--into", folder.appendingPathComponent("M").path)
        #expect(text.status == 1)
        #expect(text.outputText.contains("0 failed; 2 other files failed (see above)"), "\(text.outputText)")
    }

    @Test("the import table has a SOURCE column: two sources of one stored copy read apart")
    func sourceColumn() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        for name in ["a", "b"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("card/\(name)"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: try Fixtures.path(.jpegPlain),
                toPath: folder.appendingPathComponent("card/\(name)/IMG.jpg").path)
        }
        let card = folder.appendingPathComponent("card").path
        let result = try pickup("import", card, "--into", folder.appendingPathComponent("L").path)
        let lines = result.outputText.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix("STORED AS  SOURCE") == true, "\(result.outputText)")
        #expect(lines.contains { $0.contains("imported") && $0.hasSuffix("  \(card)/a/IMG.jpg") })
        #expect(lines.contains { $0.contains("already there") && $0.hasSuffix("  \(card)/b/IMG.jpg") })
    }

    @Test("import --layout date: YYYY/MM/ by the date taken, undated/ without one; verified, reused, restored, removed")
    func dateLayout() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try add(.mp4AndroidLocation, "a.mp4", to: folder)  // taken 2022
        try add(.jpegEXIF, "b.jpg", to: folder)  // taken 2024-05-06
        try add(.jpegPlain, "c.jpg", to: folder)  // no date
        let card = folder.appendingPathComponent("card").path
        let library = folder.appendingPathComponent("Library").path
        let lines = try jsonLines(try pickup("import", card, "--into", library, "--layout", "date", "--json"))
        let names = lines.compactMap { ($0["files"] as? [[String: Any]])?.first?["name"] as? String }.sorted()
        #expect(names.count == 3)
        #expect(names.contains { $0.hasPrefix("2022/") && $0.hasSuffix("/a.mp4") })
        #expect(names.contains("2024/05/b.jpg") && names.contains("undated/c.jpg"), "\(names)")
        #expect(FileManager.default.fileExists(atPath: library + "/2024/05/b.jpg"))
        #expect(try pickup("library", library, "verify").status == 0)
        // A file no item owns, in a date folder, is found as it is at the top level.
        try Data("stray".utf8).write(to: URL(fileURLWithPath: library + "/2024/05/stray.jpg"))
        let stray = try pickup("library", library, "verify")
        #expect(stray.status != 0 && stray.outputText.contains("2024/05/stray.jpg"), "\(stray.outputText)")
        try FileManager.default.removeItem(atPath: library + "/2024/05/stray.jpg")
        #expect(
            try pickup("import", card, "--into", library, "--layout", "date").outputText.contains("3 already there"))
        try FileManager.default.removeItem(atPath: library + "/2024/05")
        let again = try jsonLines(try pickup("import", card, "--into", library, "--layout", "date", "--json"))
        #expect(again.contains { $0["status"] as? String == "restored" })
        #expect(FileManager.default.fileExists(atPath: library + "/2024/05/b.jpg"))
        let id = try #require(lines.first { $0["originalName"] as? String == "c.jpg" }?["id"] as? String)
        #expect(try pickup("library", library, "remove", id, "--yes").status == 0)
        #expect(!FileManager.default.fileExists(atPath: library + "/undated/c.jpg"))
        #expect(try pickup("import", card, "--into", library, "--layout", "sideways").status == 2)
    }

    @Test("library list --sort taken|size|name; library show aligns its keys and values")
    func librarySortAndShow() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try add(.mp4AndroidLocation, "a.mp4", to: folder)  // taken 2022
        try add(.jpegEXIF, "b.jpg", to: folder)  // 2024-05-06 13:20:30 UTC
        try add(.movAppleKeys, "c.mov", to: folder)  // 2024-05-06 00:50:30 UTC
        let library = folder.appendingPathComponent("Library").path
        #expect(try pickup("import", folder.appendingPathComponent("card").path, "--into", library).status == 0)
        func names(_ sort: String) throws -> [String] {
            try jsonLines(try pickup("library", library, "list", "--sort", sort, "--json")).compactMap {
                $0["originalName"] as? String
            }
        }
        #expect(try names("taken") == ["a.mp4", "c.mov", "b.jpg"])
        #expect(try names("name") == ["a.mp4", "b.jpg", "c.mov"])
        let sizes = try jsonLines(try pickup("library", library, "list", "--sort", "size", "--json")).map { line in
            ((line["files"] as? [[String: Any]]) ?? []).reduce(0) { $0 + ($1["size"] as? Int ?? 0) }
        }
        #expect(sizes == sizes.sorted(by: >) && sizes.count == 3)
        let bad = try pickup("library", library, "list", "--sort", "random")
        #expect(bad.status == 2 && bad.errorText.contains("--sort takes imported, taken, size, name"))
        #expect(try pickup("library", library, "verify", "--sort", "size").status == 2)
        // show: every value starts in one column, however long its key (audioSampleRate).
        let id = try #require(try jsonLines(try pickup("library", library, "list", "--json")).first?["id"] as? String)
        let shown = try pickup("library", library, "show", id)
        #expect(shown.status == 0)
        let lines = shown.outputText.split(separator: "\n").map(String.init)
        let columns = Set(
            lines.map { line in
                let key = line.prefix { $0 != " " }
                return key.count + line.dropFirst(key.count).prefix { $0 == " " }.count
            })
        #expect(columns.count == 1, "\(shown.outputText)")
        #expect(lines.contains { $0.hasPrefix("audioSampleRate") } || lines.contains { $0.hasPrefix("displayWidth") })
    }

    @Test(
        "Ctrl-C stops cleanly: exit 130, no partial file, the catalog names only whole files; --json says interrupted",
        arguments: [false, true])
    func interrupt(json: Bool) throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        // Large but valid movies: a real MP4 followed by a 300 MB 'free' box (sparse on disk).
        let movie = try Fixtures.bytes(.mp4Large)
        for number in 0..<4 {
            let path = folder.appendingPathComponent("card/DCIM/big\(number).mp4").path
            var bytes = movie
            let size = 300 << 20
            bytes += [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), 0, 0] + Array("free".utf8) + [UInt8(number)]
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(truncate(path, off_t(movie.count + size)) == 0)
        }
        let library = folder.appendingPathComponent("Library").path
        // Ctrl-C once a copy is in flight (its unnamed O_TMPFILE open in the library): a shell's
        // background job starts with SIGINT ignored until the run watches for it, so a signal
        // sent at a fixed time raced a loaded machine.
        let result = try Shell.run(
            """
            "$TOOL" import "$CARD" --into "$LIB" $JSON & pid=$!
            for i in $(seq 1 1000); do
              ls -l /proc/$pid/fd 2>/dev/null | grep -F "$LIB" | grep -q "(deleted)" && break
              sleep 0.02
            done
            kill -INT $pid; wait $pid
            """,
            environment: [
                "TOOL": CLI.tool, "CARD": folder.appendingPathComponent("card").path, "LIB": library,
                "JSON": json ? "--json" : "",
            ])
        #expect(result.status == 130, "\(result.errorText)")
        if json {
            // Each file Ctrl-C stopped: an error line with status interrupted, code cancelled; no failure.
            let lines = try jsonLines(result)
            let statuses = lines.compactMap { $0["status"] as? String }
            #expect(statuses.count == 4, "\(result.outputText)")
            #expect(statuses.contains("interrupted") && !statuses.contains("failed"), "\(result.outputText)")
            for line in lines where line["status"] as? String == "interrupted" {
                #expect((line["error"] as? [String: Any])?["code"] as? String == "cancelled")
            }
            try JSONSchemaTests().check("import", [result])
        } else {
            // What Ctrl-C stopped is said once, as not imported; none of it is a failure.
            #expect(result.outputText.contains(" 0 failed, "), "\(result.outputText)")
            #expect(
                result.outputText.contains(" not imported (interrupted: the same command again imports them)"),
                "\(result.outputText)")
        }
        #expect(!result.errorText.contains("cancelled"), "\(result.errorText)")
        let names = try FileManager.default.contentsOfDirectory(atPath: library)
        #expect(!names.contains { $0.hasPrefix(".pickup-partial") })
        let listed = try jsonLines(try pickup("library", library, "list", "--json"))
        let catalogued = Set(
            listed.flatMap { ($0["files"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } })
        #expect(catalogued == Set(names.filter { !$0.hasPrefix(".") }))
    }

    @Test(
        "killed (SIGKILL) in the middle of a copy: nothing is left in the library, not even a hidden file",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "watches the copy through /proc"))
    func killed() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        // A valid movie of 1 GB, sparse on disk: a real MP4, then a 'free' box to the end.
        let movie = try Fixtures.bytes(.mp4Large)
        let path = folder.appendingPathComponent("card/DCIM/big.mp4").path
        let size = 1 << 30
        let header = [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), 0, 0] + Array("free".utf8)
        try Data(movie + header).write(to: URL(fileURLWithPath: path))
        #expect(truncate(path, off_t(movie.count + size)) == 0)
        let library = folder.appendingPathComponent("Library").path
        // Killed as soon as the copy's temporary file is open: named or not, /proc shows it in the library.
        let result = try Shell.run(
            """
            mkdir -p "$LIB"; LIB=$(cd "$LIB" && pwd -P)
            "$TOOL" import "$SRC" --into "$LIB" 2>/dev/null & pid=$!
            for i in $(seq 20000); do
              if ls -l /proc/$pid/fd 2>/dev/null | grep -q -F -e "$LIB/#" -e "$LIB/.pickup-partial"; then
                kill -9 $pid; break
              fi
            done
            wait $pid
            """,
            environment: ["TOOL": CLI.tool, "SRC": path, "LIB": library])
        #expect(result.status == 137, "not killed in the middle of the copy: \(result.status)")
        let names = try FileManager.default.contentsOfDirectory(atPath: library)
        #expect(names == [".pickup"], "left in the library: \(names)")
        #expect(try jsonLines(try pickup("library", library, "list", "--json")).isEmpty)
    }

    @Test("on a terminal, a progress bar; elsewhere, one line per item")
    func progressBar() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try add(.mp4Large, "clip.mp4", to: folder)
        try add(.jpegPlain, "photo.jpg", to: folder)
        let card = folder.appendingPathComponent("card").path
        // `script` runs the tool on a pseudo-terminal, as a person's shell would.
        let terminal = try Shell.run(
            "script -qec \"\\\"$TOOL\\\" import \\\"$CARD\\\" --into \\\"$LIB\\\"\" /dev/null",
            environment: ["TOOL": CLI.tool, "CARD": card, "LIB": folder.appendingPathComponent("A").path])
        #expect(terminal.status == 0, "\(terminal.outputText)")
        #expect(terminal.outputText.contains("2/2 ["))
        #expect(terminal.outputText.contains("100%"))
        let plain = try pickup("import", card, "--into", folder.appendingPathComponent("B").path)
        #expect(plain.errorText.contains("imported \(card)/DCIM/clip.mp4 -> clip.mp4"))
        #expect(!plain.errorText.contains("["))
        // --no-progress: no bar on a terminal, the item lines instead; --quiet: neither.
        let noBar = try Shell.run(
            "script -qec \"\\\"$TOOL\\\" import \\\"$CARD\\\" --into \\\"$LIB\\\" --no-progress\" /dev/null",
            environment: ["TOOL": CLI.tool, "CARD": card, "LIB": folder.appendingPathComponent("C").path])
        #expect(noBar.status == 0 && !noBar.outputText.contains("2/2 ["))
        #expect(noBar.outputText.contains("imported \(card)/DCIM/clip.mp4 -> clip.mp4"))
        let quiet = try pickup("import", card, "--into", folder.appendingPathComponent("D").path, "--quiet")
        #expect(quiet.status == 0 && quiet.errorText.isEmpty, "\(quiet.errorText)")
        #expect(quiet.outputText.contains("2 items: 2 imported"))
        // A terminal that cannot move its cursor (TERM=dumb) gets the item lines, no escape sequences.
        let dumb = try Shell.run(
            "TERM=dumb script -qec \"\\\"$TOOL\\\" import \\\"$CARD\\\" --into \\\"$LIB\\\"\" /dev/null",
            environment: ["TOOL": CLI.tool, "CARD": card, "LIB": folder.appendingPathComponent("E").path])
        #expect(dumb.status == 0 && !dumb.outputText.contains("\u{1B}["), "\(dumb.outputText)")
        #expect(dumb.outputText.contains("imported \(card)/DCIM/clip.mp4 -> clip.mp4"))
    }

    @Test(
        "a file the user may not read fails with 'permission denied'; the others import",
        .enabled(if: getuid() == 0, "needs root to run the tool as another user"))
    func permissionDenied() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try add(.jpegPlain, "open.jpg", to: folder)
        try add(.gifAnimated, "secret.gif", to: folder)
        let secret = folder.appendingPathComponent("card/DCIM/secret.gif").path
        chmod(folder.path, 0o777)
        chmod(secret, 0o000)
        let library = folder.appendingPathComponent("Library").path
        let result = try Shell.run(
            "setpriv --reuid=65534 --regid=65534 --clear-groups \"$TOOL\" import \"$CARD\" --into \"$LIB\" --json",
            environment: [
                "TOOL": CLI.tool, "CARD": folder.appendingPathComponent("card").path, "LIB": library,
            ])
        #expect(result.status == 1, "\(result.errorText)")
        let lines = try jsonLines(result)
        let failed = try #require(lines.first { ($0["path"] as? String)?.hasSuffix("secret.gif") == true })
        #expect((failed["error"] as? [String: Any])?["code"] as? String == "permissionDenied")
        #expect((failed["error"] as? [String: Any])?["message"] as? String == "cannot open the file: Permission denied")
        #expect(lines.contains { $0["originalName"] as? String == "open.jpg" && $0["status"] as? String == "imported" })
    }
}
