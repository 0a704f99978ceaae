import Foundation
import PickupTestSupport
import Testing

/// Runs the built `pickup` tool and reads what it prints.
enum CLI {
    /// `pickup` sits beside the test bundle in the build folder.
    static let tool: String = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("pickup").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder.deleteLastPathComponent()
        }
        return ".build/debug/pickup"
    }()

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Shell.Result {
        try Shell.execute(tool, arguments, environment: environment)
    }

    /// Standard output as JSON Lines, one object a line, its `null` members left out (every line
    /// has every key of its type, null for what is unknown: the schema tests check that; here,
    /// `line["latitude"] == nil` reads as "not known").
    static func jsonLines(_ result: Shell.Result) throws -> [[String: Any]] {
        try result.outputText.split(separator: "\n").map { line in
            try #require(withoutNulls(JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])
        }
    }

    static func withoutNulls(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            return object.filter { !($0.value is NSNull) }.mapValues(withoutNulls)
        }
        if let array = value as? [Any] { return array.map(withoutNulls) }
        return value
    }
}
