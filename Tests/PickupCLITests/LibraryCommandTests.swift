import Foundation
import PickupTestSupport
import Testing

/// `pickup library DIR list|show|verify|repair|remove`, through the built tool.
@Suite("pickup library, end to end")
struct LibraryCommandTests {
    func pickup(_ arguments: String...) throws -> Shell.Result { try CLI.run(arguments) }

    func scratch() throws -> String {
        let folder = try Temporary.folder("cli-library", inside: "src")
        return folder
    }

    func copy(_ fixture: Fixture, to path: String) throws {
        try FileManager.default.copyItem(atPath: try Fixtures.path(fixture), toPath: path)
    }

    /// A 64x48 JPEG made with ffmpeg, its DateTimeOriginal (and OffsetTimeOriginal) written by exiftool.
    func jpeg(_ path: String, taken: String?, offset: String? = nil, color: String) throws {
        var script =
            "ffmpeg -v error -y -f lavfi -i color=c=\(color):size=64x48 -frames:v 1 \"$OUT\""
        if let taken {
            script += " && exiftool -q -overwrite_original \"-DateTimeOriginal=\(taken)\""
            if let offset { script += " -OffsetTimeOriginal=\(offset)" }
            script += " \"$OUT\""
        }
        let made = try Shell.run(script, environment: ["OUT": path])
        try #require(made.status == 0, "\(made.errorText)")
    }

    func flipByte(_ path: String, at offset: Int) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[offset] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    @Test("repair copies damaged and missing files again from their sources, SHA-256 checked; says what it cannot")
    func repairRestoresFromSources() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try copy(.jpegEXIF, to: folder + "/src/IMG_0001.JPG")
        try copy(.jpegPlain, to: folder + "/src/IMG_0002.JPG")
        try copy(.pngRGBA, to: folder + "/src/IMG_0003.PNG")
        let library = folder + "/Library"
        // Named by a relative path, as a person types it: repair finds the sources all the same.
        let imported = try Shell.execute(
            "/bin/sh", ["-c", "cd \"$1\" && \"$2\" import src --into Library --quiet", "sh", folder, CLI.tool])
        #expect(imported.status == 0, "\(imported.errorText)")
        // One byte flipped (the same size: import again would say "already there"); one deleted;
        // one flipped whose source changed too (beyond repair); an unknown file in a year folder.
        try flipByte(library + "/IMG_0001.JPG", at: 1_000)
        unlink(library + "/IMG_0002.JPG")
        try flipByte(library + "/IMG_0003.PNG", at: 100)
        try flipByte(folder + "/src/IMG_0003.PNG", at: 200)
        try FileManager.default.createDirectory(atPath: library + "/2024", withIntermediateDirectories: true)
        try Data("stray".utf8).write(to: URL(fileURLWithPath: library + "/2024/unknown.jpg"))

