import Foundation
import Pickup
import PickupStore

/// The catalog's tables, its queries, and how a row becomes an item.
extension ImportCatalog {
    /// The catalog's tables, version by version.
    static let schema = SQLiteSchema(
        store: "the library's catalog",
        steps: [
            SQLiteSchema.Step(
                version: 1,
                [
                    """
                    CREATE TABLE IF NOT EXISTS items (
                        id TEXT PRIMARY KEY, kind TEXT NOT NULL, original_name TEXT NOT NULL,
                        original_path TEXT NOT NULL, imported_at REAL NOT NULL, info TEXT NOT NULL
                    )
                    """,
                    """
                    CREATE TABLE IF NOT EXISTS files (
                        item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
                        role TEXT NOT NULL, stored_name TEXT NOT NULL UNIQUE, original_path TEXT NOT NULL,
                        size INTEGER NOT NULL, sha256 TEXT NOT NULL, source_size INTEGER NOT NULL,
                        source_modified INTEGER NOT NULL, method TEXT,
                        PRIMARY KEY (item_id, role)
                    )
                    """,
                    """
                    CREATE TABLE IF NOT EXISTS thumbnails (
                        item_id TEXT PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
                        name TEXT NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL
                    )
                    """,
                    "CREATE INDEX IF NOT EXISTS files_by_hash ON files(sha256)",
                    "CREATE INDEX IF NOT EXISTS files_by_source ON files(original_path, source_size, source_modified)",
                    "CREATE INDEX IF NOT EXISTS items_by_import ON items(imported_at, id)",
                ]),
            // Catalogs of version 1 got these before versions were counted: each is added where
            // missing. How each file was stored; where its source was, resolved
            // (`SourceKey.path`): what recognises the file when it is picked again by another
            // spelling of its path.
            SQLiteSchema.Step(
                version: 2,
                // Indexes of version 1 that catalogs made before them lack (they kept version 1).
                [
                    "CREATE INDEX IF NOT EXISTS files_by_hash ON files(sha256)",
                    "CREATE INDEX IF NOT EXISTS files_by_source ON files(original_path, source_size, source_modified)",
                    "CREATE INDEX IF NOT EXISTS items_by_import ON items(imported_at, id)",
                ],
                columns: [("files", "method", "TEXT"), ("files", "source_path", "TEXT")]),
            SQLiteSchema.Step(
                version: 3,
                [
                    "CREATE INDEX IF NOT EXISTS files_by_source_path ON files(source_path, source_size, source_modified)"
                ]),
            // How long a video or a Live Photo's movie plays (the list's TIME for a Live Photo).
            SQLiteSchema.Step(version: 4, [], columns: [("files", "duration", "REAL")]),
            // A Live Photo's content identifier (the still's and the movie's): a movie picked
            // alone finds the still imported alone before. Filled from the facts of items made
            // before it (a text that is not JSON gives none).
            SQLiteSchema.Step(version: 5, [], columns: [("items", "content_id", "TEXT")]),
            SQLiteSchema.Step(
                version: 6,
                [
                    """
                    UPDATE items SET content_id = CASE WHEN json_valid(info) THEN json_extract(info, '$.contentIdentifier') END
                    WHERE content_id IS NULL
                    """,
                    "CREATE INDEX IF NOT EXISTS items_by_content_id ON items(content_id) WHERE content_id IS NOT NULL",
                ]),
        ])

