import PickupCommandLine

/// The `pickup` tool: finds the command named by the first argument and runs it.
enum Tool {
    static let commands: [any Command.Type] = [
        ProbeCommand.self, ImportCommand.self, LibraryCommand.self, UploadCommand.self, UploadsCommand.self,
    ]

    static let overview = """
        pickup — pick, inspect, import, render, export and upload photos and videos.

        Usage: pickup COMMAND [ARGUMENTS] [OPTIONS]

        Commands:
        \((commands.map { ($0.spec.name, $0.spec.abstract) } + RenderCommands.all).map { "  " + Text.pad($0.0, 10) + $0.1 }
            .joined(separator: "\n"))

        Run 'pickup COMMAND --help' for a command's arguments and options.
        """

    static func main(_ arguments: [String]) async -> Int32 {
        if let first = arguments.first, RenderCommands.all.contains(where: { $0.name == first }) {
            // Thumbnails and exports run in pickup-render, which links FFmpeg; this tool stays lean.
            return RenderCommands.replaceProcess(arguments)
        }
        return await CommandTool.run(arguments, commands: commands, overview: overview)
    }
}
