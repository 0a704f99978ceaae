import Pickup
import PickupCommandLine
import PickupFFmpeg
import PickupImport

/// `pickup-render thumbnails`: the missing thumbnails of a library's items,
/// recorded in its catalog (what `pickup import --thumbnails` asks for).
struct ThumbnailsCommand: Command {
    static let spec = CommandSpec(
        name: "thumbnails",
        abstract: "Make the missing thumbnails of a library's items and record them in its catalog.",
        synopsis: "DIR [ID...] --size WxH [--json]",
        arguments: [("DIR", "A library made by 'pickup import'."), ("ID", "Only these items (default: all).")],
        options: [
            .init(names: ["--size"], value: "WxH", help: "The box each thumbnail fills (default 256x256)."),
            .init(names: ["--json"], value: nil, help: "Print one JSON object a line: item id and thumbnail."),
        ],
        discussion: """
            Thumbnails are upright JPEGs in DIR/.pickup/thumbnails, named by item id. Audio items have
            none. Exit status: 0 when every item has its thumbnail, 1 when any failed, 2 for a usage mistake.
            """)

    let folder: String
    let ids: [String]
    let size: PixelSize
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let folder = arguments.positionals.first else {
            throw UsageError(message: "name the library folder", command: "thumbnails")
        }
        guard let size = PixelSize(parsing: arguments.value("--size") ?? "256x256"), size.pixels <= 16_000_000 else {
            throw UsageError(message: "--size takes WxH, like 256x256", command: "thumbnails")
        }
        self.folder = folder
        ids = Array(arguments.positionals.dropFirst())
        self.size = size
        json = arguments.has("--json")
    }

    func run() async -> Int32 {
        let session: ImportSession
        var items: [ImportedItem] = []
        do {
            session = try ImportSession(destination: folder)
            if ids.isEmpty {
                items = try await session.catalog.items()
            } else {
                for id in ids {
                    guard let item = try await session.catalog.item(id: id) else {
                        Console.error("pickup thumbnails: no item '\(id)' in \(folder)")
                        return ExitStatus.someFailed
                    }
                    items.append(item)
                }
            }
        } catch {
            Console.error("pickup thumbnails: " + error.description)
            return ExitStatus.someFailed
        }
        let using = ImportThumbnails(renderer: FFmpegThumbnailer(), request: ThumbnailRequest(size: size, mode: .fill))
        var failed = false
        for item in items {
            do {
                let done = try await session.thumbnail(for: item, using: using)
                guard let thumbnail = done.thumbnail else { continue }
                if json {
                    var object = JSONObject()
                    object.add("id", done.id)
                    object.add("thumbnail", thumbnail.name)
                    Console.out(object.text)
                } else {
                    Console.out("\(done.id) → \(thumbnail.name) \(thumbnail.width)x\(thumbnail.height)")
                }
            } catch {
                failed = true
                Console.error("pickup thumbnails: no thumbnail for \(item.originalName): \(error)")
            }
        }
        return failed ? ExitStatus.someFailed : ExitStatus.success
    }
}
