#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// A failed SQLite call: what Pickup was doing, SQLite's code and message.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public let action: String

    public init(code: Int32, message: String, action: String) {
        self.code = code
        self.message = message
        self.action = action
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
        case other
    }

    public var kind: Kind {
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
