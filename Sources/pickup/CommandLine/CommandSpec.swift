/// What a command accepts: its name, a one-line abstract, its arguments and
/// options, and the help text made from them.
struct CommandSpec {
    struct Option {
        /// Spellings, long first: `["--json"]`, `["--output", "-o"]`.
        let names: [String]
        /// The value's placeholder (`N`, `PATH`), or nil for a flag.
        let value: String?
        let help: String
        var isFlag: Bool { value == nil }
    }

    let name: String
    let abstract: String
    /// The argument synopsis after the command name, e.g. `FILE|DIR... [--json]`.
    let synopsis: String
    let arguments: [(name: String, help: String)]
    let options: [Option]
    let discussion: String
    let examples: [String]

    static let helpOption = Option(names: ["--help", "-h"], value: nil, help: "Show this help.")

    var allOptions: [Option] { options + [CommandSpec.helpOption] }

    var help: String {
        var text = "\(abstract)\n\nUsage: pickup \(name) \(synopsis)\n"
        if !arguments.isEmpty {
            text += "\nArguments:\n"
            for argument in arguments { text += row(argument.name, argument.help) }
        }
        text += "\nOptions:\n"
        for option in allOptions {
            let spelled = option.names.joined(separator: ", ") + (option.value.map { " " + $0 } ?? "")
            text += row(spelled, option.help)
        }
        if !discussion.isEmpty { text += "\n" + discussion + "\n" }
        if !examples.isEmpty {
            text += "\nExamples:\n"
            for example in examples { text += "  " + example + "\n" }
        }
        return text
    }

    private func row(_ left: String, _ right: String) -> String {
        let padded =
            left.count < 22
            ? left + String(repeating: " ", count: 22 - left.count) : left + "\n" + String(repeating: " ", count: 24)
        return "  " + padded + right + "\n"
    }
}

/// A mistake in how a command was called: what was wrong and where to look.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    let command: String?

    var description: String {
        let help = command.map { "pickup \($0) --help" } ?? "pickup --help"
        return "\(message)\nSee '\(help)'."
    }
}
