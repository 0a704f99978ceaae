/// What a command accepts: its name, a one-line abstract, its arguments and
/// options, and the help text made from them.
public struct CommandSpec: Sendable {
    public struct Option: Sendable {
        /// Spellings, long first: `["--json"]`, `["--output", "-o"]`.
        public let names: [String]
        /// The value's placeholder (`N`, `PATH`), or nil for a flag.
        public let value: String?
        public let help: String
        public var isFlag: Bool { value == nil }

        public init(names: [String], value: String?, help: String) {
            self.names = names
            self.value = value
            self.help = help
        }
    }

    public let name: String
    public let abstract: String
    /// The argument synopsis after the command name, e.g. `FILE|DIR... [--json]`.
    public let synopsis: String
    public let arguments: [(name: String, help: String)]
    public let options: [Option]
    public let discussion: String
    public let examples: [String]

    public init(
        name: String, abstract: String, synopsis: String, arguments: [(name: String, help: String)] = [],
        options: [Option], discussion: String = "", examples: [String] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.synopsis = synopsis
        self.arguments = arguments
        self.options = options
        self.discussion = discussion
        self.examples = examples
    }

    public static let helpOption = Option(names: ["--help", "-h"], value: nil, help: "Show this help.")

    public var allOptions: [Option] { options + [CommandSpec.helpOption] }

    public var help: String {
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
public struct UsageError: Error, CustomStringConvertible {
    public let message: String
    public let command: String?

    public init(message: String, command: String?) {
        self.message = message
        self.command = command
    }

    public var description: String {
        let help = command.map { "pickup \($0) --help" } ?? "pickup --help"
        return "\(message)\nSee '\(help)'."
    }
}