        let verify = try pickup("library", library, "verify")
        #expect(verify.status == 1)
        #expect(verify.outputText.contains("Run 'pickup library \(library) repair'"), "\(verify.outputText)")
        #expect(!verify.outputText.contains("Import the same sources again"))
        // The dry run names each source it would copy from; IMG_0003's has the size still, so
        // only the repair's SHA-256 check finds it changed.
        let plan = try pickup("library", library, "repair", "--dry-run")
        #expect(
            plan.outputText.contains("IMG_0002.JPG (missing): would be copied again from \(folder)/src/IMG_0002.JPG"),
            "\(plan.outputText)")
        #expect(!FileManager.default.fileExists(atPath: library + "/IMG_0002.JPG"))

        let repair = try pickup("library", library, "repair", "--json")
        #expect(repair.status == 1, "an unrepairable file and an unknown one remain")
        let lines = try CLI.jsonLines(repair)
        let outcomes = Dictionary(
            uniqueKeysWithValues: lines.filter { $0["type"] as? String == "repair" }.compactMap { line in
                (line["name"] as? String).map { ($0, line) }
            })
        #expect(outcomes.keys.sorted() == ["IMG_0001.JPG", "IMG_0002.JPG", "IMG_0003.PNG"])
        #expect(outcomes["IMG_0001.JPG"]?["repaired"] as? Bool == true)
        #expect(outcomes["IMG_0001.JPG"]?["problem"] as? String == "damaged")
        #expect(outcomes["IMG_0002.JPG"]?["repaired"] as? Bool == true)
        #expect(outcomes["IMG_0002.JPG"]?["problem"] as? String == "missing")
        #expect(outcomes["IMG_0003.PNG"]?["repaired"] as? Bool == false)
        #expect((outcomes["IMG_0003.PNG"]?["detail"] as? String)?.contains("other bytes now") == true)
        #expect(lines.contains { $0["type"] as? String == "finding" && $0["name"] as? String == "2024/unknown.jpg" })
        #expect(lines.last?["repaired"] as? Int == 2)
        for name in ["IMG_0001.JPG", "IMG_0002.JPG"] {
            #expect(
                FileManager.default.contentsEqual(atPath: library + "/" + name, andPath: folder + "/src/" + name))
        }
        let after = try CLI.jsonLines(try pickup("library", library, "verify", "--json"))
        #expect(after.compactMap { $0["name"] as? String }.sorted() == ["2024/unknown.jpg", "IMG_0003.PNG"])

        // Said in words too; a second repair has only the unrepairable file left to try.
        let words = try pickup("library", library, "repair")
        #expect(words.status == 1)
        #expect(words.outputText.contains("not repaired"), "\(words.outputText)")
        #expect(words.outputText.contains("0 repaired, 1 cannot be repaired"), "\(words.outputText)")
        #expect(words.outputText.contains("1 unknown file left alone"), "\(words.outputText)")
        // Its source gone, verify no longer sends a person to a repair that cannot help.
        try FileManager.default.moveItem(atPath: folder + "/src/IMG_0003.PNG", toPath: folder + "/moved.png")
        let gone = try pickup("library", library, "verify")
        #expect(
            gone.outputText.contains(
                "Its source is gone or changed (IMG_0003.PNG): restore it from a backup, or import its source "
                    + "again from where it is now ('pickup import PATH --into \(library)' puts back the same bytes); "
                    + "move or delete the unknown files yourself."),
            "\(gone.outputText)")
        #expect(!gone.outputText.contains("repair'"), "\(gone.outputText)")
        try FileManager.default.moveItem(atPath: folder + "/moved.png", toPath: folder + "/src/IMG_0003.PNG")
        unlink(library + "/2024/unknown.jpg")
        try flipByte(folder + "/src/IMG_0003.PNG", at: 200)  // the source as it was
        #expect(try pickup("library", library, "repair").status == 0)
        #expect(try pickup("library", library, "verify").status == 0)
    }

    @Test("a library whose path has a space: each hint's command runs as printed")
    func hintsQuoteThePath() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try copy(.jpegPlain, to: folder + "/src/a.jpg")
        let library = folder + "/My Lib"
        #expect(try pickup("import", folder + "/src", "--into", library).status == 0)
        let stored = try #require(
            try FileManager.default.contentsOfDirectory(atPath: library).first { $0.hasSuffix(".jpg") })
        try FileManager.default.removeItem(atPath: library + "/" + stored)
        let nowhere = try pickup("library", folder + "/My Lbi", "verify")
        #expect(nowhere.status == 1 && nowhere.errorText.contains("no such folder"), "\(nowhere.errorText)")
        let quoted = "'" + library + "'"
        let verify = try pickup("library", library, "verify")
        #expect(
            verify.status == 1 && verify.outputText.contains("pickup library \(quoted) repair"), "\(verify.outputText)")
        let missing = try pickup("library", library, "show", "zz")
        #expect(missing.errorText.contains("pickup library \(quoted) list"), "\(missing.errorText)")
        // The hint, run as printed (its folder in quotes), repairs the library.
        let repair = try Shell.run("\"$PICKUP\" library \(quoted) repair", environment: ["PICKUP": CLI.tool])
        #expect(repair.status == 0, "\(repair.errorText)")
        #expect(FileManager.default.fileExists(atPath: library + "/" + stored))
    }

    @Test("verify finds unknown files in every folder, a date layout's or not")
    func verifyFindsUnknownFilesAnywhere() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try copy(.jpegEXIF, to: folder + "/src/IMG_0001.JPG")
        let library = folder + "/Library"
        #expect(try pickup("import", folder + "/src", "--into", library, "--layout", "date", "--quiet").status == 0)
        #expect(try pickup("library", library, "verify").status == 0)
        for name in ["2024/unknown.jpg", "2024/05/extra.jpg", "misc/deep/er/x.txt", "undated/y.jpg"] {
            try FileManager.default.createDirectory(
                atPath: library + "/" + (name as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            try Data("stray".utf8).write(to: URL(fileURLWithPath: library + "/" + name))
        }
        let verify = try pickup("library", library, "verify", "--json")
        #expect(verify.status == 1)
        let unknown = try CLI.jsonLines(verify).filter { $0["problem"] as? String == "unknown" }
        #expect(
            unknown.compactMap { $0["name"] as? String }.sorted() == [
                "2024/05/extra.jpg", "2024/unknown.jpg", "misc/deep/er/x.txt", "undated/y.jpg",
            ])
    }

    @Test("a file renamed or moved in the library by hand: verify pairs it with the missing name, repair names it back")
    func renamedByHand() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try copy(.jpegEXIF, to: folder + "/src/IMG_0001.JPG")
        try copy(.jpegPlain, to: folder + "/src/IMG_0002.JPG")
        let library = folder + "/Library"
        #expect(try pickup("import", folder + "/src", "--into", library, "--layout", "date", "--quiet").status == 0)
        let names = try CLI.jsonLines(try pickup("library", library, "list", "--json")).flatMap {
            ($0["files"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        let moved = try #require(names.first { $0.hasSuffix("IMG_0001.JPG") })
        // Renamed into another folder of the library; its source deleted, so only the rename can help.
        try FileManager.default.createDirectory(atPath: library + "/kept", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: library + "/" + moved, toPath: library + "/kept/best.jpg")
        try FileManager.default.removeItem(atPath: folder + "/src/IMG_0001.JPG")
        // An unknown file of another size is left as it was.
        try Data("stray".utf8).write(to: URL(fileURLWithPath: library + "/kept/notes.txt"))
        let verify = try pickup("library", library, "verify")
        #expect(verify.status == 1)
        #expect(
            verify.outputText.contains("\(moved): no such file; kept/best.jpg, not in the catalog, holds its bytes"),
            "\(verify.outputText)")
        #expect(verify.outputText.contains("kept/best.jpg: not in the catalog; it holds the bytes of \(moved)"))
        #expect(verify.outputText.contains("repair' to name the moved file back"), "\(verify.outputText)")
        let json = try pickup("library", library, "verify", "--json")
        let paired = try CLI.jsonLines(json).compactMap { $0["pairedWith"] as? String }
        #expect(paired.sorted() == ["kept/best.jpg", moved].sorted(), "\(json.outputText)")
        try JSONSchemaTests().check("library", [json])
        // The dry run says what the repair would do, and does nothing.
        let plan = try pickup("library", library, "repair", "--dry-run")
        #expect(plan.status == 1, "the unknown notes.txt would remain: \(plan.outputText)")
        #expect(
            plan.outputText.contains("would repair")
                && plan.outputText.contains("would be named back from kept/best.jpg"),
            "\(plan.outputText)")
        #expect(plan.outputText.contains("1 would be repaired, 1 would remain"), "\(plan.outputText)")
        #expect(FileManager.default.fileExists(atPath: library + "/kept/best.jpg"))
        let planJSON = try pickup("library", library, "repair", "--dry-run", "--json")
        try JSONSchemaTests().check("library", [planJSON])
        #expect(try CLI.jsonLines(planJSON).contains { $0["wouldRepair"] as? Bool == true })
        let repairJSON = try pickup("library", library, "repair", "--json")
        try JSONSchemaTests().check("library", [repairJSON])
        let repaired = try #require(try CLI.jsonLines(repairJSON).first { $0["type"] as? String == "repair" })
        #expect(repaired["repaired"] as? Bool == true && repaired["pairedWith"] as? String == "kept/best.jpg")
        // Moved again, then repaired in words.
        try FileManager.default.moveItem(atPath: library + "/" + moved, toPath: library + "/kept/best.jpg")
        let repair = try pickup("library", library, "repair")
        #expect(repair.status == 1, "the unknown notes.txt stays: \(repair.outputText)")
        #expect(repair.outputText.contains("named back from kept/best.jpg"), "\(repair.outputText)")
        #expect(
            repair.outputText.contains("3 problems: 1 repaired, 1 unknown file named back, 1 unknown file left alone"),
            "\(repair.outputText)")
        #expect(FileManager.default.fileExists(atPath: library + "/" + moved))
        #expect(!FileManager.default.fileExists(atPath: library + "/kept/best.jpg"))
        try FileManager.default.removeItem(atPath: library + "/kept/notes.txt")
        #expect(try pickup("library", library, "verify").status == 0)
        // A copy made by hand of a stored file is named as such, and said safe to delete.
        try FileManager.default.copyItem(atPath: library + "/" + moved, toPath: library + "/kept/copy.jpg")
        let copied = try pickup("library", library, "verify", "--json")
        let copy = try #require(try CLI.jsonLines(copied).first { $0["name"] as? String == "kept/copy.jpg" })
        #expect(copy["copyOf"] as? String == moved, "\(copy)")
        #expect((copy["detail"] as? String)?.contains("it can be deleted") == true)
        try JSONSchemaTests().check("library", [copied])
    }

    @Test("list --sort taken orders dates without a zone among the others, and shows a TAKEN column")
    func sortTakenReadsZonelessDates() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        // Imported in name order; taken: c first (no zone), a (a zone), then b (no zone); d undated.
        try jpeg(folder + "/src/a.jpg", taken: "2020:06:01 12:00:00", offset: "+02:00", color: "red")
        try jpeg(folder + "/src/b.jpg", taken: "2021:01:01 08:00:00", color: "blue")
        try jpeg(folder + "/src/c.jpg", taken: "2019:03:04 05:06:07", color: "green")
        try jpeg(folder + "/src/d.jpg", taken: nil, color: "white")
        let library = folder + "/Library"
        #expect(try pickup("import", folder + "/src", "--into", library, "--quiet").status == 0)
        let sorted = try CLI.jsonLines(try pickup("library", library, "list", "--sort", "taken", "--json"))
        #expect(sorted.compactMap { $0["originalName"] as? String } == ["c.jpg", "a.jpg", "b.jpg", "d.jpg"])
        let table = try pickup("library", library, "list", "--sort", "taken")
        let rows = table.outputText.split(separator: "\n").map(String.init)
        #expect(rows.first?.contains("TAKEN") == true)
        #expect(rows.dropFirst().first?.contains("2019-03-04 05:06:07 ") == true, "\(table.outputText)")
        #expect(rows.contains { $0.contains("2020-06-01 12:00:00 +02:00") && $0.hasSuffix("a.jpg") })
    }

    @Test("usage slips are noticed: the folder after the action, an id prefix that fits several items")
    func slipsAreNoticed() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let swapped = try pickup("library", "list", folder)
        #expect(swapped.status == 2)
        #expect(swapped.errorText.contains("'pickup library \(folder) list'"), "\(swapped.errorText)")
        // Enough items that two ids share their first character.
        for index in 0..<18 {
            try jpeg(folder + "/src/\(index).jpg", taken: nil, color: String(format: "0x%02x2040", index * 13))
        }
        let library = folder + "/Library"
        #expect(try pickup("import", folder + "/src", "--into", library, "--quiet").status == 0)
        let ids = try CLI.jsonLines(try pickup("library", library, "list", "--json")).compactMap { $0["id"] as? String }
        let prefix = try #require(
            Dictionary(grouping: ids, by: { String($0.prefix(1)) }).first { $0.value.count > 1 })
        let ambiguous = try pickup("library", library, "show", prefix.key)
        #expect(ambiguous.status == 1)
        for id in prefix.value { #expect(ambiguous.errorText.contains(id), "\(ambiguous.errorText)") }
        #expect(ambiguous.errorText.contains("Give more characters"))
        let none = try pickup("library", library, "show", "zzzz")
        #expect(none.errorText.contains("no item 'zzzz'") && none.errorText.contains("list"))
    }

    @Test("remove: --dry-run removes nothing; on a terminal it asks first, --yes does not; without one it needs --yes")
    func removeAsksFirst() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try copy(.jpegEXIF, to: folder + "/src/IMG_0001.JPG")
        let library = folder + "/Library"
        #expect(try pickup("import", folder + "/src", "--into", library, "--quiet").status == 0)
        let id = try #require(CLI.jsonLines(try pickup("library", library, "list", "--json")).first?["id"] as? String)
        let dry = try pickup("library", library, "remove", id, "--dry-run")
        #expect(dry.status == 0)
        #expect(dry.outputText.contains("would remove \(id) (IMG_0001.JPG): IMG_0001.JPG"), "\(dry.outputText)")
        #expect(FileManager.default.fileExists(atPath: library + "/IMG_0001.JPG"))
        let dryJSON = try CLI.jsonLines(try pickup("library", library, "remove", id, "--dry-run", "--json"))
        #expect(dryJSON.first?["status"] as? String == "wouldRemove")
        // No terminal (a pipe, --json): nothing to ask at, so nothing is removed without --yes,
        // whatever is piped in.
        let piped = try Shell.run(
            "echo y | \"$T\" library \"$L\" remove \(id)", environment: ["T": CLI.tool, "L": library])
        #expect(piped.status == 1)
        #expect(piped.errorText.contains("add --yes to remove it without asking"), "\(piped.errorText)")
        #expect(try pickup("library", library, "remove", id, "--json").status == 1)
        #expect(FileManager.default.fileExists(atPath: library + "/IMG_0001.JPG"))
        // A terminal (script(1) gives the tool one), answered "n", then "y".
        func onTerminal(_ answer: String) throws -> Shell.Result {
            try Shell.run(
                "printf '\(answer)\\n' | script -qec \"\\\"$T\\\" library \\\"$L\\\" remove \(id)\" /dev/null",
                environment: ["T": CLI.tool, "L": library])
        }
        let declined = try onTerminal("n")
        #expect(declined.outputText.contains("Remove \(id) (IMG_0001.JPG) and its files IMG_0001.JPG? [y/N]"))
        #expect(declined.outputText.contains("nothing was removed"), "\(declined.outputText)")
        #expect(FileManager.default.fileExists(atPath: library + "/IMG_0001.JPG"))
        let accepted = try onTerminal("y")
        #expect(accepted.outputText.contains("removed \(id)"), "\(accepted.outputText)")
        #expect(!FileManager.default.fileExists(atPath: library + "/IMG_0001.JPG"))
        #expect(try pickup("library", library, "list", "--yes").status == 2, "--yes goes with remove")
    }
}
