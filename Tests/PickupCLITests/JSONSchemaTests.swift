import Foundation
import PickupTestSupport
import Testing

/// Every `--json` output of every command, each kind of line, checked against its schema in
/// `docs/json-schema` with the `jsonschema` package (`scripts/check-json.py`).
@Suite("--json outputs against their schemas", .serialized)
struct JSONSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    let folder: String

    init() throws {
        folder = Temporary.path("schema")
        try FileManager.default.createDirectory(atPath: folder + "/card/DCIM", withIntermediateDirectories: true)
    }

    /// Checks the lines `results` printed against `schema`; returns the types of lines seen.
    @discardableResult
    func check(_ schema: String, _ results: [Shell.Result]) throws -> Set<String> {
        let file = folder + "/\(schema)-\(UUID().uuidString).jsonl"
        let text = results.map(\.outputText).joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let python = JSONSchemaTests.root.appendingPathComponent(".build/python/bin/python").path
        let checked = try Shell.execute(
            python,
            [
                JSONSchemaTests.root.appendingPathComponent("scripts/check-json.py").path,
                JSONSchemaTests.root.appendingPathComponent("docs/json-schema/\(schema).json").path, file,
            ])
        #expect(checked.status == 0, "\(checked.outputText)\(checked.errorText)")
        return Set(try results.flatMap { try CLI.jsonLines($0) }.compactMap { $0["type"] as? String })
    }

    func add(_ fixture: Fixture, _ name: String) throws {
        try FileManager.default.copyItem(atPath: try Fixtures.path(fixture), toPath: folder + "/card/DCIM/" + name)
    }

    @Test("probe, import, library, thumb, export, upload and uploads: every line fits its schema")
    func everyOutput() throws {
        defer { Temporary.remove(folder) }
        try add(.movAppleKeys, "IMG_0002.MOV")
        var heif = HEIFBuilder()
        var tiff = TIFFBuilder()
        tiff.exif = [
            (0x927C, .undefined(TIFFBuilder.appleMakerNote(contentIdentifier: "1E2D3C4B-5A69-7887-96A5-B4C3D2E1F001")))
        ]
        heif.exif = tiff.build()
        try Data(heif.build()).write(to: URL(fileURLWithPath: folder + "/card/DCIM/IMG_0002.HEIC"))
        try add(.jpegEXIF, "IMG_0003.JPG")
        try add(.m4aAudio, "voice.m4a")
        try Data("<plist/>".utf8).write(to: URL(fileURLWithPath: folder + "/card/DCIM/IMG_0003.AAE"))
        try Data("a note".utf8).write(to: URL(fileURLWithPath: folder + "/card/DCIM/notes.txt"))
        let cut = try Fixtures.bytes(.mp4Large)
        try Data(cut.prefix(cut.count / 2)).write(to: URL(fileURLWithPath: folder + "/card/DCIM/cut.mp4"))
        let card = folder + "/card"
        let library = folder + "/Library"

        let probe = try check("probe", [try CLI.run(["probe", "--json", card + "/DCIM"])])
        #expect(probe == ["media", "livePhotoPair", "leftAlone", "error"])

        let dry = try CLI.run(["import", card, "--into", library, "--dry-run", "--json"])
        // A copy of one photo beside the card: its line says `sameAs`.
        try FileManager.default.createDirectory(atPath: folder + "/copy", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: card + "/DCIM/IMG_0003.JPG", toPath: folder + "/copy/IMG_0003.JPG")
        let copied = try CLI.run(["import", card, folder + "/copy", "--into", library, "--dry-run", "--json"])
        #expect(copied.outputText.contains("\"sameAs\":"), "\(copied.outputText)")
        let imported = try CLI.run(["import", card, "--into", library, "--json"])
        let again = try CLI.run(["import", card, "--into", library, "--json"])
        #expect(try check("import", [dry, copied, imported, again]) == ["dryRun", "item", "leftAlone", "error"])

        let items = try CLI.jsonLines(try CLI.run(["library", library, "list", "--json"]))
        let id = try #require(items.first?["id"] as? String)
        let stored = try #require((items.last?["files"] as? [[String: Any]])?.first?["name"] as? String)
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: library + "/" + stored))
        let libraryTypes = try check(
            "library",
            [
                try CLI.run(["library", library, "list", "--json"]),
                try CLI.run(["library", library, "show", id, "--json"]),
                try CLI.run(["library", library, "verify", "--json"]),
                try CLI.run(["library", library, "show", "nosuchitem", "--json"]),
                try CLI.run(["library", library, "remove", id, "--json", "--yes"]),
                try CLI.run(["library", folder + "/nowhere", "list", "--json"]),
            ])
        #expect(libraryTypes == ["item", "finding", "summary", "error"])

        let thumb = try CLI.run([
            "thumb", card + "/DCIM/IMG_0002.MOV", card + "/DCIM/IMG_0003.JPG", card + "/DCIM/voice.m4a", "-o",
            folder + "/thumbs", "--json",
        ])
        let thumbPlan = try CLI.run([
            "thumb", card + "/DCIM/IMG_0003.JPG", "-o", folder + "/thumb-plan.jpg", "--json", "--dry-run",
        ])
        #expect(try check("thumb", [thumb, thumbPlan]) == ["image", "error", "plan"])

        let export = try CLI.run([
            "export", card + "/DCIM/IMG_0002.MOV", "--preset", "low", "-o", folder + "/out.mp4", "--json",
        ])
        let failedExport = try CLI.run([
            "export", card + "/DCIM/voice.m4a", "--preset", "low", "-o", folder + "/voice.mp4", "--json",
        ])
        #expect(try check("export", [export, failedExport]) == ["plan", "export", "error"])

        let server = try TusServer()
        let journal = folder + "/uploads.sqlite"
        let target = "tus+" + server.endpoint.absoluteString
        let sent = try CLI.run(["upload", card + "/DCIM/IMG_0003.JPG", "--to", target, "--journal", journal, "--json"])
        let twice = try CLI.run(["upload", card + "/DCIM/IMG_0003.JPG", "--to", target, "--journal", journal, "--json"])
        let held = try CLI.run([
            "upload", card + "/DCIM/voice.m4a", "--to", target, "--strip-location", "--journal", journal, "--json",
        ])
        // A link that leads out of the folder named is left alone.
        try FileManager.default.createSymbolicLink(
            atPath: card + "/DCIM/elsewhere.jpg", withDestinationPath: try Fixtures.path(.jpegPlain))
        let folderUpload = try CLI.run([
            "upload", "-r", card + "/DCIM", "--to", target, "--journal", journal, "--json",
        ])
        let planned = try CLI.run([
            "upload", "-r", card + "/DCIM", "--to", target, "--journal", journal, "--json", "--dry-run",
        ])
        let listed = try CLI.run(["uploads", "list", "--journal", journal, "--json"])
        // Nothing listens on port 9: each retry is a line as it happens, then the failed record;
        // the run stops there (a stopped line) and the second file is not tried.
        let refused = try CLI.run([
            "upload", card + "/DCIM/IMG_0003.JPG", card + "/DCIM/IMG_0002.MOV", "--to", "tus+http://127.0.0.1:9/files",
            "--retries", "1", "--parallel", "1", "--journal", journal, "--json", "--force",
        ])
        #expect(refused.status == 1)
        let uploadTypes = try check("upload", [sent, twice, held, folderUpload, planned, listed, refused])
        #expect(uploadTypes == ["upload", "error", "leftAlone", "retry", "stopped", "plan"])
        let states = Set(try CLI.jsonLines(twice).compactMap { $0["state"] as? String })
        #expect(states == ["alreadyThere"])
    }
}
