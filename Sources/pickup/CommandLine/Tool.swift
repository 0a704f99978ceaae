/// The `pickup` tool: finds the command named by the first argument and runs it.
enum Tool {
    static let commands: [any Command.Type] = [
        ProbeCommand.self, ImportCommand.self, LibraryCommand.self, ThumbCommand.self, ExportCommand.self,
        UploadCommand.self, UploadsCommand.self,
    ]

    static let overview = """
        pickup — pick, inspect, import, render, export and upload photos and videos.

        Usage: pickup COMMAND [ARGUMENTS] [OPTIONS]

        Commands:
        \(commands.map { "  " + Text.pad($0.spec.name, 10) + $0.spec.abstract }.joined(separator: "\n"))

        Run 'pickup COMMAND --help' for a command's arguments and options.
        """

    static func main(_ arguments: [String]) async -> Int32 {
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

    static let version = "0.1.0"
}
