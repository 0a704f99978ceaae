import PickupCommandLine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `pickup-render`: the commands of `pickup` that need FFmpeg's libraries.
/// `pickup thumb` and `pickup export` start it; it also runs on its own.
let overview = """
    pickup-render — thumbnails, poster frames and exports for pickup (through FFmpeg and libheif).

    Usage: pickup COMMAND [ARGUMENTS] [OPTIONS]   (or pickup-render COMMAND ...)

    Commands:
      thumb      \(RenderCommands.thumbAbstract)
      export     \(RenderCommands.exportAbstract)
      thumbnails Make the missing thumbnails of a library's items (pickup import --thumbnails runs it).
    """
let status = await CommandTool.run(
    Array(CommandLine.arguments.dropFirst()),
    commands: [ThumbCommand.self, ExportCommand.self, ThumbnailsCommand.self],
    overview: overview)
exit(status)
