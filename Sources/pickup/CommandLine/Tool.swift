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

    static func start(_ arguments: [String]) async -> Int32 {
        let rendered = [RenderCommands.thumb.commandName, RenderCommands.export.commandName]
        if let first = arguments.first, rendered.contains(first) {
            // Thumbnails and exports run in pickup-render, which links FFmpeg; this tool stays lean.
            return RenderCommands.replaceProcess(arguments)
        }
        if arguments == ["--version"] {
            Console.out(await ToolVersion.full())
            return ExitStatus.success
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
