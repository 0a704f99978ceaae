import Foundation
import PickupTestSupport
import Testing

/// `pickup thumb --dry-run`: which images would be written; nothing rendered, written or made.
@Suite("thumb --dry-run, end to end")
struct ThumbDryRunCommandTests {
    @Test("each image that would be written is named, with its source; no folder is made; an image there fails")
    func dryRun() throws {
        let folder = try Temporary.folder("cli-thumb-dry")
        defer { Temporary.remove(folder) }
        let photo = try Fixtures.path(.jpegPlain)
        let video = try Fixtures.path(.mp4BlackStart)
        let thumbs = folder + "/thumbs"
        let plain = try CLI.run(["thumb", photo, video, "-o", thumbs, "--dry-run"])
        #expect(plain.status == 0, "\(plain.errorText)")
        #expect(
            plain.outputText.contains("\(photo) → \(thumbs)/plain-thumb.jpg: would be written"), "\(plain.outputText)")
        #expect(plain.outputText.contains("\(video) → \(thumbs)/black-start-thumb.jpg: would be written"))
        #expect(!FileManager.default.fileExists(atPath: thumbs))

        let strip = try CLI.jsonLines(
            try CLI.run(["thumb", video, "--strip", "3", "-o", thumbs, "--dry-run", "--json"]))
        #expect(
            strip.compactMap { $0["path"] as? String } == (1...3).map { "\(thumbs)/black-start-strip-0\($0).jpg" },
            "\(strip)")
        #expect(strip.allSatisfy { $0["type"] as? String == "plan" && $0["source"] as? String == video })
        #expect(!FileManager.default.fileExists(atPath: thumbs))

        // An image that exists is not replaced without --force: the dry run says so, as the run would.
        let there = folder + "/one.jpg"
        try Data([1]).write(to: URL(fileURLWithPath: there))
        let taken = try CLI.run(["thumb", photo, "-o", there, "--dry-run"])
        #expect(taken.status == 1 && taken.errorText.contains("--force"), "\(taken.errorText)")
        #expect(try CLI.run(["thumb", photo, "-o", there, "--dry-run", "--force"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: there)) == Data([1]))
    }
}
