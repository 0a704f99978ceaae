import Pickup
import PickupCommandLine
import PickupImport

/// Rows for library items: `pickup import` and `pickup library list` share them.
enum ItemTable {
    /// `pickup import`'s table: a SOURCE column too, since two sources of the same bytes share one
    /// stored copy (the second is "already there") and their rows would otherwise read alike.
    static func importHeader(storedWidth: Int) -> String {
        headerRow(note: "STATUS", storedWidth: storedWidth) + "  SOURCE\n"
    }

    /// The header; `storedWidth`: the STORED AS column's width when a SOURCE column follows it.
    static func headerRow(note: String, storedWidth: Int? = nil) -> String {
        Text.pad("ITEM", 13) + Text.pad("KIND", 11) + Text.pad("TIME", 8) + Text.pad("SIZE", 9) + Text.pad(note, 18)
            + (storedWidth.map { Text.pad("STORED AS", $0) } ?? "STORED AS\n")
    }

    /// `pickup library list`'s header: a TAKEN column before the import date.
    static func listHeader() -> String {
        Text.pad("ITEM", 13) + Text.pad("KIND", 11) + Text.pad("TIME", 8) + Text.pad("SIZE", 9) + Text.pad("TAKEN", 27)
            + Text.pad("IMPORTED (UTC)", 18) + "STORED AS\n"
    }

    /// A `pickup library list` row: the item, when it was taken and when it was imported.
    static func listRow(_ item: ImportedItem, imported: String) -> String {
        leadingCells(item) + Text.pad(ProbeTable.taken(item.info.creationDate), 27) + Text.pad(imported, 18)
            + storedNames(item) + "\n"
    }

    /// The stored names of an item as the STORED AS column shows them.
    static func storedNames(_ item: ImportedItem) -> String { item.files.map(\.name).joined(separator: " + ") }

    /// An import row: the item, then the file it came from.
    static func importRow(_ item: ImportedItem, note: String, source: String, storedWidth: Int) -> String {
        var row = row(item, note: note)
        row.removeLast()
        return Text.pad(row, Text.columns(row) - Text.columns(storedNames(item)) + storedWidth) + "  "
            + Text.clean(source) + "\n"
    }

    static func row(_ item: ImportedItem, note: String) -> String {
        leadingCells(item) + Text.pad(note, 18) + storedNames(item) + "\n"
    }

    /// The bytes an item's stored files hold.
    static func bytes(_ item: ImportedItem) -> Int64 { item.files.reduce(0) { $0 + $1.size } }

    /// The item's id, kind, duration and size, padded to their columns.
    private static func leadingCells(_ item: ImportedItem) -> String {
        var kind = item.kind.rawValue
        if item.isLivePhoto { kind = "live photo" }
        let size = bytes(item)
        // A Live Photo's time is its movie's.
        let duration = item.info.duration ?? item.files.first { $0.role == .livePhotoMovie }?.duration
        let time = duration.map { DurationLabel.string(seconds: $0) } ?? "-"
        return Text.pad(item.id, 13) + Text.pad(kind, 11) + Text.pad(time, 8) + Text.pad(Text.byteCount(size), 9)
    }
}

/// The JSON object of a library item: `{"type": "item", "status", "path", "id", ...}`, the same
/// keys in `pickup import` and `pickup library` (null for what does not apply).
enum ItemJSON {
    /// `status`: what the command did with it (imported, alreadyThere, restored, removed; null
    /// when it only lists it); `path`: the file it was imported from, on this run.
    static func object(_ item: ImportedItem, status: String? = nil, path: String? = nil) -> JSONObject {
        var object = JSONObject()
        object.add("type", "item")
        object.add("status", status)
        object.add("path", path)
        object.add("id", item.id)
        object.add("kind", item.kind.rawValue)
        object.add("livePhoto", item.isLivePhoto)
        object.add("originalName", item.originalName)
        object.add("originalPath", item.originalPath)
        object.add("importedAt", MediaDate(utcSecondsSince1970: Int(item.importedAt.rounded(.down))).iso8601)
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
        var thumbnail: JSONObject?
        if let made = item.thumbnail {
            var entry = JSONObject()
            entry.add("name", made.name)
            entry.add("width", Int64(made.width))
            entry.add("height", Int64(made.height))
            thumbnail = entry
        }
        object.add("thumbnail", object: thumbnail)
        var info = JSONObject()
        info.addFacts(of: item.info)
        object.add("info", object: info)
        return object
    }
}
