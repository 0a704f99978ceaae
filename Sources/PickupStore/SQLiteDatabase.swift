#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One SQLite connection, opened in WAL mode with foreign keys on.
///
/// Not `Sendable`: one owner per connection pointer, closed in `deinit`.
/// Every call is checked and turned into a thrown ``SQLiteError``.
public final class SQLiteDatabase {
    private var handle: OpaquePointer?
    /// How hard commits wait for the disk, as opened.
    private let durability: Durability

    /// How hard a commit waits for the disk.
    public enum Durability: String, Sendable {
        /// Every commit survives a power cut (the import catalog).
        case full = "FULL"
        /// Commits survive a crash of the process; a power cut may lose the last few (enough
        /// for a journal whose truth can be asked of the server again).
        case normal = "NORMAL"
    }

    /// Opens the database at `path`, creating it when `readOnly` is false. A read-only
    /// connection writes nothing, not even the WAL's index: where the folder cannot be
    /// written it reads the file as it is (SQLite's `immutable`). `owner`: the store's schema; a
    /// file that is another store's or program's database is refused before anything is written
    /// to it (`SQLiteSchema.checkOwned`), the WAL mode this connection sets included.
    public init(
        path: String, durability: Durability = .full, readOnly: Bool = false, owner: SQLiteSchema? = nil
    ) throws(SQLiteError) {
        self.durability = durability
        try SQLiteDatabase.checkIsDatabase(path)
        if readOnly {
            do {
                handle = try SQLiteDatabase.open(SQLiteDatabase.uri(path, "mode=ro"), readOnly: true, path: path)
                // The first read fails here when the WAL index cannot be made (a read-only folder).
                try execute("SELECT count(*) FROM sqlite_master")
            } catch {
                sqlite3_close(handle)
                handle = try SQLiteDatabase.open(SQLiteDatabase.uri(path, "immutable=1"), readOnly: true, path: path)
                try execute("SELECT count(*) FROM sqlite_master")
            }
            try owner?.checkOwned(self)
            return
        }
        handle = try SQLiteDatabase.open(path, readOnly: false, path: path)
        try owner?.checkOwned(self)
        try setWAL()
        try execute("PRAGMA synchronous=\(durability.rawValue)")
        try execute("PRAGMA foreign_keys=ON")
    }

    /// Throws a ``SQLiteError/Kind/foreign`` error when `path` holds something that is not a
    /// SQLite database: a folder, or a file SQLite cannot read as one (a photo named by mistake).
    /// Nothing there is opened for writing, so nothing there changes. No file, or an empty one,
    /// is a new database.
    ///
    /// The file is read through SQLite (a read-only connection), never with a descriptor of its
    /// own: closing one would drop every POSIX lock this process holds on the file, its other
    /// connections' included (sqlite.org/howtocorrupt.html, 2.2).
    public static func checkIsDatabase(_ path: String) throws(SQLiteError) {
        var status = stat()
        guard stat(path, &status) == 0 else { return }  // none yet: SQLite makes it, or says why not
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw SQLiteError(
                code: SQLITE_CANTOPEN, message: "it is a folder, not a database file", action: "opening \(path)",
                kind: .foreign)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else { return }
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else { return }
        // Not readable for another reason (locked, protected): the real connection says why.
        guard sqlite3_exec(db, "PRAGMA schema_version", nil, nil, nil) == SQLITE_NOTADB else { return }
        throw SQLiteError(
            code: SQLITE_NOTADB, message: "it is not a SQLite database but some other kind of file",
            action: "opening \(path)", kind: .foreign)
    }

    private static func open(_ name: String, readOnly: Bool, path: String) throws(SQLiteError) -> OpaquePointer {
        var db: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_FULLMUTEX
        let status = sqlite3_open_v2(name, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            let code = db.map { sqlite3_extended_errcode($0) } ?? status
            sqlite3_close(db)
            throw SQLiteError(code: code, message: message, action: "opening \(path)")
        }
        sqlite3_extended_result_codes(db, 1)
        // Set before anything else runs: a second process waits for the lock instead of failing.
        sqlite3_busy_timeout(db, 10_000)
        return db
    }

    /// A `file:` URI for `path` with `query`, its special characters escaped.
    static func uri(_ path: String, _ query: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return "file:" + escaped + "?" + query
    }

    /// Turns WAL on. Changing the journal mode is not covered by the busy timeout while
    /// another process opens the same new file at once, so a busy answer is tried again
    /// for up to ten seconds.
    private func setWAL() throws(SQLiteError) {
        var waited = 0
        while true {
            do {
                try execute("PRAGMA journal_mode=WAL")
                return
            } catch {
                guard error.kind == .busy, waited < 10_000 else { throw error }
                usleep(20_000)
                waited += 20
            }
        }
    }

    deinit { sqlite3_close(handle) }

