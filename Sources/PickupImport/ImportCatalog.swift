import Foundation
import Pickup
import PickupStore

/// The catalog of a destination folder: which items it holds, where they
/// came from, their files, hashes and facts. SQLite in WAL mode at
/// `DEST/.pickup/catalog.sqlite`; an actor owns the connection.
public actor ImportCatalog {
    let database: SQLiteDatabase
    /// Statements prepared once per connection, by their SQL (each reset after use, so that
    /// none holds a read snapshot open).
    private var prepared: [String: SQLiteStatement] = [:]
    /// Items' facts decoded from their JSON, by that JSON (at most 50,000, then begun again).
    private var decodedInfos: [String: MediaInfo] = [:]
    /// How many decoded facts `decodedInfos` keeps at most.
    static let decodedLimit = 50_000
    /// The library folder the catalog describes.
    public let folder: String
    /// Whether the catalog keeps each source's resolved path (`files.source_path`): every
    /// catalog this version opens to write; an older one opened only to read may not.
    private let hasSourcePath: Bool
    /// Whether files have their `duration` column (version 4; an older catalog opened only to
    /// read may not).
    let hasDuration: Bool
    /// Whether its items have the column of Live Photo content identifiers (version 6; a
    /// catalog of an earlier version opened only to read does not).
    let hasContentID: Bool

    /// Opens (or creates) the catalog of the destination `folder`. A `readOnly` catalog
    /// (for listing and showing) creates and changes nothing, and opens where the library
    /// may only be read: another user's, or on a read-only mount.
    public init(folder: String, readOnly: Bool = false) throws(ImportError) {
        self.folder = folder
        let hidden = folder + "/.pickup"
        let path = hidden + "/catalog.sqlite"
        if readOnly {
            guard access(path, F_OK) == 0 else {
                guard access(folder, F_OK) == 0 else {
                    throw ImportError(
                        .catalog, "no such folder", path: folder,
                        hint: "Check the library folder's path (the one 'pickup import --into' was given).")
                }
                throw ImportError(
                    .catalog, "not a Pickup library (no .pickup/catalog.sqlite)", path: folder,
                    hint: "Import into it first, or name the library folder.")
            }
        } else if mkdir(hidden, 0o755) != 0, errno != EEXIST {
            throw ImportError.writing(hidden, errno: errno)
        }
        do {
            let database = try SQLiteDatabase(path: path, readOnly: readOnly, owner: ImportCatalog.schema)
            self.database = database
            if !readOnly {
                try ImportCatalog.schema.migrate(database)
            }
            hasSourcePath = try ImportCatalog.hasColumn("source_path", in: "files", of: database)
            hasDuration = try ImportCatalog.hasColumn("duration", in: "files", of: database)
            hasContentID = try ImportCatalog.hasColumn("content_id", in: "items", of: database)
        } catch {
            throw ImportCatalog.explain(error, opening: true, path: path)
        }
    }

    /// A catalog failure, told by its cause: a full disk, a refused permission, a busy or a
    /// damaged database are different problems with different remedies.
    static func explain(_ error: any Error, opening: Bool, path: String) -> ImportError {
        let explained = SQLiteError.explain(
            error, store: "the catalog", doing: opening ? "cannot open the catalog" : nil, folder: "the library folder",
            whenDamaged:
                "Run 'pickup library DIR verify' to see which files are intact; restore the catalog from a backup.",
            whenForeign:
                "This folder is not a Pickup library: name another folder (the one named was left as it is).")
        let code: ImportError.Code
        switch explained.kind {
        case .full: code = .destinationFull
        case .readOnly, .permission, .cannotOpen: code = .destinationUnwritable
        case .busy, .damaged, .foreign, .other: code = .catalog
        }
        return ImportError(code, explained.message, path: path, hint: explained.hint)
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
        let values: [SQLiteValue] = [.text(source.path), .integer(source.size), .integer(source.modified)]
        let id = try catalogCall { () throws -> String? in
            // By the resolved path; in rows made before it was kept, by the path as given.
            for query in hasSourcePath ? [Query.itemFromSource, Query.itemFromGivenPath] : [Query.itemFromGivenPath] {
                let found = try withStatement(query) { statement in
                    try statement.bind(values)
                    return try statement.step() ? statement.text(0) : nil
                }
                if let found { return found }
            }
            return nil
        }
        guard let id, let item = try item(exactID: id), filesIntact(item) else { return nil }
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
            try withStatement(Query.knowsStoredName) { statement in
                try statement.bind([.text(name)])
                return try statement.step()
            }
        }
    }

    /// The item whose primary file has this content, as the catalog records it, whether or not
    /// its files are still intact (to restore them).
    public func recordedItem(withSHA256 hash: String) throws(ImportError) -> ImportedItem? {
        try item(found: Query.itemWithSHA256, by: hash)
    }

    /// Records a new item whose files are already in place, in one transaction —
    /// unless an item with the same content is already there (whose files all
    /// exist): then nothing is written and that item is returned. The check and
    /// the insert are one immediate transaction, holding the write lock, so two
    /// imports (two processes, too) of the same content at once cannot both record
    /// it. `syncing` false: the commit does not wait for the disk; the caller
    /// flushes the file system before it counts on the record (`FlushRounds`).
    public func record(
        _ item: ImportedItem, sources: [StoredFile.Role: SourceKey], syncing: Bool = true
    ) throws(ImportError) -> ImportedItem? {
        try record([(item, sources)], syncing: syncing).first ?? nil
    }

    /// Records many items at once, in one transaction, without the checks `record` makes (for
    /// a catalog built in code: tests and benchmarks).
    func recordAll(_ entries: [(ImportedItem, [StoredFile.Role: SourceKey])]) throws(ImportError) {
        let encoder = JSONEncoder()
        try catalogCall {
            try database.transaction {
                for (item, sources) in entries {
                    let infoJSON = String(decoding: try encoder.encode(item.info), as: UTF8.self)
                    try insert(item, sources: sources, infoJSON: infoJSON)
                }
            }
        }
    }

    /// Writes an item's rows (replacing an item of the same id), inside the caller's transaction.
    func insert(
        _ item: ImportedItem, sources: [StoredFile.Role: SourceKey], infoJSON: String
    ) throws {
        try withStatement("DELETE FROM items WHERE id = ?1") { try $0.run([.text(item.id)]) }
        try withStatement(
            """
            INSERT INTO items (id, kind, original_name, original_path, imported_at, info, content_id)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """
        ) {
            try $0.run([
                .text(item.id), .text(item.kind.rawValue), .text(item.originalName), .text(item.originalPath),
                .real(item.importedAt), .text(infoJSON), item.info.contentIdentifier.map { .text($0) } ?? .null,
            ])
        }
        try insertFiles(item.files, of: item.id, sources: sources)
    }

    /// Records `files` as item `id`'s, each with where it came from.
    func insertFiles(_ files: [StoredFile], of id: String, sources: [StoredFile.Role: SourceKey]) throws {
        try withStatement(
            """
            INSERT INTO files (item_id, role, stored_name, original_path, size, sha256, source_size, source_modified, method,
                source_path, duration)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
            """
        ) { insertFile in
            for file in files {
                let source = sources[file.role]
                // A source path that now holds other bytes is no longer another item's source.
                if let source {
                    try withStatement(Query.forgetSource) { try $0.run([.text(source.path), .text(id)]) }
                }
                try insertFile.run([
                    .text(id), .text(file.role.rawValue), .text(file.name), .text(file.originalPath),
                    .integer(file.size), .text(file.sha256), .integer(source?.size ?? -1),
                    .integer(source?.modified ?? -1), file.method.map { .text($0.rawValue) } ?? .null,
                    source.map { .text($0.path) } ?? .null, file.duration.map { .real($0) } ?? .null,
                ])
            }
        }
    }

    /// Every item, oldest import first: one query, whatever the library's size.
    public func items() throws(ImportError) -> [ImportedItem] {
        try catalogCall {
            try withStatement(Query.allItems(duration: hasDuration)) { statement in
                try statement.bind([])
                return try readItems(statement)
            }
        }
    }

    /// Items from the rows of a `Query.itemColumns` query: an item's rows one after another,
    /// one for each of its files.
    func readItems(_ statement: SQLiteStatement, caching: Bool = true) throws -> [ImportedItem] {
        var result: [ImportedItem] = []
        var infos: [String?] = []
        while try statement.step() {
            guard let id = statement.text("id") else { continue }
            if let last = result.last, last.id == id {
                if let file = ImportCatalog.file(statement) { result[result.count - 1].files.append(file) }
                continue
            }
            let kind = MediaKind(rawValue: statement.text("kind") ?? "") ?? .image
            var thumbnail: ItemThumbnail?
            if let name = statement.text("thumbnail_name") {
                thumbnail = ItemThumbnail(
                    name: name, width: Int(statement.integer("thumbnail_width")),
                    height: Int(statement.integer("thumbnail_height")))
            }
            infos.append(statement.text("info"))
            result.append(
                ImportedItem(
                    id: id, kind: kind, originalName: statement.text("original_name") ?? "",
                    originalPath: statement.text("original_path") ?? "",
                    importedAt: statement.real("imported_at"), files: ImportCatalog.file(statement).map { [$0] } ?? [],
                    info: MediaInfo(kind: kind, container: .mp4, fileSize: 0), thumbnail: thumbnail))
        }
        // Each text decoded once: the same item read twice in a run (planned, then imported) costs
        // one decoding. A text always gives the same facts, so this never goes stale. A page, or
        // a read of more items than the cache holds (a whole large library listed), is decoded
        // and not kept: keeping it would hash every text twice and hold them, for no later read.
        var missing: [Int] = []
        for index in result.indices {
            guard let text = infos[index] else { continue }
            if !decodedInfos.isEmpty, let info = decodedInfos[text] {
                result[index].info = info
            } else {
                missing.append(index)
            }
        }
        let decoded = ImportCatalog.decode(missing.map { infos[$0] })
        let keeping = caching && missing.count <= ImportCatalog.decodedLimit
        if keeping && decodedInfos.count + missing.count > ImportCatalog.decodedLimit { decodedInfos = [:] }
        for (position, index) in missing.enumerated() {
            guard let info = decoded[position] else { continue }
            result[index].info = info
            if keeping, let text = infos[index] { decodedInfos[text] = info }
        }
        return result
    }

    /// Removes an item: its row first (so the catalog never names a missing file), then its files.
    /// Every name is checked first: a catalog that names a file outside the library (`../x`,
    /// `a/b`) is refused, and nothing is removed.
    public func remove(id: String) throws(ImportError) -> ImportedItem? {
        // Read and deleted under one write lock: an item another process changed in between (a
        // Live Photo that took a video item's file over as its movie) is never removed as it was
        // read, nor a file of another item unlinked.
        let removed = try catalogCall { () throws -> ImportedItem? in
            try database.transaction { () throws -> ImportedItem? in
                guard let item = try self.item(id: id) else { return nil }
                for file in item.files { try ImportCatalog.checkName(file.name) }
                if let thumbnail = item.thumbnail { try ImportCatalog.checkName(thumbnail.name, thumbnail: true) }
                try database.prepare("DELETE FROM items WHERE id = ?1").run([.text(item.id)])
                return item
            }
        }
        guard let item = removed else { return nil }
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
            try withStatement(
                "INSERT OR REPLACE INTO thumbnails (item_id, name, width, height) VALUES (?1, ?2, ?3, ?4)"
            ) {
                try $0.run([
                    .text(id), .text(thumbnail.name), .integer(Int64(thumbnail.width)),
                    .integer(Int64(thumbnail.height)),
                ])
            }
        }
    }

    /// Whether every stored file of the item is there with its recorded size (a cheap check;
    /// `LibraryVerifier` reads the bytes).
    func filesIntact(_ item: ImportedItem) -> Bool { item.files.allSatisfy(fileIntact) }

    /// Whether a stored file is there under its name, with its recorded size.
    func fileIntact(_ file: StoredFile) -> Bool {
        (try? ImportCatalog.checkName(file.name)) != nil
            && FileStatus(path: folder + "/" + file.name).map { $0.kind == .regular && $0.size == file.size } ?? false
    }

    /// Runs `body` with the statement for `sql` (prepared on first use, then kept), and resets
    /// it after: a statement left mid-way would keep an old snapshot of the catalog.
    func withStatement<T>(_ sql: String, _ body: (SQLiteStatement) throws -> T) throws -> T {
        let statement: SQLiteStatement
        if let kept = prepared[sql] {
            statement = kept
        } else {
            statement = try database.prepare(sql)
            prepared[sql] = statement
        }
        defer { statement.reset() }
        return try body(statement)
    }

    /// How SQLite runs each of the catalog's queries (`EXPLAIN QUERY PLAN`), one line a step.
    func queryPlans() throws -> [String: [String]] {
        try database.queryPlans(Query.all)
    }

    func catalogCall<T>(_ body: () throws -> T) throws(ImportError) -> T {
        try SQLiteDatabase.mapping(body) { error in
            ImportCatalog.explain(error, opening: false, path: folder + "/.pickup/catalog.sqlite")
        }
    }
}

