import Foundation
import PickupTestSupport
import Testing

/// Nothing lost, nothing silently wrong, through the built `pickup`.
@Suite("pickup integrity, end to end")
struct IntegrityCommandTests {
    func pickup(_ arguments: String..., environment: [String: String] = [:]) throws -> Shell.Result {
        try CLI.run(arguments, environment: environment)
    }

    func scratch() throws -> String {
        let folder = try Temporary.folder("cli-integrity", inside: "src")
        return folder
    }

    func copy(_ fixture: Fixture, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Fixtures.path(fixture), toPath: path)
    }

    func sqlite(_ database: String, _ statement: String) throws {
        let result = try Shell.run(
            "python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()' \"$D\" \"$S\"",
            environment: ["D": database, "S": statement])
        try #require(result.status == 0, "\(result.errorText)")
    }

    @Test("two sources that would land on one S3 key are refused before anything is sent")
    func remoteKeysNeverCollide() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try copy(.jpegEXIF, to: folder + "/a/IMG_0004.JPG")
        try copy(.jpegPlain, to: folder + "/b/IMG_0004.JPG")
        let refused = try pickup(
            "upload", folder + "/a/IMG_0004.JPG", folder + "/b/IMG_0004.JPG", "--to", "s3://photos/coll/",
            "--endpoint", "http://127.0.0.1:9", "--journal", folder + "/j.sqlite",
            environment: ["AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s"])
        #expect(refused.status == 2)
        #expect(refused.errorText.contains("coll/IMG_0004.JPG"), "\(refused.errorText)")
        #expect(refused.errorText.contains("nothing was sent"))
        #expect(refused.errorText.contains("--key"))
        let badTemplate = try pickup(
            "upload", folder + "/a/IMG_0004.JPG", "--to", "s3://photos/", "--endpoint", "http://127.0.0.1:9",
            "--key", "{album}/{name}", "--journal", folder + "/j.sqlite",
            environment: ["AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s"])
        #expect(badTemplate.status == 2)
        #expect(badTemplate.errorText.contains("{album}"))
    }

    @Test("upload --library: a damaged item is refused and the others go; an id prefix of several names them")
    func libraryItemsApart() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        // Seventeen photos: two of their ids begin with the same hex digit, whatever the bytes.
        for index in 0..<17 {
            try Data(TIFFBuilder.jpeg(width: UInt16(100 + index), height: 80, exif: nil)).write(
                to: URL(fileURLWithPath: folder + "/src/IMG_\(1000 + index).JPG"))
        }
        let library = folder + "/Library"
        let imported = try pickup("import", folder + "/src", "--into", library, "--json")
        let items = try CLI.jsonLines(imported).compactMap { line -> (id: String, name: String)? in
            guard let id = line["id"] as? String, let name = line["originalName"] as? String else { return nil }
            return (id, name)
        }
        #expect(items.count == 17)
        let (good, bad) = (items[0], items[1])
        unlink(library + "/" + bad.name)
        let sent = try pickup(
            "upload", good.id, bad.id, "--library", library, "--to", "tus+http://127.0.0.1:9/files/", "--dry-run")
        #expect(sent.status == 1, "\(sent.errorText)")
        #expect(sent.outputText.contains("would send \(library)/\(good.name)"), "\(sent.outputText)")
        #expect(sent.errorText.contains("item \(bad.id)'s file is missing; the item is not sent"), "\(sent.errorText)")
        let byDigit = Dictionary(grouping: items, by: { $0.id.prefix(1) })
        let shared = try #require(byDigit.first { $0.value.count > 1 })
        let ambiguous = try pickup(
            "upload", String(shared.key), "--library", library, "--to", "tus+http://127.0.0.1:9/files/", "--dry-run")
        #expect(ambiguous.status == 1)
        #expect(
            ambiguous.errorText.contains("'\(shared.key)' fits \(shared.value.count) items of the library"),
            "\(ambiguous.errorText)")
    }

    @Test("library verify finds missing, damaged and unknown files; upload --library refuses changed bytes")
    func catalogAndDiskAgree() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try copy(.jpegEXIF, to: folder + "/src/IMG_0001.JPG")
        try copy(.jpegPlain, to: folder + "/src/IMG_0002.JPG")
        try copy(.pngRGBA, to: folder + "/src/IMG_0003.PNG")
        let library = folder + "/Library"
        let imported = try pickup("import", folder + "/src", "--into", library, "--json")
        #expect(imported.status == 0, "\(imported.errorText)")
        let ids = try CLI.jsonLines(imported).compactMap { $0["id"] as? String }
        #expect(ids.count == 3)
        #expect(try pickup("library", library, "verify").status == 0)
        // Deleted; overwritten with 8 bytes; replaced by other bytes of the same size; an unknown file.
        unlink(library + "/IMG_0001.JPG")
        try Data("8 bytes!".utf8).write(to: URL(fileURLWithPath: library + "/IMG_0002.JPG"))
        let png = try Data(contentsOf: URL(fileURLWithPath: library + "/IMG_0003.PNG"))
        try Data(repeating: 0x55, count: png.count).write(to: URL(fileURLWithPath: library + "/IMG_0003.PNG"))
        try Data("stray".utf8).write(to: URL(fileURLWithPath: library + "/stray.txt"))
        let verify = try pickup("library", library, "verify", "--json")
        #expect(verify.status == 1)
        let findings = try CLI.jsonLines(verify)
        let problems = Dictionary(
            uniqueKeysWithValues: findings.compactMap { line in
                (line["name"] as? String).map { ($0, line["problem"] as? String ?? "") }
            })
        #expect(
            problems == [
                "IMG_0001.JPG": "missing", "IMG_0002.JPG": "damaged", "IMG_0003.PNG": "damaged",
                "stray.txt": "unknown",
            ])
        #expect(findings.last?["type"] as? String == "summary")
        for id in ids {
            let upload = try pickup(
                "upload", id, "--library", library, "--to", "tus+http://127.0.0.1:9/files/", "--journal",
                folder + "/j.sqlite")
            // Refused, said, the run exits 1 (a file's failure, not a usage mistake).
            #expect(upload.status == 1)
            #expect(
                upload.errorText.contains("is missing; the item is not sent")
                    || upload.errorText.contains("is no longer the one the catalog records (its SHA-256 differs)"),
                "\(upload.errorText)")
        }
        // Importing the same sources again puts back what is missing or of the wrong size; a
        // same-size change is found by verify (above) and refused by upload, not looked for by
        // import, which would have to read the whole library each time.
        let again = try pickup("import", folder + "/src", "--into", library, "--json")
        #expect(again.status == 0, "\(again.errorText)")
        #expect(
            try CLI.jsonLines(again).compactMap { $0["status"] as? String } == [
                "restored", "restored", "alreadyThere",
            ])
        let after = try CLI.jsonLines(try pickup("library", library, "verify", "--json"))
        #expect(after.compactMap { $0["name"] as? String }.sorted() == ["IMG_0003.PNG", "stray.txt"])
    }

    @Test("read-only commands create nothing; a library on a read-only mount lists")
    func readOnlyCommandsChangeNothing() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let missing = folder + "/nonexistent/dir/j.sqlite"
        // A journal named with --journal that is not there (a typo, say) is said, exit 1; nothing is made.
        let list = try pickup("uploads", "list", "--journal", missing)
        #expect(list.status == 1)
        #expect(list.errorText.contains("no journal at \(missing)"), "\(list.errorText)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/nonexistent"))
        let notLibrary = try pickup("library", folder + "/nothing", "list")
        #expect(notLibrary.status == 1)
        #expect(notLibrary.errorText.contains("nothing: no such folder"), "\(notLibrary.errorText)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/nothing"))
        // The default journal follows $HOME.
        let home = try pickup(
            "uploads", "list", environment: ["HOME": folder + "/home", "XDG_STATE_HOME": "", "PICKUP_STATE_DIR": ""])
        #expect(home.outputText.contains(folder + "/home/.local/state/pickup/uploads.sqlite"), "\(home.outputText)")
        guard getuid() == 0 else { return }  // a read-only bind mount needs root
        try copy(.jpegEXIF, to: folder + "/src/IMG_0001.JPG")
        let library = folder + "/Library"
        #expect(try pickup("import", folder + "/src", "--into", library).status == 0)
        let mount = folder + "/ro"
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let mounted = try Shell.run(
            "mount --bind \"$L\" \"$M\" && mount -o remount,bind,ro \"$M\"", environment: ["L": library, "M": mount])
        try #require(mounted.status == 0, "\(mounted.errorText)")
        defer { _ = try? Shell.run("umount \"$M\"", environment: ["M": mount]) }
        let listed = try pickup("library", mount, "list")
        #expect(listed.status == 0, "\(listed.errorText)")
        #expect(listed.outputText.contains("IMG_0001.JPG"))
        #expect(try pickup("library", mount, "verify").status == 0)
        let removed = try pickup("library", mount, "remove", "0", "--yes")
        #expect(removed.status == 1)
        #expect(!removed.errorText.contains("damaged"), "\(removed.errorText)")
    }

    @Test("a catalog that names a file outside the library is refused; user text is never a SQL pattern")
    func catalogNamesAreChecked() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try copy(.jpegEXIF, to: folder + "/src/IMG_0001.JPG")
        let library = folder + "/Library"
        #expect(try pickup("import", folder + "/src", "--into", library).status == 0)
        #expect(try pickup("library", library, "remove", "%", "--yes").status == 1)
        #expect(try pickup("library", library, "remove", "_", "--yes").status == 1)
        #expect(FileManager.default.fileExists(atPath: library + "/IMG_0001.JPG"))
        try Data("victim".utf8).write(to: URL(fileURLWithPath: folder + "/victim2.txt"))
        try sqlite(library + "/.pickup/catalog.sqlite", "UPDATE files SET stored_name = '../victim2.txt'")
        let list = try pickup("library", library, "list", "--json")
        let id = try #require(CLI.jsonLines(list).first?["id"] as? String)
        let removed = try pickup("library", library, "remove", id, "--yes")
        #expect(removed.status == 1)
        #expect(removed.errorText.contains("outside the library"), "\(removed.errorText)")
        #expect(FileManager.default.fileExists(atPath: folder + "/victim2.txt"))
        // The date layout's folders are the only ones a name may hold: YYYY/MM/ and undated/.
        try FileManager.default.createDirectory(atPath: library + "/2024", withIntermediateDirectories: true)
        for name in ["2024/../../victim2.txt", "2024/05/../../../victim2.txt", "undated/..", "2024/5/../x", "a/b.jpg"] {
            try sqlite(library + "/.pickup/catalog.sqlite", "UPDATE files SET stored_name = '\(name)'")
            let refused = try pickup("library", library, "remove", id, "--yes")
            #expect(refused.status == 1 && refused.errorText.contains("outside the library"), "\(name)")
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/victim2.txt"))
    }

    @Test("a FIFO named on the command line is refused at once by import, probe and upload")
    func fifosAreRefused() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let fifo = folder + "/src/pipe.mov"
        #expect(mkfifo(fifo, 0o644) == 0)
        for arguments in [
            ["probe", fifo], ["import", fifo, "--into", folder + "/Library"],
            ["upload", fifo, "--to", "tus+http://127.0.0.1:9/files/", "--journal", folder + "/j.sqlite"],
        ] {
            let started = Date()
            let result = try Shell.execute("/usr/bin/timeout", ["20", CLI.tool] + arguments)
            #expect(result.status != 124, "\(arguments[0]) hung on a FIFO")
            #expect(result.status != 0)
            #expect(Date().timeIntervalSince(started) < 15)
        }
    }

    @Test("a folder walk stays inside the folder named: a link to / is left alone")
    func walksStayInside() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try copy(.jpegEXIF, to: folder + "/src/IMG_0001.JPG")
        try copy(.jpegPlain, to: folder + "/elsewhere/OUT.JPG")
        try FileManager.default.createSymbolicLink(atPath: folder + "/src/rootlink", withDestinationPath: "/")
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/src/outside", withDestinationPath: folder + "/elsewhere")
        try FileManager.default.createSymbolicLink(atPath: folder + "/src/inside", withDestinationPath: "IMG_0001.JPG")
        let started = Date()
        let result = try pickup("import", folder + "/src", "--into", folder + "/Library", "--json")
        #expect(Date().timeIntervalSince(started) < 20)
        let lines = try CLI.jsonLines(result)
        #expect(lines.filter { $0["status"] as? String == "imported" }.count == 1)
        let leftAlone = lines.filter { $0["status"] as? String == "leftAlone" }.compactMap { $0["path"] as? String }
        #expect(leftAlone.sorted() == [folder + "/src/outside", folder + "/src/rootlink"])
        try FileManager.default.createDirectory(atPath: folder + "/src2", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/src2/outside", withDestinationPath: folder + "/elsewhere")
        let followed = try pickup("probe", folder + "/src2", "--recursive", "--follow-links", "--json")
        #expect(try CLI.jsonLines(followed).contains { ($0["path"] as? String)?.hasSuffix("OUT.JPG") == true })
    }

    @Test("two imports into one library at once: no item twice, nothing lost, catalog and disk agree")
    func concurrentImports() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let original = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.path(.jpegPlain)))
        for index in 0..<120 {
            var bytes = original
            bytes.append(contentsOf: withUnsafeBytes(of: UInt32(index).bigEndian) { Array($0) })
            try bytes.write(to: URL(fileURLWithPath: folder + "/src/IMG_\(1000 + index).JPG"))
        }
        let library = folder + "/Library"
        for _ in 0..<3 {
            try? FileManager.default.removeItem(atPath: library)
            let both = try Shell.run(
                "\"$P\" import \"$S\" --into \"$L\" --json > \"$O1\" 2>&1 & "
                    + "\"$P\" import \"$S\" --into \"$L\" --json > \"$O2\" 2>&1 & wait",
                environment: [
                    "P": CLI.tool, "S": folder + "/src", "L": library, "O1": folder + "/o1", "O2": folder + "/o2",
                ])
            #expect(both.status == 0)
            let stored = try FileManager.default.contentsOfDirectory(atPath: library).filter { !$0.hasPrefix(".") }
            #expect(stored.count == 120, "\(stored.count) files for 120 photos")
            let verify = try pickup("library", library, "verify", "--json")
            #expect(verify.status == 0, "\(verify.outputText)")
            for output in ["/o1", "/o2"] {
                let text = try String(contentsOfFile: folder + output, encoding: .utf8)
                #expect(!text.contains("database is locked"), "\(text.prefix(500))")
                #expect(!text.contains("\"failed\""), "\(text.prefix(500))")
            }
        }
    }

    @Test("verify killed with SIGKILL changes nothing: the next verify is clean")
    func verifyKilled() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try copy(.mp4Large, to: folder + "/src/BIG.MP4")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/src/BIG.MP4"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 3, count: 256 << 20))
        try handle.close()
        let library = folder + "/Library"
        #expect(try pickup("import", folder + "/src", "--into", library).status == 0)
        let catalog = library + "/.pickup/catalog.sqlite"
        let before = try Data(contentsOf: URL(fileURLWithPath: catalog))
        let killed = try Shell.run(
            "\"$P\" library \"$L\" verify & pid=$!; sleep 0.2; kill -9 $pid; wait $pid; echo $?",
            environment: ["P": CLI.tool, "L": library])
        #expect(killed.outputText.hasSuffix("137\n"), "\(killed.outputText)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalog)) == before)
        #expect(try pickup("library", library, "verify").status == 0)
    }
}