    func check(_ status: Int32, _ action: @autoclosure () -> String) throws(SQLiteError) {
        guard status == SQLITE_OK || status == SQLITE_DONE || status == SQLITE_ROW else {
            let code = handle.map { sqlite3_extended_errcode($0) } ?? status
            throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), action: action())
        }
    }

    /// Checks the whole database's structure (`PRAGMA quick_check`): throws a damaged-database
    /// error when a page is garbage, instead of letting reads quietly find fewer rows.
    public func checkIntegrity() throws(SQLiteError) {
        let statement = try prepare("PRAGMA quick_check")
        var problems: [String] = []
        while try statement.step() { if let line = statement.text(0), line != "ok" { problems.append(line) } }
        if !problems.isEmpty {
            throw SQLiteError(
                code: SQLITE_CORRUPT, message: problems.prefix(3).joined(separator: "; "),
                action: "checking the database")
        }
    }

    /// Adds `column` (with its SQL `definition`, such as `INTEGER`) to `table` unless it is
    /// there: how a database made by an older Pickup gains a column.
    public func addColumnIfMissing(_ column: String, _ definition: String, to table: String) throws(SQLiteError) {
        let info = try prepare("PRAGMA table_info(\(table))")
        while try info.step() { if info.text(1) == column { return } }
        try execute("ALTER TABLE \(table) ADD COLUMN \(column) \(definition)")
    }

    /// Runs statements that return no rows.
    public func execute(_ sql: String) throws(SQLiteError) {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), "running \(sql.prefix(60))")
    }

    /// Prepares one statement.
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), "preparing \(sql.prefix(60))")
        guard let statement else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "empty statement", action: "preparing \(sql.prefix(60))")
        }
        return SQLiteStatement(statement, database: self)
    }

    /// Runs `body` with commits that do not wait for the disk (`synchronous=NORMAL`): the caller
    /// makes them durable itself, with a flush of the whole file system the database is on.
    /// Throws when the connection cannot be set back: later commits must not silently stop waiting.
    public func withoutWaitingForDisk<T>(_ body: () throws -> T) throws -> T {
        try execute("PRAGMA synchronous=NORMAL")
        let result: T
        do {
            result = try body()
        } catch {
            try execute("PRAGMA synchronous=\(durability.rawValue)")
            throw error
        }
        try execute("PRAGMA synchronous=\(durability.rawValue)")
        return result
    }

    /// How SQLite runs each of `queries` (name, SQL) by `EXPLAIN QUERY PLAN`, one line a step:
    /// what a store's scale tests read to see that an index serves every lookup.
    public func queryPlans(_ queries: [(name: String, sql: String)]) throws(SQLiteError) -> [String: [String]] {
        var plans: [String: [String]] = [:]
        for (name, sql) in queries {
            let statement = try prepare("EXPLAIN QUERY PLAN " + sql)
            var lines: [String] = []
            while try statement.step() { lines.append(statement.text(3) ?? "") }
            plans[name] = lines
        }
        return plans
    }

    /// Runs `body`, passing on a failure already of type `Failure` (the caller's own error, such
    /// as the catalog's `ImportError`) as it is, and giving any other (SQLite's, mostly) to
    /// `explain`: the one wrapper the catalog and the journal share.
    public static func mapping<T, Failure: Error>(
        _ body: () throws -> T, explain: (any Error) -> Failure
    ) throws(Failure) -> T {
        do {
            return try body()
        } catch let error as Failure {
            throw error
        } catch {
            throw explain(error)
        }
    }

    /// Runs `body` in one immediate transaction: all of it lands, or none.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}

/// A prepared statement: bind, step, read columns. Finalized in `deinit`.
public final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase

    init(_ statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit { sqlite3_finalize(statement) }

    /// Binds values to `?1`, `?2`... in order (String, Int, Int64, Double, nil).
    @discardableResult
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) -> SQLiteStatement {
        try database.check(sqlite3_reset(statement), "resetting a statement")
        try database.check(sqlite3_clear_bindings(statement), "clearing bindings")
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            case .real(let number): status = sqlite3_bind_double(statement, index, number)
            case .text(let text): status = sqlite3_bind_text(statement, index, text, -1, SQLITE_TRANSIENT)
            }
            try database.check(status, "binding value \(index)")
        }
        return self
    }

    /// Steps once; true when a row is ready to read.
    public func step() throws(SQLiteError) -> Bool {
        let status = sqlite3_step(statement)
        try database.check(status, "running a statement")
        return status == SQLITE_ROW
    }

    /// Ends the statement's current run (its read of the database) and keeps its bindings, so
    /// that it can be run again.
    public func reset() { sqlite3_reset(statement) }

    /// Runs a statement that returns no rows.
    public func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
    }

    /// The text in a column of the current row, by position; nil for NULL.
    public func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: pointer)
    }

    /// The integer in a column of the current row, by position (0 for NULL).
    public func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    /// The number in a column of the current row, by position (0 for NULL).
    public func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    /// Whether a column of the current row is NULL, by position.
    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    /// The statement's columns by name (as the query names them: `AS` names where given), read
    /// once.
    private lazy var columns: [String: Int32] = {
        var names: [String: Int32] = [:]
        for index in 0..<sqlite3_column_count(statement) {
            if let name = sqlite3_column_name(statement, index) {
                names[String(cString: name)] = names[String(cString: name)] ?? index
            }
        }
        return names
    }()

    /// The text of the named column of the current row; nil for NULL or a column the query
    /// does not have.
    public func text(_ name: String) -> String? { columns[name].flatMap { text($0) } }
    /// The integer of the named column (0 for NULL or a missing column).
    public func integer(_ name: String) -> Int64 { columns[name].map { integer($0) } ?? 0 }
    /// The number of the named column (0 for NULL or a missing column).
    public func real(_ name: String) -> Double { columns[name].map { real($0) } ?? 0 }
    /// Whether the named column is NULL (or the query does not have it).
    public func isNull(_ name: String) -> Bool { columns[name].map { isNull($0) } ?? true }
}

/// A value bound to a statement.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// SQLite's "copy the bytes now" destructor, which Swift cannot spell directly.
private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
