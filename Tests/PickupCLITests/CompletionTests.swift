import Foundation
import PickupTestSupport
import Testing

/// The completion scripts the built `pickup` writes complete file names, folders and the values
/// options know, not only the subcommands.
@Suite("shell completion of files and values")
struct CompletionTests {
    func script(_ shell: String) throws -> String {
        let result = try CLI.run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        return result.outputText
    }

    @Test("zsh: files for probe, thumb and export and their -o, folders for library, the known values")
    func zsh() throws {
        let text = try script("zsh")
        #expect(text.components(separatedBy: "'*:FILE|DIR:_files'").count - 1 == 3, "probe, thumb and export")
        #expect(text.contains(":PATH:_files'") && text.contains(":OUT:_files'"))
        #expect(text.contains("verify|repair|remove ID:_files -/'"))
        #expect(text.contains("___sort=('imported' 'taken' 'size' 'name')"))
        #expect(text.contains("___format=('jpeg' 'png' 'webp')"))
        #expect(text.contains("___preset=('passthrough' 'low'") && text.contains("'hevc-highest')"))
        #expect(text.contains("--journal[") && text.contains(":PATH:_files'"))
    }

    @Test("bash and fish: the same files and values in their own spelling")
    func bashAndFish() throws {
        let bash = try script("bash")
        #expect(bash.contains("__pickup_add_completions -f"))
        #expect(bash.contains("'hevc-1920x1080'$'\\n''hevc-3840x2160'"))
        let fish = try script("fish")
        #expect(fish.contains("\"pickup probe\" -ge 1' -F"))
        #expect(fish.contains("-rfka 'passthrough low medium highest"))
        #expect(fish.contains("'imported taken size name'"))
    }
}
