import Foundation
import Pickup
import PickupStore

/// The upload journal: SQLite (WAL) at a path of the user's choosing,
/// `~/.local/state/pickup/uploads.sqlite` by default. An actor owns the connection.
public actor UploadJournal {
    let database: SQLiteDatabase
    /// The journal file's path.
    public nonisolated let path: String
    /// The folder under which the journal keeps file paths relative to it, as `~/…`: on iPhone
    /// the app's home, whose path changes when the app is updated (pending uploads still find
    /// their files afterwards); nil elsewhere, where paths are kept absolute.
    public let home: String?
    /// `home`'s spellings, each ending in `/`: as given, and with its links resolved (on iPhone
    /// `NSHomeDirectory()` is under `/var`, a link to `/private/var`). Empty without a home.
    private let homeSpellings: [String]

    /// The app's home on iPhone (its container); nil on other platforms.
    public static var defaultHome: String? {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            return NSHomeDirectory()
        #else
            return nil
        #endif
    }

    /// `path` as the journal keeps it: relative to `home` when it lies under it, by the home's
    /// own spelling or its links resolved. A path resolved with `realpath` (a library's files)
    /// names the home by the second: both are kept relative, or the files of an app updated
    /// would not be found.
    func stored(_ path: String) -> String {
        for base in homeSpellings where path.hasPrefix(base) { return "~/" + path.dropFirst(base.count) }
        return path
    }

    /// The spellings of `home` that `stored` knows, each ending in `/`.
    static func spellings(of home: String?) -> [String] {
        guard let home, !home.isEmpty else { return [] }
        var homes = [home]
        if home.hasPrefix("/var/") { homes.append("/private" + home) }
        if let resolved = SystemPath.resolved(home), !homes.contains(resolved) { homes.append(resolved) }
        return homes.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    }

    /// A kept path as a path to open: under today's `home` when it was kept relative.
    static func resolved(_ kept: String, home: String?) -> String {
        guard let home, kept.hasPrefix("~/") else { return kept }
        return (home.hasSuffix("/") ? home : home + "/") + kept.dropFirst(2)
    }

    /// The default journal, beside the picked items' library (`PickupStorage.standard`): on
    /// iPhone `Application Support/Pickup/uploads.sqlite`, excluded from backup (the same file
    /// for the foreground queue and the background session); elsewhere `$PICKUP_STATE_DIR`, else
    /// `$XDG_STATE_HOME/pickup`, else `$HOME/.local/state/pickup` (the account's home folder when
    /// `HOME` is not set).
    public static var defaultPath: String {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            return sandboxedPath
        #else
            return defaultPath(environment: ProcessInfo.processInfo.environment)
        #endif
    }

    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        /// The app's journal, its folder made and excluded from backup once, when first asked.
        private static let sandboxedPath: String = {
            let storage = PickupStorage.standard
            try? FileManager.default.createDirectory(atPath: storage.root, withIntermediateDirectories: true)
            storage.excludeFromBackup(storage.root)
            return storage.journal
        }()
    #endif

    static func defaultPath(environment: [String: String]) -> String {
        PickupStorage(root: PickupStorage.stateFolder(environment)).journal
    }

    /// Whether a journal exists at `path` (reading one must not create it).
    public static func exists(at path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Opens the journal at `path`, creating it and its folder unless `readOnly` (for
    /// listing: then nothing is created or changed, and a missing journal is an error).
    /// `home`: see ``home``; give one only to move a journal between folders (tests do).
    public init(
        path: String = UploadJournal.defaultPath, readOnly: Bool = false, home: String? = UploadJournal.defaultHome
    ) throws(UploadError) {
        self.path = path
        self.home = home
        homeSpellings = UploadJournal.spellings(of: home)
        if readOnly {
            do {
                database = try SQLiteDatabase(path: path, readOnly: true, owner: UploadJournal.schema)
                try database.execute("SELECT count(*) FROM uploads")
                try database.checkIntegrity()
            } catch {
                throw UploadJournal.explain(error, path: path)
            }
            return
        }
        do {
            // The journal holds targets and upload URLs (often download and delete links): its
            // folder is made 0700 and the file 0600 (SQLite gives its -wal and -shm the same).
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty {  // a bare name is in the current folder
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            UploadJournal.createPrivate(path)
            // A lost offset after a power cut costs nothing: resuming asks the server where it stands.
            // A folder, a photo or another program's database named by mistake is refused before
            // anything there changes.
            database = try SQLiteDatabase(path: path, durability: .normal, owner: UploadJournal.schema)
            UploadJournal.keepPrivate(path)
            try UploadJournal.schema.migrate(database)
            try database.checkIntegrity()
        } catch {
            throw UploadJournal.explain(error, path: path)
        }
    }

    /// Marks a target whose query was left out of the journal.
    public static let queryNotStored = "?(query not stored)"

    /// How long a claim lasts without being renewed (each saved step renews it).
    static let leaseSeconds = 120.0

    /// This process's id, as claims record it.
    static var processID: Int64 { Int64(ProcessInfo.processInfo.processIdentifier) }

    /// Claims an upload for this process: one process sends an upload at a time. Another
    /// process's claim holds while that process lives and its lease runs; then it is taken over.
    public func claim(id: String) throws(UploadError) {
        let me = UploadJournal.processID
        let now = Date().timeIntervalSince1970
        let holder: Int64? = try call {
            try database.transaction { () throws -> Int64? in
                let statement = try database.prepare("SELECT owner, lease FROM uploads WHERE id = ?1")
                try statement.bind([.text(id)])
                guard try statement.step() else { return nil }
                let owner = statement.isNull(0) ? nil : statement.integer(0)
                let lease = statement.real(1)
                if owner == UploadJournal.backgroundOwner { return owner }
                if let owner, UploadJournal.holds(owner: owner, lease: lease, now: now) { return owner }
                try database.prepare("UPDATE uploads SET owner = ?2, lease = ?3 WHERE id = ?1").run([
                    .text(id), .integer(me), .real(now + UploadJournal.leaseSeconds),
                ])
                return nil
            }
        }
        if holder == UploadJournal.backgroundOwner {
            throw UploadError(
                .busy, "upload \(id) is being sent by the background session: take it back before sending it here")
        }
        if let holder {
            throw UploadError(.busy, "upload \(id) is being sent by process \(holder)")
        }
    }

    /// Whether another process's claim holds: it is alive and its lease runs (`claim(id:)`).
    static func holds(owner: Int64, lease: Double, now: Double) -> Bool {
        owner != processID && lease > now && isRunning(owner)
    }

    /// Whether a process with this id is alive on this machine.
    static func isRunning(_ pid: Int64) -> Bool {
        guard pid > 0, pid <= Int64(Int32.max) else { return false }
        let result = kill(pid_t(pid), 0)
        return LeaseHolder.isAlive(signalled: result == 0, errno: result == 0 ? 0 : errno) && !LeaseHolder.isEnding(pid)
    }

    /// Starts a record for a new upload; `maxAttempts`: the tries its run allows, which a resume
    /// allows again; `chunkSize` and `largestTusChunk`: the sizes it sends with (`UploadOptions`'),
    /// which a resume sends with again.
    public func begin(
        path: String, size: Int64, modified: Int64, destination: UploadDestination, type: String,
        maxAttempts: Int? = nil, chunkSize: Int? = nil, largestTusChunk: Int? = nil, metadata: [String: String] = [:]
    ) throws(UploadError)
        -> UploadRecord
    {
        let now = Date().timeIntervalSince1970
        // A query (a token) is never stored; the target says that it had one, so that a resume
        // asks for the endpoint again instead of sending requests without it.
        let shown = destination.displayName + (destination.losesQuery ? UploadJournal.queryNotStored : "")
        let stored = destination.stored
        let json: String
        do {
            json = try UploadJournal.json(stored)
        } catch {
            throw UploadError(.journal, "cannot record where the upload goes: \(error)")
        }
        let record = UploadRecord(
            id: UploadJournal.newID(), path: path, size: size, modified: modified, target: shown,
            destination: stored, type: type, remote: nil, offset: 0, state: .waiting, error: nil, created: now,
            updated: now, maxAttempts: maxAttempts, chunkSize: chunkSize, largestTusChunk: largestTusChunk,
            metadata: metadata)
        let metadataJSON = metadata.isEmpty ? nil : try? UploadJournal.json(metadata)
        try call {
            try database.prepare(
                """
                INSERT INTO uploads (id, path, size, modified, target, type, remote, offset, state, error, created, updated, owner, lease, destination, max_attempts, chunk_size, largest_chunk, metadata)
                VALUES (?1, ?2, ?3, ?4, ?5, ?8, NULL, 0, ?6, NULL, ?7, ?7, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
                """
            ).run([
                .text(record.id), .text(self.stored(path)), .integer(size), .integer(modified), .text(record.target),
                .text(record.state.rawValue), .real(now), .text(type), .integer(UploadJournal.processID),
                .real(now + UploadJournal.leaseSeconds), .text(json), maxAttempts.map { .integer(Int64($0)) } ?? .null,
                chunkSize.map { .integer(Int64($0)) } ?? .null, largestTusChunk.map { .integer(Int64($0)) } ?? .null,
                metadataJSON.map { .text($0) } ?? .null,
            ])
        }
        return record
    }

    /// The destination as the journal stores it: sorted keys, so that one destination is
    /// always the same text.
    static func json(_ destination: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(destination), as: UTF8.self)
    }

    /// Gives the uploads `ids` this many tries from now on (a resume's `--retries`), in place of
    /// the ones their first run allowed.
    public func allowAttempts(_ attempts: Int, for ids: [String]) throws(UploadError) {
        try call {
            let statement = try database.prepare("UPDATE uploads SET max_attempts = ?1 WHERE id = ?2")
            for id in ids { try statement.run([.integer(Int64(max(1, attempts))), .text(id)]) }
        }
    }

    /// Saves where an upload stands.
    public func save(_ record: UploadRecord) throws(UploadError) {
        try call {
            try database.prepare(
                // Saving a step renews this process's claim; a finished upload is nobody's. An upload
                // the background session owns (owner -1) is not changed here: a late save of a
                // foreground sender never overwrites what the background session recorded.
                """
                UPDATE uploads SET remote = ?2, offset = ?3, state = ?4, error = ?5, updated = ?6,
                    error_code = ?9, error_status = ?10, reply = coalesce(?11, reply),
                    owner = CASE WHEN ?4 IN ('waiting', 'uploading') THEN ?7 ELSE NULL END,
                    lease = CASE WHEN ?4 IN ('waiting', 'uploading') THEN ?6 + ?8 ELSE NULL END
                WHERE id = ?1 AND coalesce(owner, 0) != -1
                """
            ).run([
                .text(record.id), record.remote.map { .text(redacted($0)) } ?? .null, .integer(record.offset),
                .text(record.state.rawValue), record.error.map { .text($0.message) } ?? .null,
                .real(Date().timeIntervalSince1970), .integer(UploadJournal.processID),
                .real(UploadJournal.leaseSeconds), record.error.map { .text($0.code.rawValue) } ?? .null,
                record.error?.status.map { .integer(Int64($0)) } ?? .null, record.reply.map { .text($0) } ?? .null,
            ])
        }
    }

    /// The upload with this id (or a prefix of it), if the journal has it: a range on the
    /// primary key, the newest first when a prefix fits several.
    public func record(id: String) throws(UploadError) -> UploadRecord? {
        // A prefix compared as text: the user's words never become a LIKE pattern.
        guard !id.isEmpty else { return nil }
        let prefix = "substr(id, 1, length(?1)) = ?1"
        guard let end = UploadJournal.upperBound(ofPrefix: id) else {
            return try records(where: "id >= ?1 AND " + prefix, [.text(id)]).first
        }
        return try records(where: "id >= ?1 AND id < ?2 AND " + prefix, [.text(id), .text(end)]).first
    }

    /// The smallest text greater than every text that starts with `prefix` (its last character
    /// one higher), or nil when there is none: the end of the range the prefix covers.
    static func upperBound(ofPrefix prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            let next = last.value + 1 == 0xD800 ? 0xE000 : last.value + 1  // surrogates are not characters
            if let scalar = Unicode.Scalar(next) {
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars + [scalar])
                return text
            }
        }
        return nil
    }

    /// Every upload, newest first.
    public func all() throws(UploadError) -> [UploadRecord] { try records(where: "1", []) }

    /// Uploads that did not finish: waiting, uploading (a process died), paused, failed.
    public func unfinished() throws(UploadError) -> [UploadRecord] {
        try records(where: "state IN ('waiting', 'uploading', 'paused', 'failed')", [])
    }

    func records(where condition: String, _ values: [SQLiteValue]) throws(UploadError) -> [UploadRecord] {
        try call {
            let statement = try database.prepare(
                UploadJournal.select + " WHERE \(condition) ORDER BY created DESC")
            try statement.bind(values)
            return try UploadJournal.read(statement, home: home)
        }
    }

    /// Finished uploads to `?1` of `?2` bytes whose SHA-256 is known (served by `uploads_finished`).
    static let finishedCondition = "state = 'done' AND destination = ?1 AND size = ?2 AND sha256 IS NOT NULL"
    /// The same for uploads that finished before their SHA-256 was recorded (a run stopped by
    /// Ctrl-C, before its hashing ended): known by their file's path and modification time.
    static let finishedUnhashedCondition = "state = 'done' AND destination = ?1 AND size = ?2 AND sha256 IS NULL"

    /// The columns `read` takes.
    static let select = """
        SELECT id, path, size, modified, target, remote, offset, state, error, created, updated, type,
            destination, error_code, error_status, sha256, max_attempts, chunk_size, largest_chunk, reply, metadata
        FROM uploads
        """

    /// The records a `select` statement returns, to its last row.
    static func read(_ statement: SQLiteStatement, home: String?) throws -> [UploadRecord] {
        var result: [UploadRecord] = []
        while try statement.step() { result.append(record(statement, home: home)) }
        return result
    }

    /// The record in the row a `select` statement stands on (its `destination` when known).
    static func record(
        _ statement: SQLiteStatement, destination known: UploadDestination? = nil, home: String?
    ) -> UploadRecord {
        let target = statement.text("target") ?? ""
        // Rows written before destinations were kept as JSON are read from their target.
        let destination =
            known
            ?? statement.text("destination").flatMap {
                try? JSONDecoder().decode(UploadDestination.self, from: Data($0.utf8))
            }
            ?? UploadDestination(legacyTarget: target)
        let error = statement.text("error").map { message in
            UploadError(
                statement.text("error_code").flatMap(UploadError.Code.init(rawValue:)) ?? .server, message,
                status: statement.isNull("error_status") ? nil : Int(statement.integer("error_status")))
        }
        return UploadRecord(
            id: statement.text("id") ?? "", path: resolved(statement.text("path") ?? "", home: home),
            size: statement.integer("size"),
            modified: statement.integer("modified"), target: target, destination: destination,
            type: statement.text("type") ?? "application/octet-stream", remote: statement.text("remote"),
            offset: statement.integer("offset"),
            state: UploadRecord.State(rawValue: statement.text("state") ?? "") ?? .failed,
            error: error, created: statement.real("created"), updated: statement.real("updated"),
            maxAttempts: statement.isNull("max_attempts") ? nil : Int(statement.integer("max_attempts")),
            chunkSize: statement.isNull("chunk_size") ? nil : Int(statement.integer("chunk_size")),
            largestTusChunk: statement.isNull("largest_chunk") ? nil : Int(statement.integer("largest_chunk")),
            reply: statement.text("reply"),
            metadata: statement.text("metadata").flatMap {
                try? JSONDecoder().decode([String: String].self, from: Data($0.utf8))
            } ?? [:])
    }

    /// How SQLite runs the journal's lookups (`EXPLAIN QUERY PLAN`), one line a step.
    func queryPlans() throws(UploadError) -> [String: [String]] {
        try call {
            try database.queryPlans([
                ("finished", UploadJournal.select + " WHERE " + UploadJournal.finishedCondition),
                ("finishedUnhashed", UploadJournal.select + " WHERE " + UploadJournal.finishedUnhashedCondition),
                ("byID", UploadJournal.select + " WHERE id >= ?1 AND id < ?2 AND substr(id, 1, length(?1)) = ?1"),
                ("save", "UPDATE uploads SET offset = 1 WHERE id = ?1"),
            ])
        }
    }

    func call<T>(_ body: () throws -> T) throws(UploadError) -> T {
        try SQLiteDatabase.mapping(body) { UploadJournal.explain($0, path: path) }
    }

    /// A journal failure, told by its cause (full disk, permission, busy, damaged, not a journal).
    static func explain(_ error: any Error, path: String) -> UploadError {
        let folder = (path as NSString).deletingLastPathComponent
        let explained = SQLiteError.explain(
            error, store: "the upload journal at \(path)", folder: folder.isEmpty ? "its folder" : folder,
            whenDamaged: "move it aside to start a new one", whenForeign: "")
        // An upload error's hint comes with its code; only a damaged journal's remedy is its own.
        var journalError = UploadError(
            .journal, explained.message + (explained.kind == .damaged ? "; " + (explained.hint ?? "") : ""))
        journalError.notAJournal = explained.kind == .foreign
        return journalError
    }

    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        return String((0..<10).map { _ in digits[Int(generator.next() % UInt64(digits.count))] })
    }
}
