import Foundation
import Pickup
import PickupStore

/// The catalog of a destination folder: which items it holds, where they
/// came from, their files, hashes and facts. SQLite in WAL mode at
/// `DEST/.pickup/catalog.sqlite`; an actor owns the connection.
public actor ImportCatalog {
    private let database: SQLiteDatabase
    /// The library folder the catalog describes.
    public let folder: String

    static let schema = """
        CREATE TABLE IF NOT EXISTS items (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            original_name TEXT NOT NULL,
            original_path TEXT NOT NULL,
            imported_at REAL NOT NULL,
            info TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS files (
            item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
            role TEXT NOT NULL,
            stored_name TEXT NOT NULL UNIQUE,
            original_path TEXT NOT NULL,
            size INTEGER NOT NULL,
            sha256 TEXT NOT NULL,
            source_size INTEGER NOT NULL,
            source_modified INTEGER NOT NULL,
            method TEXT,
            PRIMARY KEY (item_id, role)
        );
        CREATE TABLE IF NOT EXISTS thumbnails (
            item_id TEXT PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS files_by_hash ON files(sha256);
        CREATE INDEX IF NOT EXISTS files_by_source ON files(original_path, source_size, source_modified);
        PRAGMA user_version = 1;
        """

    /// Opens (or creates) the catalog of the destination `folder`. A `readOnly` catalog
    /// (for listing and showing) creates and changes nothing, and opens where the library
    /// may only be read: another user's, or on a read-only mount.
    public init(folder: String, readOnly: Bool = false) throws(ImportError) {
        self.folder = folder
        let hidden = folder + "/.pickup"
        let path = hidden + "/catalog.sqlite"
        if readOnly {
            guard access(path, F_OK) == 0 else {
                throw ImportError(
                    .catalog, "\(folder) is not a Pickup library (no .pickup/catalog.sqlite)", path: folder,
                    hint: "Import into it first, or name the library folder.")
            }
        } else if mkdir(hidden, 0o755) != 0, errno != EEXIST {
            throw ImportError.writing(hidden, errno: errno)
        }
        do {
            database = try SQLiteDatabase(path: path, readOnly: readOnly)
            if !readOnly {
                try database.execute(ImportCatalog.schema)
                // How each file was stored (added to catalogs made before).
                try database.addColumnIfMissing("method", "TEXT", to: "files")
            }
        } catch {
            throw ImportCatalog.explain(error, opening: true, path: path)
        }
    }

    /// A catalog failure, told by its cause: a full disk, a refused permission, a busy or a
    /// damaged database are different problems with different remedies.
    static func explain(_ error: any Error, opening: Bool, path: String) -> ImportError {
        guard let error = error as? SQLiteError else {
            return ImportError(.catalog, "the catalog failed: \(error)", path: path)
        }
        let doing = opening ? "cannot open the catalog" : "the catalog failed"
        switch error.kind {
        case .full:
            return ImportError(.destinationFull, "\(doing): the disk is full", path: path)
        case .readOnly, .permission:
            return ImportError(
                .destinationUnwritable, "\(doing): it may not be written (\(error.message))", path: path,
                hint: "Check the library folder's permissions and that its disk is not mounted read-only.")
        case .cannotOpen:
            return ImportError(
                .destinationUnwritable, "\(doing): it cannot be opened (\(error.message))", path: path,
                hint: "Check that the library folder exists and that you may read it.")
        case .busy:
            return ImportError(
                .catalog, "\(doing): another process kept it busy for 10 seconds", path: path,
                hint: "Wait for the other 'pickup' on this library to finish, then try again.")
        case .damaged:
            return ImportError(
                .catalog, "\(doing): the database is damaged (\(error.message))", path: path,
                hint:
                    "Run 'pickup library DIR verify' to see which files are intact; restore the catalog from a backup.")
        case .other:
            return ImportError(.catalog, "\(doing): \(error)", path: path)
        }
    }

    /// Where a source file came from, to recognise it when it is picked again.
    public struct SourceKey: Sendable, Hashable {
        /// The source file's path when it was imported.
        public var path: String
        /// Its size in bytes.
        public var size: Int64
        /// Its modification time, in nanoseconds since 1970.
        public var modified: Int64
    }

    /// The item already imported from this very source file (same path, size and
    /// modification time) whose stored files are all still there.
    public func item(from source: SourceKey) throws(ImportError) -> ImportedItem? {
        let id = try catalogCall {
            let statement = try database.prepare(
                "SELECT item_id FROM files WHERE original_path = ?1 AND source_size = ?2 AND source_modified = ?3 AND role = 'primary'"
            )
            try statement.bind([.text(source.path), .integer(source.size), .integer(source.modified)])
            return try statement.step() ? statement.text(0) : nil
        }
        guard let id, let item = try item(id: id), filesIntact(item) else { return nil }
        return item
    }

    /// The item whose primary file has this content, if its files are still there.
    public func item(withSHA256 hash: String) throws(ImportError) -> ImportedItem? {
        guard let item = try recordedItem(withSHA256: hash), filesIntact(item) else { return nil }
        return item
    }

    /// Whether a stored file of some item has this name.
    public func knows(storedName name: String) throws(ImportError) -> Bool {
        try catalogCall {
            let statement = try database.prepare("SELECT 1 FROM files WHERE stored_name = ?1")
            try statement.bind([.text(name)])
            return try statement.step()
        }
    }

    /// The item whose primary file has this content, as the catalog records it, whether or not
    /// its files are still intact (to restore them).
    public func recordedItem(withSHA256 hash: String) throws(ImportError) -> ImportedItem? {
        let id = try catalogCall {
            let statement = try database.prepare("SELECT item_id FROM files WHERE sha256 = ?1 AND role = 'primary'")
            try statement.bind([.text(hash)])
            return try statement.step() ? statement.text(0) : nil
        }
        guard let id else { return nil }
        return try item(id: id)
    }

    /// Records a new item whose files are already in place, in one transaction —
    /// unless an item with the same content is already there (whose files all
    /// exist): then nothing is written and that item is returned. The check and
    /// the insert happen in one call on this actor, so two imports of the same
    /// content at once cannot both record it.
    public func record(_ item: ImportedItem, sources: [StoredFile.Role: SourceKey]) throws(ImportError) -> ImportedItem?
    {
        for file in item.files { try ImportCatalog.checkName(file.name) }
        let infoJSON = String(decoding: (try? JSONEncoder().encode(item.info)) ?? Data("{}".utf8), as: UTF8.self)
        // The check and the insert are one immediate transaction: it holds the write lock, so
        // two processes importing the same content at once cannot both record it.
        return try catalogCall { () throws -> ImportedItem? in
            try database.transaction { () throws -> ImportedItem? in
                if let primary = item.primary, let existing = try self.item(withSHA256: primary.sha256) {
                    return existing
                }
                try database.prepare("DELETE FROM items WHERE id = ?1").run([.text(item.id)])
                try database.prepare(
                    "INSERT INTO items (id, kind, original_name, original_path, imported_at, info) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
                ).run([
                    .text(item.id), .text(item.kind.rawValue), .text(item.originalName), .text(item.originalPath),
                    .real(item.importedAt), .text(infoJSON),
                ])
                let insertFile = try database.prepare(
                    """
                    INSERT INTO files (item_id, role, stored_name, original_path, size, sha256, source_size, source_modified, method)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                    """)
                for file in item.files {
                    let source = sources[file.role]
                    try insertFile.run([
                        .text(item.id), .text(file.role.rawValue), .text(file.name), .text(file.originalPath),
                        .integer(file.size), .text(file.sha256), .integer(source?.size ?? -1),
                        .integer(source?.modified ?? -1), file.method.map { .text($0.rawValue) } ?? .null,
                    ])
                }
                return nil
            }
        }
    }

    /// Every item, oldest import first.
    public func items() throws(ImportError) -> [ImportedItem] {
        let ids = try catalogCall {
            let statement = try database.prepare("SELECT id FROM items ORDER BY imported_at, id")
            var ids: [String] = []
            while try statement.step() { if let id = statement.text(0) { ids.append(id) } }
            return ids
        }
        var result: [ImportedItem] = []
        for id in ids { if let item = try item(id: id) { result.append(item) } }
        return result
    }

    /// The item with this identifier (or a unique prefix of it).
    public func item(id: String) throws(ImportError) -> ImportedItem? {
        try catalogCall {
            let statement = try database.prepare(
                // A prefix compared as text: the user's words never become a LIKE pattern.
                "SELECT id, kind, original_name, original_path, imported_at, info FROM items WHERE substr(id, 1, length(?1)) = ?1 LIMIT 2"
            )
            guard !id.isEmpty else { return nil }
            try statement.bind([.text(id)])
            guard try statement.step(), let found = statement.text(0) else { return nil }
            let kind = MediaKind(rawValue: statement.text(1) ?? "") ?? .image
            let name = statement.text(2) ?? ""
            let path = statement.text(3) ?? ""
            let importedAt = statement.real(4)
            let info =
                (statement.text(5)?.data(using: .utf8)).flatMap { try? JSONDecoder().decode(MediaInfo.self, from: $0) }
                ?? MediaInfo(kind: kind, container: .mp4, fileSize: 0)
            if try statement.step() { return nil }  // ambiguous prefix
            let files = try database.prepare(
                "SELECT role, stored_name, original_path, size, sha256, method FROM files WHERE item_id = ?1 ORDER BY role DESC"
            )
            try files.bind([.text(found)])
            var stored: [StoredFile] = []
            while try files.step() {
                stored.append(
                    StoredFile(
                        role: StoredFile.Role(rawValue: files.text(0) ?? "") ?? .primary, name: files.text(1) ?? "",
                        originalPath: files.text(2) ?? "", size: files.integer(3), sha256: files.text(4) ?? "",
                        method: files.text(5).flatMap(CopyMethod.init(rawValue:))))
            }
            let thumbnails = try database.prepare("SELECT name, width, height FROM thumbnails WHERE item_id = ?1")
            try thumbnails.bind([.text(found)])
            var thumbnail: ItemThumbnail?
            if try thumbnails.step(), let file = thumbnails.text(0) {
                thumbnail = ItemThumbnail(
                    name: file, width: Int(thumbnails.integer(1)), height: Int(thumbnails.integer(2)))
            }
            return ImportedItem(
                id: found, kind: kind, originalName: name, originalPath: path, importedAt: importedAt, files: stored,
                info: info, thumbnail: thumbnail)
        }
    }

    /// Removes an item: its row first (so the catalog never names a missing file), then its files.
    /// Every name is checked first: a catalog that names a file outside the library (`../x`,
    /// `a/b`) is refused, and nothing is removed.
    public func remove(id: String) throws(ImportError) -> ImportedItem? {
        guard let item = try item(id: id) else { return nil }
        for file in item.files { try ImportCatalog.checkName(file.name) }
        if let thumbnail = item.thumbnail { try ImportCatalog.checkName(thumbnail.name, thumbnail: true) }
        try catalogCall {
            try database.prepare("DELETE FROM items WHERE id = ?1").run([.text(item.id)])
        }
        for file in item.files { unlink(folder + "/" + file.name) }
        if let thumbnail = item.thumbnail { unlink(folder + "/" + thumbnail.name) }
        return item
    }

    /// Throws unless `name` names a file directly in the library (or, for a thumbnail, directly
    /// in `.pickup/thumbnails/`): no `/`, not empty, not `.` or `..`, no NUL.
    /// A stored name without the date layout's folder in front (`2024/05/`, `undated/`); the name
    /// itself when it has none. Any other folder stays, and `checkName` refuses it.
    static func withoutLayoutFolder(_ name: String) -> String {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        func digits(_ part: Substring, _ count: Int) -> Bool {
            part.count == count && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
        }
        if parts.count == 3, digits(parts[0], 4), digits(parts[1], 2) { return String(parts[2]) }
        if parts.count == 2, parts[0] == "undated" { return String(parts[1]) }
        return name
    }

    static func checkName(_ name: String, thumbnail: Bool = false) throws(ImportError) {
        let prefix = ".pickup/thumbnails/"
        var plain = thumbnail ? (name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : "") : name
        // A date layout's folders, and only those: `YYYY/MM/` or `undated/` (`ImportLayout.date`).
        if !thumbnail { plain = ImportCatalog.withoutLayoutFolder(plain) }
        guard !plain.isEmpty, plain != ".", plain != "..", !plain.contains("/"), !plain.contains("\0") else {
            throw ImportError(
                .catalog, "the catalog names a file outside the library: \(name.debugDescription)", path: nil,
                hint: "The catalog was changed by something other than Pickup; nothing was touched. "
                    + "Restore it from a backup.")
        }
    }

    /// Records an item's thumbnail (replacing an older one).
    public func record(thumbnail: ItemThumbnail, for id: String) throws(ImportError) {
        try catalogCall {
            try database.prepare(
                "INSERT OR REPLACE INTO thumbnails (item_id, name, width, height) VALUES (?1, ?2, ?3, ?4)"
            ).run([
                .text(id), .text(thumbnail.name), .integer(Int64(thumbnail.width)), .integer(Int64(thumbnail.height)),
            ])
        }
    }

    /// Whether every stored file of the item is there with its recorded size (a cheap check;
    /// `LibraryVerifier` reads the bytes).
    private func filesIntact(_ item: ImportedItem) -> Bool {
        item.files.allSatisfy { file in
            (try? ImportCatalog.checkName(file.name)) != nil
                && FileStatus(path: folder + "/" + file.name).map { $0.kind == .regular && $0.size == file.size }
                    ?? false
        }
    }

    private func catalogCall<T>(_ body: () throws -> T) throws(ImportError) -> T {
        do {
            return try body()
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportCatalog.explain(error, opening: false, path: folder + "/.pickup/catalog.sqlite")
        }
    }
}

extension ImportCatalog {
    /// The item already imported from the file at `path` (the same file: its resolved path, size
    /// and modification time), if any: what importing it again would reuse without reading it.
    public func item(importedFrom path: String) throws(ImportError) -> ImportedItem? {
        try item(from: try ImportSession.sourceKey(path))
    }
}
