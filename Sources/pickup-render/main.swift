import ArgumentParser
import PickupCommandLine
import PickupFFmpeg

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `pickup-render`: the commands of `pickup` that need FFmpeg's libraries.
/// `pickup thumb` and `pickup export` start it; it also runs on its own.
struct RenderTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        // `pickup thumb` and `pickup export` start it as "pickup": its help then names that tool.
        commandName: CommandLine.arguments.first.map { $0.split(separator: "/").last == "pickup" } == true
            ? "pickup" : "pickup-render",
        abstract: "Thumbnails, poster frames and exports for pickup (through FFmpeg and libheif).",
        discussion: "'pickup thumb' and 'pickup export' run these; 'pickup import --thumbnails' runs thumbnails.",
        subcommands: [ThumbCommand.self, ExportCommand.self, ThumbnailsCommand.self])
}

let arguments = SystemArguments.all
if arguments == ["--version"] {
    Console.out("pickup-render \(ToolVersion.pickup)\n\(LibraryVersions.ffmpeg)\n\(LibraryVersions.heif)")
    exit(ExitStatus.success)
}
exit(await ToolMain.run(RenderTool.self, arguments))
