#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// A failed SQLite call: what Pickup was doing, SQLite's code and message. Made only here,
/// where SQLite is called.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// SQLite's result code (`SQLITE_FULL`, ...).
    public let code: Int32
    /// SQLite's own message.
    public let message: String
    /// What Pickup was doing ("preparing SELECT ...").
    public let action: String
    /// What kind of failure it is (from `code`, unless Pickup found it itself).
    public let kind: Kind

    /// A failure of kind `kind`, or of the kind SQLite's `code` says.
    public init(code: Int32, message: String, action: String, kind: Kind? = nil) {
        self.code = code
        self.message = message
        self.action = action
        self.kind = kind ?? SQLiteError.kind(of: code)
    }

    /// What kind of failure it is, so that callers tell a damaged database from a full disk,
    /// a refused permission or a busy one.
    public enum Kind: Sendable, Equatable {
        /// Another connection holds the lock (after the busy timeout).
        case busy
        /// The disk (or the quota) is full.
        case full
        /// The file or its folder may not be written, or the file system is read-only.
        case readOnly
        /// The file cannot be opened: missing, or its folder may not be read.
        case cannotOpen
        /// The system refused access.
        case permission
        /// The file is not a database, or is damaged.
        case damaged
        /// The path names something that is not this store: a folder, a file of another kind (a
        /// photo), or another program's database. It is left as it is.
        case foreign
        case other
    }

    static func kind(of code: Int32) -> Kind {
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_FULL: return .full
        case SQLITE_READONLY: return .readOnly
        case SQLITE_CANTOPEN: return .cannotOpen
        case SQLITE_PERM, SQLITE_AUTH: return .permission
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .damaged
        // SQLITE_IOERR_SHMOPEN (10 | 18 << 8), SQLITE_IOERR_ACCESS (10 | 13 << 8): the WAL index or the file
        // could not be made or checked, as in a folder that may not be written.
        case SQLITE_IOERR where code == 4618 || code == 3338: return .readOnly
        default: return .other
        }
    }

    public var description: String { "\(action) failed: \(message) (SQLite code \(code))" }
}

extension SQLiteError {
    /// What a failure of a store means to its user, in words, with what to do: one mapping for
    /// the import catalog and the upload journal, each naming itself.
    public struct Explanation: Sendable {
        /// What kind of failure it was.
        public var kind: Kind
        /// The sentence: "the catalog failed: the disk is full".
        public var message: String
        /// What to do, when the kind says more than the message.
        public var hint: String?
    }

    /// `error` (SQLite's or another) explained for the store called `store` ("the catalog",
    /// "the upload journal at PATH"); `doing` is what failed ("cannot open the catalog"; by default
    /// "STORE failed"), `folder` the folder it lives in, `whenDamaged` what to do with a damaged file,
    /// `whenForeign` with a path that holds something else.
    public static func explain(
        _ error: any Error, store: String, doing: String? = nil, folder: String, whenDamaged: String,
        whenForeign: String
    ) -> Explanation {
        let doing = doing ?? "\(store) failed"
        guard let error = error as? SQLiteError else {
            return Explanation(kind: .other, message: "\(doing): \(error)")
        }
        let kind = error.kind
        switch kind {
        case .full:
            return Explanation(
                kind: kind, message: "\(doing): the disk is full", hint: "Free some space, then try again.")
        case .readOnly, .permission:
            return Explanation(
                kind: kind, message: "\(doing): it may not be written (\(error.message))",
                hint: "Check \(folder)'s permissions and that its disk is not mounted read-only.")
        case .cannotOpen:
            return Explanation(
                kind: kind, message: "\(doing): it cannot be opened (\(error.message))",
                hint: "Check that \(folder) exists and that you may read and write it.")
        case .busy:
            return Explanation(
                kind: kind, message: "\(doing): another process kept it busy for 10 seconds",
                hint: "Wait for the other 'pickup' using \(store) to finish, then try again.")
        case .damaged:
            return Explanation(
                kind: kind, message: "\(doing): the database is damaged (\(error.message))", hint: whenDamaged)
        case .foreign:
            return Explanation(
                kind: kind, message: "\(store) cannot be used: \(error.message)", hint: whenForeign)
        case .other:
            return Explanation(kind: kind, message: "\(doing): \(error)")
        }
    }
}
