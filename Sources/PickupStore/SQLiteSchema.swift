/// A store's tables as numbered steps, each run once, in order, and counted in the file's
/// `user_version` (GRDB's `DatabaseMigrator` is the model): opening a file made by an older
/// version runs the steps it lacks; a file made by a newer version is refused rather than
/// written with a schema this version does not know.
public struct SQLiteSchema: Sendable {
    /// One step: the version it brings the file to, and what it does.
    public struct Step: Sendable {
        /// The `user_version` the file has once the step has run.
        public var version: Int32
        /// Statements run in order, in one transaction with the version's change.
        public var statements: [String]
        /// Columns added to a table unless it has them (files made before versions were
        /// counted may have some already): `(table, column, definition)`.
        public var columns: [(table: String, column: String, definition: String)]

        /// A step to `version`: `statements`, then `columns` added where missing.
        public init(
            version: Int32, _ statements: [String] = [],
            columns: [(table: String, column: String, definition: String)] = []
        ) {
            self.version = version
            self.statements = statements
            self.columns = columns
        }
    }

    /// What the store is called in messages ("the upload journal", "the catalog").
    public let store: String
    /// The steps, oldest first.
    public let steps: [Step]

    /// A schema of `steps` (oldest first, versions rising) for the store named `store`.
    public init(store: String, steps: [Step]) {
        self.store = store
        self.steps = steps
    }

    /// The tables the steps make (`CREATE TABLE IF NOT EXISTS name`).
    var tables: Set<String> {
        var names: Set<String> = []
        for statement in steps.flatMap(\.statements) {
            let words = statement.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "(" })
            guard words.count > 2, words[0] == "CREATE", words[1] == "TABLE",
                let name = words.dropFirst(2).first(where: { !["IF", "NOT", "EXISTS"].contains($0) })
            else { continue }
            names.insert(String(name))
        }
        return names
    }

    /// The newest version: what every file has once migrated.
    public var version: Int32 { steps.last?.version ?? 0 }

    /// Brings `database` to the newest version: each step newer than the file's version runs,
    /// with the version's change, in one transaction (a step cut short leaves the file as it
    /// was; each step is also safe to run twice). A file newer than this schema is refused (`SQLiteError` naming the store).
    public func migrate(_ database: SQLiteDatabase) throws(SQLiteError) {
        let current = try checkOwned(database)
        guard current <= version else {
            throw SQLiteError(
                code: 1,
                message: "\(store) was made by a newer version of Pickup (schema \(current); this one knows "
                    + "\(version)); update Pickup to use it",
                action: "opening \(store)")
        }
        for step in steps where step.version > current {
            do {
                try database.transaction {
                    // Read again under the write lock: another process may have just run it.
                    guard try SQLiteSchema.version(of: database) < step.version else { return }
                    for statement in step.statements { try database.execute(statement) }
                    for added in step.columns {
                        try database.addColumnIfMissing(added.column, added.definition, to: added.table)
                    }
                    try database.execute("PRAGMA user_version = \(step.version)")
                }
            } catch let error as SQLiteError {
                throw error
            } catch {
                throw SQLiteError(code: 1, message: "\(error)", action: "migrating \(store) to \(step.version)")
            }
        }
    }

    /// The file's version, once it is known to be this store's or a new file. Another program's
    /// database, or another store's (the catalog named as the journal), is refused with a
    /// ``SQLiteError/Kind/foreign`` error before anything is written to it: a file with tables
    /// and version 0 (every version of each store has counted its own from 1), or with none of
    /// the tables this schema makes.
    @discardableResult
    public func checkOwned(_ database: SQLiteDatabase) throws(SQLiteError) -> Int32 {
        let current = try SQLiteSchema.version(of: database)
        let statement = try database.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        var tables: [String] = []
        while try statement.step() { tables.append(statement.text(0) ?? "?") }
        guard !tables.isEmpty, current == 0 || !tables.contains(where: self.tables.contains) else { return current }
        let shown = tables.prefix(3).joined(separator: ", ") + (tables.count > 3 ? ", …" : "")
        throw SQLiteError(
            code: 1, message: "it is another database (its tables: \(shown)), not \(store)",
            action: "opening \(store)", kind: .foreign)
    }

    /// The file's `user_version`.
    public static func version(of database: SQLiteDatabase) throws(SQLiteError) -> Int32 {
        let statement = try database.prepare("PRAGMA user_version")
        guard try statement.step() else { return 0 }
        return Int32(truncatingIfNeeded: statement.integer(0))
    }
}
