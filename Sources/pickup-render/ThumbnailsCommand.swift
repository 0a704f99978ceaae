import ArgumentParser
import Pickup
import PickupCommandLine
import PickupFFmpeg
import PickupImport

/// `pickup-render thumbnails`: the missing thumbnails of a library's items,
/// recorded in its catalog (what `pickup import --thumbnails` asks for).
struct ThumbnailsCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnails",
        abstract: "Make the missing thumbnails of a library's items and record them in its catalog.",
        discussion: """
            Thumbnails are upright JPEGs in DIR/.pickup/thumbnails, named by item id. Audio items have \
            none. Exit status: 0 when every item has its thumbnail, 1 when any failed, 2 for a usage mistake.
            """
                + Examples.text([]))

    @Argument(
        help: ArgumentHelp(
            "DIR: A library made by 'pickup import'. ID: Only these items (default: all).", valueName: "DIR"))
    var arguments: [String] = []

    @Option(
        name: [.customLong("size")],
        help: ArgumentHelp("The box each thumbnail fills.", valueName: "WxH"))
    var size = "256x256"

    @Flag(name: [.customLong("json")], help: "Print one JSON object a line: item id and thumbnail.")
    var json = false

    func job() throws -> ThumbnailsJob { try ThumbnailsJob(self) }
}

/// What the command does, from its checked arguments.
struct ThumbnailsJob: CommandJob {
    let folder: String
    let ids: [String]
    let size: PixelSize
    let json: Bool

    init(_ command: ThumbnailsCommand) throws(ValidationError) {
        guard let folder = command.arguments.first else {
            throw ValidationError("name the library folder")
        }
        let size = try SizeOption.parse(
            command.size, option: "--size", example: "256x256", most: 16_000_000)
        try OutputCheck.utf8(folder, option: "the library folder")
        self.folder = folder
        ids = Array(command.arguments.dropFirst())
        self.size = size
        json = command.json
    }

    func run() async -> Int32 {
        let session: ImportSession
        var items: [ImportedItem] = []
        do {
            // A library already: a mistyped path or a card is never made into one here.
            _ = try ImportCatalog(folder: folder, readOnly: true)
            session = try ImportSession(destination: folder)
            if ids.isEmpty {
                items = try await session.catalog.items()
            } else {
                for id in ids {
                    guard let (item, tookOver) = try await session.catalog.item(idOrFormerVideo: id) else {
                        Console.error(Text.clean("pickup thumbnails: no item '\(id)' in \(folder)"))
                        return ExitStatus.someFailed
                    }
                    if tookOver {
                        // A video item's id from before a Live Photo took its file over.
                        Console.error(
                            Text.clean(
                                "pickup thumbnails: '\(id)' was a video item; its file is now the movie of "
                                    + "the Live Photo \(item.id), whose thumbnail is made"))
                    }
                    items.append(item)
                }
            }
        } catch {
            Console.error(Text.clean("pickup thumbnails: " + error.description))
            return ExitStatus.someFailed
        }
        let using = ImportThumbnails(renderer: FFmpegThumbnailer(), request: ThumbnailRequest(size: size, mode: .fill))
        var failed = false
        for item in items {
            do {
                let had = session.hasThumbnail(item, as: using.request)
                let done = try await session.thumbnail(for: item, using: using)
                guard let thumbnail = done.thumbnail else { continue }
                if json {
                    var object = JSONObject()
                    object.add("type", "thumbnail")
                    object.add("id", done.id)
                    object.add("thumbnail", thumbnail.name)
                    object.add("status", had ? "alreadyThere" : "made")
                    Console.out(object.text)
                } else {
                    Console.out(
                        "\(done.id) → \(thumbnail.name) \(thumbnail.width)x\(thumbnail.height)"
                            + (had ? " (already there)" : " (made)"))
                }
            } catch {
                failed = true
                Console.error("pickup thumbnails: no thumbnail for \(item.originalName): \(error)")
            }
        }
        return failed ? ExitStatus.someFailed : ExitStatus.success
    }
}
