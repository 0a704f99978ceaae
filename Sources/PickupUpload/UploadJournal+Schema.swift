import Foundation
import PickupStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The journal's tables, version by version, and its file kept readable by its owner only.
extension UploadJournal {
    /// The journal's tables, version by version.
    static let schema = SQLiteSchema(
        store: "the upload journal",
        steps: [
            SQLiteSchema.Step(
                version: 1,
                [
                    """
                    CREATE TABLE IF NOT EXISTS uploads (
                        id TEXT PRIMARY KEY, path TEXT NOT NULL, size INTEGER NOT NULL, modified INTEGER NOT NULL,
                        target TEXT NOT NULL, type TEXT NOT NULL, remote TEXT, offset INTEGER NOT NULL DEFAULT 0,
                        state TEXT NOT NULL, error TEXT, created REAL NOT NULL, updated REAL NOT NULL
                    )
                    """
                ]),
            // Journals of version 1 got these one by one before versions were counted: each is
            // added where missing.
            SQLiteSchema.Step(
                version: 2, [],
                columns: [
                    // Which process sends an upload, until when.
                    ("uploads", "owner", "INTEGER"), ("uploads", "lease", "REAL"),
                    // Where it goes (UploadDestination as JSON) and why it failed, by code.
                    ("uploads", "destination", "TEXT"), ("uploads", "error_code", "TEXT"),
                    ("uploads", "error_status", "INTEGER"),
                    // The SHA-256 of a finished upload's bytes: what lets a later upload of the
                    // same bytes to the same destination be skipped.
                    ("uploads", "sha256", "TEXT"),
                ]),
            // The "already there" lookup, by destination and size, among finished uploads.
            SQLiteSchema.Step(version: 3, [UploadJournal.finishedIndex]),
            // How many tries the run that began an upload allowed (`--retries`), for its resume.
            SQLiteSchema.Step(version: 4, [], columns: [("uploads", "max_attempts", "INTEGER")]),
            // The chunk sizes the run that began an upload sent with, for its resume (S3's parts
            // must keep their size; a tus chunk size chosen for a proxy's limit must hold).
            SQLiteSchema.Step(
                version: 5, [],
                columns: [("uploads", "chunk_size", "INTEGER"), ("uploads", "largest_chunk", "INTEGER")]),
            // Which background session sends an upload the background owns (an app and each of
            // its extensions have their own). Null in uploads handed over before it was kept:
            // those were the app's one session's.
            SQLiteSchema.Step(version: 6, [], columns: [("uploads", "background_session", "TEXT")]),
            // A form's answer (UploadRecord.reply); a tus upload's metadata (JSON).
            SQLiteSchema.Step(
                version: 7, [], columns: [("uploads", "reply", "TEXT"), ("uploads", "metadata", "TEXT")]),
        ])

    /// Creates the journal's file readable by its owner only, where there is none yet, before
    /// SQLite opens it (its -wal and -shm then get the same). No lock is held on a file just made.
    static func createPrivate(_ path: String) {
        let created = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if created >= 0 { close(created) }  // there already, or SQLite says why it cannot open it
    }

    /// Makes a journal made before it was kept private readable by its owner only, once it is
    /// known to be a journal: by its path, as a descriptor opened and closed here would drop the
    /// POSIX locks this process's connections hold on the file (sqlite.org/howtocorrupt.html, 2.2).
    static func keepPrivate(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_mode & 0o077 != 0 else {
            return
        }
        chmod(path, 0o600)
    }

    /// Serves `finishedRecords` and `finishedUploads` (added to journals made before it).
    static let finishedIndex =
        "CREATE INDEX IF NOT EXISTS uploads_finished ON uploads(destination, size, sha256) WHERE state = 'done'"
}
