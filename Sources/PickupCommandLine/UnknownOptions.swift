import ArgumentParser
import Foundation

/// An option the command does not have, found when parsing failed: swift-argument-parser
/// reports a missing argument or a `validate()` error first (`pickup probe --nosuch` said
/// "name at least one file"), which hides the mistake that caused it.
public enum UnknownOptions {
    /// An argument that is not the command's: what it was as shown (`'--fromat'`, `'-x' (in
    /// '-rx')`), the command it was given to (`pickup probe`), whether that command takes names
    /// (so a file named like an option gets its hint), whether it was a command's name, and the
    /// known name it is most likely a slip of.
    public struct Unknown: Sendable, Equatable {
        /// The argument as the message shows it, quoted.
        public var what: String
        /// The command it was given to, as typed (`pickup uploads`).
        public var command: String
        /// Whether the command takes names (files, ids), so the `--` hint fits.
        public var takesNames: Bool
        /// Whether the argument stood where a subcommand's name goes.
        public var isCommand: Bool
        /// The known option or command it is most likely a slip of.
        public var suggestion: String?
    }

    /// The first argument before `--` that is none of the command's options, and the command
    /// (`pickup probe`); nil when every one is known. The options are the command's own, as
    /// `--experimental-dump-help` describes them.
    public static func first<Root: ParsableCommand>(in arguments: [String], root: Root.Type) -> Unknown? {
        guard let tree = info(root, path: []) else { return nil }
        // The subcommands named first: `uploads list --nosuch` is looked up in `uploads list`.
        var command = tree
        var path: [String] = []
        for argument in arguments {
            let subcommands = (command["subcommands"] as? [[String: Any]] ?? []).compactMap {
                $0["commandName"] as? String
            }
            guard subcommands.contains(argument) else {
                // `pickup prob a.jpg`: a command that only holds subcommands takes no other word.
                let takesWords = (command["arguments"] as? [[String: Any]] ?? []).contains {
                    $0["kind"] as? String == "positional"
                }
                if !subcommands.isEmpty, !takesWords, !argument.hasPrefix("-") {
                    let name = ([root.configuration.commandName ?? "pickup"] + path).joined(separator: " ")
                    return Unknown(
                        what: "'\(argument)'", command: name, takesNames: false, isCommand: true,
                        suggestion: words(nearest(argument, among: subcommands)))
                }
                break
            }
            path.append(argument)
            guard let deeper = info(root, path: path) else { return nil }
            command = deeper
        }
        var long: Set<String> = ["help", "version", "experimental-dump-help", "generate-completion-script"]
        var singleDash: Set<String> = []
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
                    singleDash.insert(text)
                    if isOption { takesValue.insert("-" + text) }
                default:
                    long.insert(text)
                    if isOption { takesValue.insert("--" + text) }
                }
            }
        }
        let name = ([root.configuration.commandName ?? "pickup"] + path).joined(separator: " ")
        // Names of files (`FILE|DIR`, `SOURCE`, `ITEM`…), not an upload's `ID`: only those may
        // begin with `-`, so only those get the advice on `--`.
        let positional = (command["arguments"] as? [[String: Any]] ?? []).contains {
            $0["kind"] as? String == "positional" && $0["valueName"] as? String != "ID"
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
                guard long.contains(String(option.dropFirst(2))) else {
                    let guess = words(
                        nearest(String(option.dropFirst(2)), among: long.subtracting(hidden)).map { "--" + $0 })
                    return Unknown(
                        what: "'\(option)'", command: name, takesNames: positional, isCommand: false, suggestion: guess)
                }
            } else if !singleDash.contains(String(option.dropFirst())) {
                // `-size`: a long option written with one dash, which swift-argument-parser does not take.
                if option.count > 2, long.contains(String(option.dropFirst())) {
                    return Unknown(
                        what: "'\(option)'", command: name, takesNames: positional, isCommand: false,
                        suggestion: "-" + option)
                }
                // `-rf`: a cluster of short flags, each of them known.
                guard let unknown = option.dropFirst().first(where: { !short.contains($0) }) else {
                    valueNext = !argument.contains("=") && takesValue.contains("-" + String(option.suffix(1)))
                    continue
                }
                let shown = option.count == 2 ? "'\(option)'" : "'-\(unknown)' (in '\(option)')"
                return Unknown(what: shown, command: name, takesNames: positional, isCommand: false, suggestion: nil)
            }
            valueNext = !argument.contains("=") && takesValue.contains(option)
        }
        return nil
    }

    /// What to say: the option or command is unknown, the nearest known one when the word looks
    /// like a slip of it, and where to find the ones there are; for a command that takes names
    /// (files, ids), how to give one that begins with `-`.
    public static func message(_ unknown: Unknown) -> String {
        let guess = unknown.suggestion.map { "; did you mean '\($0)'?" } ?? "."
        if unknown.isCommand {
            return "Error: \(unknown.what) is not a command of '\(unknown.command)'\(guess) "
                + "See '\(unknown.command) --help' for its commands."
        }
        return "Error: \(unknown.what) is not an option of '\(unknown.command)'\(guess) "
            + "See '\(unknown.command) --help' for its options"
            + (unknown.takesNames
                ? "; if it is a file's name, put '--' before the names (\(unknown.command) -- -name.jpg) or write ./-name.jpg"
                : "")
            + "."
    }

    /// Options every command has that no one types by mistake for another.
    private static let hidden: Set<String> = ["experimental-dump-help", "generate-completion-script"]

    /// The word in `known` that `word` is most likely a slip of: one to two letters wrong,
    /// missing, added or swapped (`fromat` for `format`), one only in a short word; both of two
    /// as near; none when none is that near.
    static func nearest(_ word: String, among known: some Sequence<String>) -> [String] {
        let limit = word.count <= 4 ? 1 : 2
        let ranked = known.map { (name: $0, distance: distance(word.lowercased(), $0.lowercased())) }
            .filter { $0.distance <= limit }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
        // Two as near as each other (`uploadz`: upload, uploads) are both named.
        guard let best = ranked.first else {
            // Far by letters, but one begins the other (`thumbnails` for `thumb`, `verif` for
            // `verify`): named, when both are at least four letters long.
            let word = word.lowercased()
            return Array(
                known.filter { name in
                    let name = name.lowercased()
                    return min(word.count, name.count) >= 4 && (word.hasPrefix(name) || name.hasPrefix(word))
                }
                .sorted().prefix(2))
        }
        return Array(ranked.filter { $0.distance == best.distance }.map(\.name).prefix(2))
    }

    /// For a value an option does not take (`--format cvs`): " (did you mean 'csv'?)" when the
    /// word looks like a slip of one it takes (either case), else nothing.
    public static func guess(_ word: String, among values: some Sequence<String>) -> String {
        words(nearest(word, among: values)).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Suggestions as the message names them (`upload' or 'uploads`); nil for none.
    static func words(_ names: [String]) -> String? { names.isEmpty ? nil : names.joined(separator: "' or '") }

    /// Edits between two words: letters replaced, inserted or deleted, and two neighbours
    /// swapped, each counting one (the optimal string alignment distance).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
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
