import Foundation
import PickupTestSupport
import Testing

/// Names that are not UTF-8 (Latin-1, from an old camera or a share), through the built tool
/// as a shell hands them over: the glob gives the file's own bytes, and every command finds the
/// file by them, as ffmpeg, exiftool and rclone do.
@Suite("names that are not UTF-8, end to end")
struct NonUTF8NameCommandTests {
    /// A folder holding card/caf\xE9.jpg and card/f\xEAte.mp4 (Latin-1 é and ê), made by the shell.
    func card() throws -> String {
        let folder = try Temporary.folder("cli-latin1", inside: "card")
        let made = try Shell.run(
            #"cp "$PHOTO" "$DIR/card/caf"$'\xe9'".jpg" && cp "$MOVIE" "$DIR/card/f"$'\xea'"te.mp4""#,
            environment: [
                "DIR": folder, "PHOTO": try Fixtures.path(.jpegEXIF), "MOVIE": try Fixtures.path(.mp4BlackStart),
            ])
        #expect(made.status == 0, "\(made.errorText)")
        return folder
    }

    /// Runs `pickup SCRIPT` in `folder` through `sh`, so that a glob hands over raw bytes.
    func pickup(in folder: String, _ script: String) throws -> Shell.Result {
        try Shell.execute("/bin/sh", ["-c", "cd \"$1\" && \"$2\" " + script, "sh", folder, CLI.tool])
    }

    @Test("probe reads them named, found in a folder and listed; tables and JSON show the byte as \\xE9")
    func probe() throws {
        let folder = try card()
        defer { Temporary.remove(folder) }
        let named = try pickup(in: folder, "probe card/caf*.jpg card/f*te.mp4")
        #expect(named.status == 0, "\(named.errorText)")
        #expect(named.outputText.contains(#"card/caf\xE9.jpg"#) && named.outputText.contains(#"card/f\xEAte.mp4"#))
        #expect(named.outputText.contains("2 files: 2 probed, 0 failed."), "\(named.outputText)")
        let walked = try pickup(in: folder, "probe -r card --json")
        #expect(walked.status == 0, "\(walked.errorText)")
        // Valid JSON that every parser takes (Foundation's here), the byte written as the text \xE9.
        let media = try CLI.jsonLines(walked).filter { $0["type"] as? String == "media" }
        #expect(media.compactMap { $0["path"] as? String }.sorted() == [#"card/caf\xE9.jpg"#, #"card/f\xEAte.mp4"#])
        let csv = try pickup(in: folder, "probe --format csv --fields path,kind card/caf*.jpg")
        #expect(csv.outputText == "path,kind\r\n" + #"card/caf\xE9.jpg"# + ",image\r\n", "\(csv.outputText)")
        let listed = try Shell.execute(
            "/bin/sh",
            ["-c", "cd \"$1\" && find card -type f -print0 | \"$2\" probe --files-from - -0", "sh", folder, CLI.tool])
        #expect(listed.outputText.contains("2 files: 2 probed, 0 failed."), "\(listed.outputText)")
    }

    @Test(
        "a path to write to (-o, --into, --journal, a library) that is not UTF-8 is refused, exit 2, nothing made"
    )
    func outputsRefused() throws {
        let folder = try card()
        defer { Temporary.remove(folder) }
        for command in [
            "import card --into lib$(printf '\\351')", "thumb card/caf*.jpg -o t$(printf '\\351').jpg",
            "export card/f*te.mp4 --preset passthrough -o e$(printf '\\351').mp4",
            "upload card/caf*.jpg --to tus+http://127.0.0.1:9/files --journal j$(printf '\\351').sqlite",
            "uploads list --journal j$(printf '\\351').sqlite", "library lib$(printf '\\351') list",
        ] {
            let result = try pickup(in: folder, command)
            #expect(result.status == 2, "\(command): \(result.errorText)")
            #expect(result.errorText.contains("holds bytes that are not UTF-8"), "\(command): \(result.errorText)")
        }
        let made = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(made == ["card"], "\(made)")
    }

    @Test("import stores them under UTF-8 names (Latin-1 read), finds them again, verifies and repairs from them")
    func importAndRepair() throws {
        let folder = try card()
        defer { Temporary.remove(folder) }
        let first = try pickup(in: folder, "import card --into lib --json")
        #expect(first.status == 0, "\(first.errorText)")
        #expect(first.outputText.contains(#""name":"café.jpg""#), "\(first.outputText)")
        #expect(FileManager.default.fileExists(atPath: folder + "/lib/fête.mp4"))
        let again = try pickup(in: folder, "import card/caf*.jpg --into lib")
        #expect(again.outputText.contains("0 imported, 1 already there"), "\(again.outputText)")
        // One byte flipped in the stored photo: repair copies it again from its Latin-1 source.
        let stored = try #require(FileHandle(forUpdatingAtPath: folder + "/lib/café.jpg"))
        try stored.seek(toOffset: 200)
        try stored.write(contentsOf: Data([0x55]))
        try stored.close()
        let repaired = try pickup(in: folder, "library lib repair")
        #expect(repaired.status == 0, "\(repaired.outputText) \(repaired.errorText)")
        #expect(repaired.outputText.contains(#"copied again from "#) && repaired.outputText.contains(#"caf\xE9.jpg"#))
        #expect(try pickup(in: folder, "library lib verify").outputText.contains("every file is intact"))
    }

    @Test("thumb, export and upload name what they make in UTF-8; the upload's bytes are the file's")
    func renderAndUpload() throws {
        let folder = try card()
        defer { Temporary.remove(folder) }
        let thumbs = try pickup(in: folder, "thumb card/* -o thumbs/")
        #expect(thumbs.status == 0, "\(thumbs.errorText)")
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: folder + "/thumbs"))
                == ["café-thumb.jpg", "fête-thumb.jpg"])
        let export = try pickup(in: folder, "export card/f*te.mp4 --preset passthrough -o out/")
        #expect(export.status == 0, "\(export.errorText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/out") == ["fête-passthrough.mp4"])
        let keys = try pickup(in: folder, "upload -r card --to s3://photos/roll/ --key '{name}' --dry-run")
        #expect(keys.outputText.contains("-> s3://photos/roll/café.jpg"), "\(keys.outputText)")
        let server = try TusServer()
        let sent = try pickup(
            in: folder, "upload card/caf*.jpg --to tus+\(server.endpoint.absoluteString) --journal j.sqlite --json")
        #expect(sent.status == 0, "\(sent.errorText)")
        let remote = try #require(
            sent.outputText.split(separator: "\n").compactMap { line -> String? in
                guard let range = line.range(of: #""remote":""#) else { return nil }
                return line[range.upperBound...].split(separator: "\"").first.map(String.init)
            }.first)
        #expect(try server.stored(remote) == (try Data(contentsOf: URL(fileURLWithPath: try Fixtures.path(.jpegEXIF)))))
    }
}
