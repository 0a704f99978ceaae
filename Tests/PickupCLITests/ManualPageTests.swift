import Foundation
import PickupTestSupport
import Testing

/// pickup's man page, as swift-argument-parser's generate-manual tool writes it from the built
/// `pickup` (`scripts/docs.sh` builds that tool, beside `pickup`, and writes `.build/man/pickup.1`).
@Suite("the man page")
struct ManualPageTests {
    static let generator = (CLI.tool as NSString).deletingLastPathComponent + "/generate-manual-tool"

    @Test(
        "it holds every command and the new words of their help, and man renders it",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: generator),
            "generate-manual-tool is built by scripts/docs.sh (swift package plugin generate-manual)"))
    func manualPage() throws {
        let folder = try Temporary.folder("cli-man")
        defer { Temporary.remove(folder) }
        let made = try Shell.execute(ManualPageTests.generator, [CLI.tool, "--output-directory", folder])
        #expect(made.status == 0, "\(made.errorText)")
        let page = try String(contentsOfFile: folder + "/pickup.1", encoding: .utf8)
        #expect(page.contains(".Nm pickup\n"))
        for command in ["probe", "import", "library", "thumb", "export", "upload", "uploads"] {
            #expect(page.contains(".It Em \(command)\n"), "\(command)")
        }
        #expect(page.contains("repair copies missing and damaged files"))
        #expect(page.contains(".It Fl -version"))
        let rendered = try Shell.run(
            "man -l \"$F\" | col -b", environment: ["F": folder + "/pickup.1", "MANWIDTH": "100"])
        #expect(rendered.status == 0, "\(rendered.errorText)")
        #expect(rendered.outputText.contains("Pick, inspect, import, render, export and upload photos"))
    }
}