    /// The catalog's queries. Each is served by an index: ids by the primary key (a prefix by a
    /// range on it), files by their item, stored name, hash or source, and the listing in the
    /// order of `items_by_import`.
    enum Query {
        /// An item's columns, then one of its files' and its thumbnail's, each read by its name;
        /// `duration`: whether the files have that column (a catalog of version 3, opened only to
        /// read, does not); `items`: the table or the subquery the items come from.
        static func itemColumns(duration: Bool, items: String = "items") -> String {
            """
            SELECT i.id, i.kind, i.original_name, i.original_path, i.imported_at, i.info,
                f.role, f.stored_name, f.original_path AS file_original_path, f.size, f.sha256, f.method,
                \(duration ? "f.duration" : "NULL AS duration"),
                t.name AS thumbnail_name, t.width AS thumbnail_width, t.height AS thumbnail_height
            FROM \(items) i LEFT JOIN files f ON f.item_id = i.id LEFT JOIN thumbnails t ON t.item_id = i.id
            """
        }
        static func allItems(duration: Bool) -> String {
            itemColumns(duration: duration) + " ORDER BY i.imported_at, i.id, f.role DESC"
        }
        /// Up to `?3` items after the item imported at `?1` with id `?2`, in the listing's order:
        /// a range on `items_by_import`, then each item's files.
        static func itemsPage(duration: Bool) -> String {
            let page = """
                (SELECT * FROM items WHERE (imported_at, id) > (?1, ?2) ORDER BY imported_at, id LIMIT ?3)
                """
            return itemColumns(duration: duration, items: page) + " ORDER BY i.imported_at, i.id, f.role DESC"
        }
        static func itemByID(duration: Bool) -> String {
            itemColumns(duration: duration) + " WHERE i.id = ?1 ORDER BY f.role DESC"
        }
        /// Up to `?3` ids from `?1` up to (not including) `?2`, the end of the range `?1` is a
        /// prefix of.
        static let idsWithPrefix = """
            SELECT id FROM items WHERE id >= ?1 AND id < ?2 AND substr(id, 1, length(?1)) = ?1 ORDER BY id LIMIT ?3
            """
        /// The same for a prefix of nothing but the last character (no end to its range; `?2` unused).
        static let idsFromPrefix = """
            SELECT id FROM items WHERE id >= ?1 AND substr(id, 1, length(?1)) = ?1 AND ?2 IS NULL ORDER BY id LIMIT ?3
            """
        static let itemFromSource = """
            SELECT item_id FROM files
            WHERE source_path = ?1 AND source_size = ?2 AND source_modified = ?3 AND role = 'primary'
            """
        /// The same for rows made before the resolved path was kept: by the path as given.
        static let itemFromGivenPath = """
            SELECT item_id FROM files
            WHERE original_path = ?1 AND source_size = ?2 AND source_modified = ?3 AND role = 'primary'
            """
        static let itemWithSHA256 = "SELECT item_id FROM files WHERE sha256 = ?1 AND role = 'primary'"
        /// The item with a file of this content, and that file's role: its primary file first,
        /// else another (a Live Photo's movie).
        static let itemWithFileSHA256 =
            "SELECT item_id, role FROM files WHERE sha256 = ?1 ORDER BY role != 'primary' LIMIT 1"
        static let knowsStoredName = "SELECT 1 FROM files WHERE stored_name = ?1"
        static let itemWithStoredName = "SELECT item_id FROM files WHERE stored_name = ?1 LIMIT 1"
        /// The Live Photos whose movie's SHA-256 starts with `?1` (up to, not including, `?2`):
        /// a range on `files_by_hash`.
        static let livePhotosWithMovieHash = """
            SELECT DISTINCT item_id FROM files
            WHERE sha256 >= ?1 AND sha256 < ?2 AND substr(sha256, 1, length(?1)) = ?1 AND role = 'livePhotoMovie'
            ORDER BY item_id LIMIT 2
            """
        /// The items with this Live Photo content identifier.
        static let itemsWithContentID = "SELECT id FROM items WHERE content_id = ?1 ORDER BY id LIMIT 8"
        /// The first id on the primary key: one row read, whatever the library's size.
        static let holdsItems = "SELECT 1 FROM items WHERE id >= '' LIMIT 1"
        /// A source path that now holds other bytes: no longer another item's source.
        static let forgetSource =
            "UPDATE files SET source_size = -1, source_modified = -1 WHERE source_path = ?1 AND item_id != ?2"

        static let all: [(name: String, sql: String)] = [
            ("allItems", allItems(duration: true)), ("itemsPage", itemsPage(duration: true)),
            ("itemByID", itemByID(duration: true)),
            ("idsWithPrefix", idsWithPrefix),
            ("idsFromPrefix", idsFromPrefix),
            ("itemFromSource", itemFromSource), ("itemFromGivenPath", itemFromGivenPath),
            ("itemWithSHA256", itemWithSHA256), ("itemWithFileSHA256", itemWithFileSHA256),
            ("itemsWithContentID", itemsWithContentID),
            ("knowsStoredName", knowsStoredName), ("itemWithStoredName", itemWithStoredName),
            ("livePhotosWithMovieHash", livePhotosWithMovieHash),
            ("forgetSource", forgetSource), ("holdsItems", holdsItems),
        ]
    }
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// The items' facts from their JSON (nil where it does not read), decoded on every core: for
    /// a listing of tens of thousands of items, decoding is most of the work.
    static func decode(_ texts: [String?]) -> [MediaInfo?] {
        // (Foundation reads the cgroup's files for the core count: asked once, and only for many.)
        let workers = texts.count < 1_000 ? 1 : max(1, min(ImportCatalog.cores, 8, texts.count / 500))
        guard workers > 1 else {
            let decoder = JSONDecoder()
            return texts.map { text in text.flatMap { try? decoder.decode(MediaInfo.self, from: Data($0.utf8)) } }
        }
        var infos = [MediaInfo?](repeating: nil, count: texts.count)
        infos.withUnsafeMutableBufferPointer { buffer in
            // Each worker writes only its own indices, and all are done when this returns.
            guard let address = buffer.baseAddress else { return }
            nonisolated(unsafe) let base = address
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let decoder = JSONDecoder()
                for index in stride(from: worker, to: texts.count, by: workers) {
                    guard let text = texts[index] else { continue }
                    base[index] = try? decoder.decode(MediaInfo.self, from: Data(text.utf8))
                }
            }
        }
        return infos
    }

    /// The stored file a row names, if it names one (an item may have none).
    static func file(_ statement: SQLiteStatement) -> StoredFile? {
        guard !statement.isNull("role") else { return nil }
        return StoredFile(
            role: StoredFile.Role(rawValue: statement.text("role") ?? "") ?? .primary,
            name: statement.text("stored_name") ?? "", originalPath: statement.text("file_original_path") ?? "",
            size: statement.integer("size"), sha256: statement.text("sha256") ?? "",
            method: statement.text("method").flatMap(CopyMethod.init(rawValue:)),
            duration: statement.isNull("duration") ? nil : statement.real("duration"))
    }

    /// Whether `table` has `column` (a catalog of an older version, opened only to read, may not).
    static func hasColumn(_ column: String, in table: String, of database: SQLiteDatabase) throws -> Bool {
        let info = try database.prepare("PRAGMA table_info(\(table))")
        while try info.step() { if info.text(1) == column { return true } }
        return false
    }
}
