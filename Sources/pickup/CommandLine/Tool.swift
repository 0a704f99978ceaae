import ArgumentParser
import PickupCommandLine

/// The `pickup` tool: its commands, on swift-argument-parser.
struct Tool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pickup",
        abstract: "Pick, inspect, import, render, export and upload photos and videos.",
        discussion: """
            Run 'pickup COMMAND --help' for a command's arguments and options, \
            'pickup --version' for the versions of Pickup, FFmpeg and libheif, and \
            'pickup --generate-completion-script bash|zsh|fish' for shell completions.
            """,
        subcommands: [
            ProbeCommand.self, ImportCommand.self, LibraryCommand.self, ThumbCommand.self, ExportCommand.self,
            UploadCommand.self, UploadsCommand.self,
        ])

    @Flag(name: .customLong("version"), help: "Show the versions of Pickup, FFmpeg and libheif.")
    var version = false

    func run() async throws {
        // `pickup --version` is answered before parsing (Tool.start); this is for the help's sake.
        guard version else { throw CleanExit.helpRequest(self) }
        Console.out(await ToolVersion.full())
    }

    static func start(_ arguments: [String]) async -> Int32 {
        let rendered = [RenderCommands.thumb.commandName, RenderCommands.export.commandName]
        if let first = arguments.first, rendered.contains(first) {
            // Thumbnails and exports run in pickup-render, which links FFmpeg; this tool stays lean.
            return RenderCommands.replaceProcess(arguments)
        }
        // `pickup --version`, and `pickup probe --version` too: the version is the tool's.
        let commands = Tool.configuration.subcommands.compactMap { $0.configuration.commandName }
        if arguments.last == "--version", arguments.dropLast().allSatisfy(commands.contains), arguments.count <= 2 {
            Console.out(await ToolVersion.full())
            return ExitStatus.success
        }
        if arguments.isEmpty {
            // Nothing asked: the overview, as a usage mistake (a script that forgot its arguments fails).
            Console.error(Tool.helpMessage() + "\nError: name a command, such as 'pickup probe FILE'.")
            return ExitStatus.usage
        }
        return await ToolMain.run(Tool.self, arguments)
    }
}

/// `pickup thumb`, as `pickup` lists it: `pickup-render` parses and runs it.
struct ThumbCommand: AsyncParsableCommand {
    static let configuration = RenderCommands.thumb

    @OptionGroup var options: ThumbArguments

    func run() async throws {
        try finish(RenderCommands.replaceProcess(Array(CommandLine.arguments.dropFirst())))
    }
}

/// `pickup export`, as `pickup` lists it: `pickup-render` parses and runs it.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = RenderCommands.export

    @OptionGroup var options: ExportArguments

    func run() async throws {
        try finish(RenderCommands.replaceProcess(Array(CommandLine.arguments.dropFirst())))
    }
}
