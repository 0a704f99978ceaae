import Foundation
import PickupTestSupport
import Testing

/// One error object and one list of codes for every command's `--json`, through the built tool.
@Suite("one error object for every command")
struct ErrorObjectCommandTests {
    func error(_ arguments: [String]) throws -> [String: Any] {
        let result = try CLI.run(arguments + ["--json"])
        #expect(result.status == 1, "\(arguments[0]): \(result.errorText)")
        // Every key there, offset and element included (null where they do not apply).
        let line = try #require(
            try JSONSerialization.jsonObject(with: Data(result.outputText.split(separator: "\n")[0].utf8))
                as? [String: Any])
        let error = try #require(line["error"] as? [String: Any], "\(result.outputText)")
        #expect(Set(error.keys) == ["code", "message", "hint", "offset", "element"], "\(arguments[0]): \(error)")
        return error
    }

    @Test("a cut-short movie: probe, thumb and export give the same code, offset, element and hint")
    func sameDamageSameError() throws {
        let folder = try Temporary.folder("cli-errors")
        defer { Temporary.remove(folder) }
        let bytes = try Fixtures.bytes(.mp4Large)
        let cut = folder + "/cut.mp4"
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: cut))
        let probe = try error(["probe", cut])
        #expect(probe["code"] as? String == "truncated")
        let commands = [
            ["thumb", cut, "-o", folder], ["export", cut, "--preset", "640x480", "-o", folder + "/o.mp4"],
        ]
        for command in commands {
            let rendered = try error(command)
            for key in ["code", "hint", "element"] {
                #expect(rendered[key] as? String == probe[key] as? String, "\(command[0]) \(key)")
            }
            #expect(rendered["offset"] as? Int == probe["offset"] as? Int, "\(command[0]) offset")
        }
        // A failure of the renderer itself has the same keys, its own code, null offset and element.
        let audio = try error(["thumb", try Fixtures.path(.m4aAudio), "-o", folder])
        #expect(audio["code"] as? String == "noPicture")
        #expect(audio["offset"] is NSNull && audio["element"] is NSNull)
    }
}
