import Foundation
import PickupTestSupport
import Testing

/// `pickup upload -r DIR`: a folder's photos and videos go, with their edits; its other files stay.
@Suite("upload -r, end to end", .serialized)
struct UploadFolderCommandTests {
    @Test(
        "a folder's walk sends its media (a damaged photo too) and their .AAE edits, leaves the rest and says how many; a file named goes"
    )
    func onlyMediaFromAFolder() throws {
        let server = try TusServer()
        let folder = Temporary.path("cli-upload-folder")
        defer { Temporary.remove(folder) }
        let card = folder + "/DCIM"
        try FileManager.default.createDirectory(atPath: card + "/100APPLE", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: card + "/IMG_0001.JPG")
        try FileManager.default.copyItem(
            atPath: try Fixtures.path(.movAppleKeys), toPath: card + "/100APPLE/IMG_0002.MOV")
        try Data("<plist/>".utf8).write(to: URL(fileURLWithPath: card + "/IMG_0001.AAE"))
        try Data("<plist/>".utf8).write(to: URL(fileURLWithPath: card + "/IMG_0009.AAE"))  // no photo of its own
        try Data("a note".utf8).write(to: URL(fileURLWithPath: card + "/notes.txt"))
        try Data([0, 1, 2, 3]).write(to: URL(fileURLWithPath: card + "/100APPLE/Thumbs.db"))
        // A photo cut short (a card pulled out mid-write) is still a photo to keep: it goes.
        try Data(try Fixtures.bytes(.jpegPlain).prefix(300)).write(to: URL(fileURLWithPath: card + "/IMG_0003.JPG"))
        let to = "tus+" + server.endpoint.absoluteString
        let journal = folder + "/j.sqlite"

        let sent = try CLI.run(["upload", "-r", card, "--to", to, "--journal", journal, "--json"])
        #expect(sent.status == 0, "\(sent.errorText)")
        let lines = try CLI.jsonLines(sent)
        let uploaded = lines.filter { $0["type"] as? String == "upload" }.compactMap { $0["path"] as? String }
        #expect(
            Set(uploaded) == [
                card + "/IMG_0001.JPG", card + "/IMG_0001.AAE", card + "/100APPLE/IMG_0002.MOV", card + "/IMG_0003.JPG",
            ],
            "\(sent.outputText)")
        let leftAlone = lines.filter { $0["type"] as? String == "leftAlone" }.compactMap { $0["path"] as? String }
        #expect(
            Set(leftAlone) == [card + "/IMG_0009.AAE", card + "/notes.txt", card + "/100APPLE/Thumbs.db"],
            "\(sent.outputText)")

        // Without --json: said once, with how many, and in the closing line.
        let plain = try CLI.run(["upload", "-r", card, "--to", to, "--journal", journal, "--force"])
        #expect(plain.status == 0, "\(plain.errorText)")
        #expect(
            plain.errorText.contains("pickup upload: left alone 3 files (not photos or videos): "), "\(plain.errorText)"
        )
        #expect(plain.errorText.contains("; name a file to send it whatever it is"), "\(plain.errorText)")
        #expect(
            plain.outputText.contains(
                "4 files: 4 uploaded, 0 already there, 0 failed; 3 left alone (not photos or videos)."),
            "\(plain.outputText)")

        // A file named on the command line is sent whatever it is.
        let named = try CLI.run(["upload", card + "/notes.txt", "--to", to, "--journal", journal, "--json"])
        #expect(named.status == 0, "\(named.errorText)")
        #expect(try CLI.jsonLines(named).first?["state"] as? String == "done", "\(named.outputText)")
    }
}
