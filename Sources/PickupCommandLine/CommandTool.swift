/// The front door of a command-line tool: finds the command named by the first
/// argument, parses its options against its spec, and runs it; `--help`,
/// `help COMMAND` and `--version` work for every command.
public enum CommandTool {
    public static func run(_ arguments: [String], commands: [any Command.Type], overview: String) async -> Int32 {
        guard let first = arguments.first else {
            Console.error(overview)
            return ExitStatus.usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            if first == "help", arguments.count > 1,
                let command = commands.first(where: { $0.spec.name == arguments[1] })
            {
                Console.out(command.spec.help)
            } else {
                Console.out(overview)
            }
            return ExitStatus.success
        }
        if first == "--version" {
            Console.out("pickup \(version)")
            return ExitStatus.success
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            Console.error("pickup: unknown command '\(first)'.\nSee 'pickup --help'.")
            return ExitStatus.usage
        }
        let rest = Array(arguments.dropFirst())
        do {
            let parsed = try ArgumentParser.parse(rest, spec: command.spec)
            if parsed.has("--help") {
                Console.out(command.spec.help)
                return ExitStatus.success
            }
            return try await command.init(parsed).run()
        } catch {
            Console.error("pickup \(first): \(error)")
            return ExitStatus.usage
        }
    }

    public static let version = "0.1.0"
}
