import Pickup
import PickupCommandLine
import PickupImport

/// Rows for library items: `pickup import` and `pickup library list` share them.
enum ItemTable {
    static let header = headerRow(note: "STATUS")

    static func headerRow(note: String) -> String {
        Text.pad("ITEM", 13) + Text.pad("KIND", 11) + Text.pad("TIME", 8) + Text.pad("SIZE", 9) + Text.pad(note, 18)
            + "STORED AS\n"
    }

    static func row(_ item: ImportedItem, note: String) -> String {
        var kind = item.kind.rawValue
        if item.isLivePhoto { kind = "live photo" }
        let size = item.files.reduce(Int64(0)) { $0 + $1.size }
        let time = item.info.duration.map { DurationLabel.string(seconds: $0) } ?? "-"
        let names = item.files.map(\.name).joined(separator: " + ")
        return Text.pad(item.id, 13) + Text.pad(kind, 11) + Text.pad(time, 8) + Text.pad(Text.byteCount(size), 9)
            + Text.pad(note, 18) + names + "\n"
    }
}

/// The JSON object of a library item.
enum ItemJSON {
    static func object(_ item: ImportedItem) -> JSONObject {
        var object = JSONObject()
        object.add("id", item.id)
        object.add("kind", item.kind.rawValue)
        object.add("livePhoto", item.isLivePhoto)
        object.add("originalName", item.originalName)
        object.add("originalPath", item.originalPath)
        object.add("importedAt", item.importedAt)
        var files: [JSONObject] = []
        for file in item.files {
            var entry = JSONObject()
            entry.add("role", file.role.rawValue)
            entry.add("name", file.name)
            entry.add("size", file.size)
            entry.add("sha256", file.sha256)
            entry.add("method", file.method?.rawValue)
            files.append(entry)
        }
        object.add("files", array: files)
        if let thumbnail = item.thumbnail {
            var entry = JSONObject()
            entry.add("name", thumbnail.name)
            entry.add("width", Int64(thumbnail.width))
            entry.add("height", Int64(thumbnail.height))
            object.add("thumbnail", object: entry)
        }
        var info = JSONObject()
        for (name, value) in item.info.facts { info.add(name, value) }
        object.add("info", object: info)
        return object
    }
}
