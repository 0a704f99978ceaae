import ArgumentParser

/// The front door of both tools: parses the arguments with swift-argument-parser, runs
/// the command, and maps what it throws to the exit statuses every command shares: 0 for
/// help and version, the command's own status, 2 for a usage mistake (swift-argument-parser
/// says 64), with its message on standard error.
public enum ToolMain {
    /// Parses `arguments` (without the program's name) against `root` and its
    /// subcommands, runs the command, and returns the exit status.
    public static func run<Root: ParsableCommand>(_ root: Root.Type, _ arguments: [String]) async -> Int32 {
        let tool = root.configuration.commandName ?? "pickup"
        let subcommands = root.configuration.subcommands.compactMap { $0.configuration.commandName }
        let command = [tool] + arguments.prefix(1).filter(subcommands.contains)
        if let slip = ArgumentSlips.fileNamedLikeAnOption(in: arguments, command: command.joined(separator: " ")) {
            Console.error("Error: \(slip).\nSee '\(command.joined(separator: " ")) --help'.")
            return ExitStatus.usage
        }
        // `pickup help prob`: swift-argument-parser prints the tool's help and exits 0; a word
        // that names no command is a mistake, said as one (with the nearest command).
        if arguments.first == "help", arguments.count > 1, arguments[1] != "help",
            !arguments.dropFirst().contains(where: { $0.hasPrefix("-") }),
            let unknown = UnknownOptions.first(in: Array(arguments.dropFirst()), root: root), unknown.isCommand
        {
            Console.error(UnknownOptions.message(unknown))
            return ExitStatus.usage
        }
        do {
            var command = try root.parseAsRoot(ArgumentSlips.joiningNegativeValues(arguments))
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            return ExitStatus.success
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch {
            let code = root.exitCode(for: error)
            let message = root.fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { Console.out(message) }
                return ExitStatus.success
            }
            // A missing argument or a validate() error can stem from an option mistyped: that first.
            if let unknown = UnknownOptions.first(in: arguments, root: root) {
                // The usage swift-argument-parser gave, after what was wrong.
                let usage = message.range(of: "Usage:").map { "\n" + message[$0.lowerBound...] } ?? ""
                Console.error(UnknownOptions.message(unknown) + usage)
                return ExitStatus.usage
            }
            Console.error(message)
            return code == .validationFailure ? ExitStatus.usage : code.rawValue
        }
    }
}

extension AsyncParsableCommand {
    /// Ends the command with `status` (nothing is thrown for success).
    public func finish(_ status: Int32) throws {
        if status != ExitStatus.success { throw ExitCode(status) }
    }
}
