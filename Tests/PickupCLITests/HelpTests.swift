import Foundation
import PickupTestSupport
import Testing

/// The tools' help, compared whole against the texts in `Help/` (100 columns wide, as
/// `COLUMNS=100 pickup COMMAND --help` prints it), their version, completion scripts
/// and usage mistakes. `Help/update.sh` writes the texts again after a help text changes.
@Suite("help, version and completions")
struct HelpTests {
    static let commands = [
        "", "probe", "import", "library", "thumb", "export", "upload", "uploads", "uploads list", "uploads resume",
        "uploads cancel", "uploads prune",
    ]

    static func expected(_ command: String) throws -> String {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Help")
        return try String(
            contentsOf: folder.appendingPathComponent(
                (command.isEmpty ? "pickup" : command.replacingOccurrences(of: " ", with: "-")) + ".txt"),
            encoding: .utf8)
    }

    @Test(
        "each help text is exactly as written in Help/, and 'pickup help COMMAND' prints the same", arguments: commands)
    func help(_ command: String) throws {
        let words = command.split(separator: " ").map(String.init)
        let arguments = words + ["--help"]
        let result = try CLI.run(arguments, environment: ["COLUMNS": "100"])
        #expect(result.status == 0)
        #expect(result.outputText == (try HelpTests.expected(command)))
        if !command.isEmpty {
            #expect(try CLI.run(["help"] + words, environment: ["COLUMNS": "100"]).outputText == result.outputText)
        }
    }

    @Test("examples fit 80 columns and paste into a shell as shown", arguments: commands)
    func examplesPaste(_ command: String) throws {
        let words = command.split(separator: " ").map(String.init)
        let help = try CLI.run(words + ["--help"], environment: ["COLUMNS": "80"]).outputText
        guard let start = help.range(of: "Examples:\n") else { return }
        let examples = String(help[start.upperBound...]).components(separatedBy: "\n\n")[0]
        let lines = examples.split(separator: "\n").map(String.init)
        #expect(!lines.isEmpty)
        for (index, line) in lines.enumerated() {
            #expect(line.count <= 78, "\(line)")
            let continues = index > 0 && lines[index - 1].hasSuffix(" \\")
            #expect(
                line.hasPrefix(continues ? "    " : "  ") && !line.hasPrefix(continues ? "     " : "   "), "\(line)")
        }
        // Each example, its continuations joined as a shell joins them, is one well-formed command.
        let syntax = try Shell.execute("/bin/bash", ["-n", "-c", examples])
        #expect(syntax.status == 0, "\(syntax.errorText)")
        let joined = examples.replacingOccurrences(of: " \\\n    ", with: " ")
        #expect(joined.split(separator: "\n").allSatisfy { $0.hasPrefix("  ") && !$0.hasPrefix("   ") })
    }

    @Test("--version names Pickup, FFmpeg and libheif")
    func version() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        let lines = result.outputText.split(separator: "\n")
        #expect(lines.first?.hasPrefix("pickup 0.") == true)
        #expect(lines.contains { $0.hasPrefix("FFmpeg ") && $0.contains("libavcodec") })
        #expect(lines.contains { $0.hasPrefix("libheif ") })
    }

    @Test("completion scripts for bash, zsh and fish name every command", arguments: ["bash", "zsh", "fish"])
    func completions(_ shell: String) throws {
        let result = try CLI.run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        for command in HelpTests.commands.dropFirst().map({ $0.split(separator: " ").last ?? "" }) {
            #expect(result.outputText.contains(command), "\(shell) completions lack \(command)")
        }
        // Each shell spells options its own way (fish: 'r/recursive'); each names them.
        #expect(result.outputText.contains("recursive") && result.outputText.contains("strip-location"))
    }

    @Test("usage mistakes exit 2 with what was wrong and the command's usage")
    func mistakes() throws {
        let unknown = try CLI.run(["probe", "--frobnicate", "x"])
        #expect(unknown.status == 2)
        #expect(unknown.errorText.contains("'--frobnicate' is not an option of 'pickup probe'"))
        #expect(unknown.errorText.contains("Usage: pickup probe"))
        #expect(unknown.errorText.contains("See 'pickup probe --help'"))
        let none = try CLI.run(["thumb"])
        #expect(none.status == 2)
        #expect(none.errorText.contains("name at least one photo or video"))
        #expect(none.errorText.contains("Usage: pickup thumb"))
        let command = try CLI.run(["teleport"])
        #expect(command.status == 2)
        #expect(command.errorText.contains("'teleport' is not a command of 'pickup'"), "\(command.errorText)")
        #expect(command.errorText.contains("Usage: pickup"), "\(command.errorText)")
    }
}
