import Foundation
import PickupTestSupport
import Testing

/// Each failure's hint fits its case, through the built tool: no hint that repeats the message,
/// names another case's remedy, or tells to check what is plainly there.
@Suite("hints that fit their case")
struct MessageFitCommandTests {
    func scratch() throws -> String {
        let folder = try Temporary.folder("cli-hints")
        return folder
    }

    @Test("an empty file is said to be empty once, in probe and thumb")
    func emptyOnce() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        #expect(FileManager.default.createFile(atPath: folder + "/empty.mp4", contents: nil))
        for arguments in [["probe", folder + "/empty.mp4"], ["thumb", folder + "/empty.mp4", "-o", folder + "/t/"]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 1)
            #expect(result.errorText.contains("the file is empty (0 bytes)"), "\(result.errorText)")
            #expect(result.errorText.components(separatedBy: "empty").count == 3, "the name and the message only")
            #expect(result.errorText.contains("copy it again from its source"))
        }
    }

    @Test("an output that exists: --force or another name, not the folder's space and permissions")
    func existingOutput() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let photo = try Fixtures.path(.jpegPlain)
        #expect(try CLI.run(["thumb", photo, "-o", folder + "/t.jpg"]).status == 0)
        let again = try CLI.run(["thumb", photo, "-o", folder + "/t.jpg"])
        #expect(again.status == 1)
        #expect(again.errorText.contains("exists. Add --force to replace it"), "\(again.errorText)")
        #expect(!again.errorText.contains("permissions"))
    }

    @Test("a FIFO is never read, not 'check that the file exists'; a text file is not media, not 'convert it'")
    func fifoAndText() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        #expect(mkfifo(folder + "/pipe.mov", 0o644) == 0)
        for arguments in [["probe", folder + "/pipe.mov"], ["thumb", folder + "/pipe.mov", "-o", folder + "/t/"]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 1)
            #expect(result.errorText.contains("a pipe, device or socket is never read"), "\(result.errorText)")
            #expect(!result.errorText.contains("Check that the file exists"))
        }
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: folder + "/notes.jpg"))
        for command in [["thumb", "-o", folder + "/t/"], ["export", "--preset", "640x480", "-o", folder + "/o.mp4"]] {
            let result = try CLI.run([command[0], folder + "/notes.jpg"] + command.dropFirst())
            #expect(result.status == 1)
            #expect(result.errorText.contains("not a photo or video"), "\(result.errorText)")
            #expect(!result.errorText.contains("Convert it with ffmpeg"))
        }
    }

    @Test("a thumbnail smaller than the box asked for says so: pictures are not enlarged")
    func smallerThanAsked() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let photo = folder + "/wide.jpg"
        let made = try Shell.run(
            "ffmpeg -v error -y -f lavfi -i testsrc2=size=600x315 -frames:v 1 \"$OUT\"", environment: ["OUT": photo])
        try #require(made.status == 0, "\(made.errorText)")
        let fill = try CLI.run(["thumb", photo, "--fill", "--size", "320x320", "-o", folder + "/fill.jpg"])
        #expect(fill.status == 0, "\(fill.errorText)")
        // (Heights are made even for the encoder's chroma: 315 gives 314.)
        #expect(fill.outputText.contains(" 320x314,"), "\(fill.outputText)")
        #expect(fill.outputText.contains("(smaller than 320x320: the picture is not enlarged)"))
        let fit = try CLI.run(["thumb", photo, "--fit", "--size", "5000x5000", "-o", folder + "/fit.jpg"])
        #expect(fit.outputText.contains(" 600x314,") && fit.outputText.contains("smaller than 5000x5000"))
        let plain = try CLI.run(["thumb", photo, "--size", "64x64", "-o", folder + "/small.jpg"])
        #expect(plain.outputText.contains("64x64") && !plain.outputText.contains("smaller than"), "\(plain.outputText)")
    }
}
