import ArgumentParser
import Foundation

/// An option the command does not have, found when parsing failed: swift-argument-parser
/// reports a missing argument or a `validate()` error first (`pickup probe --nosuch` said
/// "name at least one file"), which hides the mistake that caused it.
public enum UnknownOptions {
    /// The first argument before `--` that is none of the command's options, and the command
    /// (`pickup probe`); nil when every one is known. The options are the command's own, as
    /// `--experimental-dump-help` describes them.
    public static func first<Root: ParsableCommand>(
        in arguments: [String], root: Root.Type
    ) -> (option: String, command: String, takesNames: Bool)? {
        guard let tree = info(root, path: []) else { return nil }
        // The subcommands named first: `uploads list --nosuch` is looked up in `uploads list`.
        var command = tree
        var path: [String] = []
        for argument in arguments {
            let next = (command["subcommands"] as? [[String: Any]])?.first { $0["commandName"] as? String == argument }
            guard next != nil else { break }
            path.append(argument)
            guard let deeper = info(root, path: path) else { return nil }
            command = deeper
        }
        var long: Set<String> = ["help", "version", "experimental-dump-help", "generate-completion-script"]
        var short: Set<Character> = ["h"]
        var takesValue: Set<String> = ["--generate-completion-script"]
        for argument in command["arguments"] as? [[String: Any]] ?? [] {
            let isOption = argument["kind"] as? String == "option"
            for name in argument["names"] as? [[String: Any]] ?? [] {
                guard let text = name["name"] as? String else { continue }
                switch name["kind"] as? String {
                case "short":
                    if let letter = text.first { short.insert(letter) }
                    if isOption { takesValue.insert("-" + text) }
                case "longWithSingleDash":
                    long.insert(text)
                    if isOption { takesValue.insert("-" + text) }
                default:
                    long.insert(text)
                    if isOption { takesValue.insert("--" + text) }
                }
            }
        }
        let name = ([root.configuration.commandName ?? "pickup"] + path).joined(separator: " ")
        let positional = (command["arguments"] as? [[String: Any]] ?? []).contains {
            $0["kind"] as? String == "positional"
        }
        var valueNext = false
        for argument in arguments.dropFirst(path.count) {
            if argument == "--" { return nil }
            if valueNext {
                valueNext = false
                continue
            }
            guard argument.hasPrefix("-"), argument != "-", !ArgumentSlips.isNegativeNumber(argument) else { continue }
            let option = String(argument.prefix { $0 != "=" })
            if argument.hasPrefix("--") {
                guard long.contains(String(option.dropFirst(2))) else { return ("'\(option)'", name, positional) }
            } else if !long.contains(String(option.dropFirst())) {
                // `-rf`: a cluster of short flags, each of them known.
                guard let unknown = option.dropFirst().first(where: { !short.contains($0) }) else {
                    valueNext = !argument.contains("=") && takesValue.contains("-" + String(option.suffix(1)))
                    continue
                }
                let shown = option.count == 2 ? "'\(option)'" : "'-\(unknown)' (in '\(option)')"
                return (shown, name, positional)
            }
            valueNext = !argument.contains("=") && takesValue.contains(option)
        }
        return nil
    }

    /// What to say: the option is unknown, and where to find the ones there are; for a command
    /// that takes names (files, ids), how to give one that begins with `-`.
    public static func message(_ unknown: (option: String, command: String, takesNames: Bool)) -> String {
        "Error: \(unknown.option) is not an option of '\(unknown.command)'. See '\(unknown.command) --help' for "
            + "its options"
            + (unknown.takesNames
                ? "; if it is a file's name, put '--' before the names (\(unknown.command) -- -name.jpg) or write ./-name.jpg"
                : "")
            + "."
    }

    /// The command at `path` as swift-argument-parser's `--experimental-dump-help` describes it.
    private static func info<Root: ParsableCommand>(_ root: Root.Type, path: [String]) -> [String: Any]? {
        do {
            _ = try root.parseAsRoot(path + ["--experimental-dump-help"])
            return nil
        } catch {
            let text = root.fullMessage(for: error)
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            return object?["command"] as? [String: Any]
        }
    }
}