extension ImportCatalog {
    /// The item already imported from the file at `path` (the same file: its resolved path, size
    /// and modification time), if any: what importing it again would reuse without reading it.
    public func item(importedFrom path: String) throws(ImportError) -> ImportedItem? {
        try item(from: try ImportSession.sourceKey(path))
    }

    /// Whether the catalog records any item at all (a new library's does not: nothing to look up).
    func holdsItems() throws(ImportError) -> Bool {
        try catalogCall {
            try withStatement(Query.holdsItems) { statement in
                try statement.bind([])
                return try statement.step()
            }
        }
    }

    /// The items already imported from these sources (each as `item(from:)` finds it), by
    /// position: one call for a whole run.
    func items(from sources: [SourceKey?]) throws(ImportError) -> [Int: ImportedItem] {
        try reading { () throws(ImportError) -> [Int: ImportedItem] in
            var found: [Int: ImportedItem] = [:]
            for (index, source) in sources.enumerated() {
                if let source, let item = try item(from: source) { found[index] = item }
            }
            return found
        }
    }

    /// Runs `body`'s reads in one read transaction: one lock and one snapshot for a whole
    /// run's lookups, not one a query.
    func reading<T>(_ body: () throws(ImportError) -> T) throws(ImportError) -> T {
        try catalogCall { try database.execute("BEGIN") }
        do {
            let result = try body()
            try catalogCall { try database.execute("COMMIT") }
            return result
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// The items already imported from these files (each as `item(importedFrom:)` finds it),
    /// by path: one call for a whole run. Files that cannot be read are left out.
    public func items(importedFrom paths: [String]) throws(ImportError) -> [String: ImportedItem] {
        try items(importedFrom: paths, resolved: nil)
    }

    /// As `items(importedFrom:)`; `resolved`: each path with its links resolved, when the caller
    /// looked them up already (a scan does, to leave the library's own files out).
    func items(importedFrom paths: [String], resolved: [String?]?) throws(ImportError) -> [String: ImportedItem] {
        guard try holdsItems() else { return [:] }
        let keys = paths.indices.map { index in
            try? ImportSession.sourceKey(paths[index], resolved: resolved?[index])
        }
        var found: [String: ImportedItem] = [:]
        for (index, item) in try items(from: keys) { found[paths[index]] = item }
        return found
    }
}
