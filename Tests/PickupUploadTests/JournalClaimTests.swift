import Foundation
import PickupStore
import PickupTestSupport
import PickupUpload
import Testing

@Suite("The journal: one process sends an upload at a time")
struct JournalClaimTests {
    func journal() throws -> (UploadJournal, String) {
        let path = Temporary.path("claims", suffix: "/uploads.sqlite")
        return (try UploadJournal(path: path), path)
    }

    @Test func anotherLivingProcessHoldsItsUploadUntilItEnds() async throws {
        let (journal, path) = try journal()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let record = try await journal.begin(
            path: "/tmp/x.mov", size: 10, modified: 1, destination: UploadTestFiles.someTusServer,
            type: "video/quicktime")
        try await journal.claim(id: record.id)  // begun here: ours already
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/bin/sleep")
        other.arguments = ["30"]
        try other.run()
        defer { if other.isRunning { kill(other.processIdentifier, SIGKILL) } }
        let database = try SQLiteDatabase(path: path)
        try database.prepare("UPDATE uploads SET owner = ?1, lease = ?2 WHERE id = ?3").run([
            .integer(Int64(other.processIdentifier)), .real(Date().timeIntervalSince1970 + 100), .text(record.id),
        ])
        await #expect(throws: UploadError.self) { try await journal.claim(id: record.id) }
        do {
            try await journal.claim(id: record.id)
        } catch {
            #expect(error.code == .busy)
            #expect(error.message.contains("process \(other.processIdentifier)"))
        }
        kill(other.processIdentifier, SIGKILL)
        other.waitUntilExit()
        try await journal.claim(id: record.id)  // its holder is gone: taken over
    }

    @Test func anExpiredLeaseIsTakenOver() async throws {
        let (journal, path) = try journal()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let record = try await journal.begin(
            path: "/tmp/y.mov", size: 10, modified: 1, destination: UploadTestFiles.someTusServer,
            type: "video/quicktime")
        let database = try SQLiteDatabase(path: path)
        try database.prepare("UPDATE uploads SET owner = 1, lease = ?1 WHERE id = ?2").run([
            .real(Date().timeIntervalSince1970 - 1), .text(record.id),
        ])
        try await journal.claim(id: record.id)
    }

    @Test func idsAreComparedAsTextNotPatterns() async throws {
        let (journal, path) = try journal()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        _ = try await journal.begin(
            path: "/tmp/z.mov", size: 10, modified: 1, destination: UploadTestFiles.someTusServer,
            type: "video/quicktime")
        #expect(try await journal.record(id: "%") == nil)
        #expect(try await journal.record(id: "_") == nil)
        #expect(try await journal.record(id: "") == nil)
    }

    @Test func aJournalWithAGarbagePageIsReportedDamaged() async throws {
        var (journal, path) = try journal()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        for index in 0..<300 {
            _ = try await journal.begin(
                path: "/tmp/\(index)-" + String(repeating: "x", count: 100) + ".mov", size: 10, modified: 1,
                destination: UploadTestFiles.someTusServer, type: "video/quicktime")
        }
        journal = try UploadJournal(path: path + ".other")  // let go of the first connection
        let checkpoint = try SQLiteDatabase(path: path)
        try checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 4096 * 3)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
        try handle.close()
        for readOnly in [true, false] {
            do {
                _ = try UploadJournal(path: path, readOnly: readOnly)
                Issue.record("a damaged journal opened (readOnly: \(readOnly))")
            } catch {
                #expect(error.code == .journal)
                #expect(error.message.contains("damaged"), "\(error.message)")
            }
        }
    }

    @Test("a photo, a folder or another database named as the journal is refused and left as it is")
    func somethingElseNamedAsTheJournal() async throws {
        let folder = Temporary.path("not-a-journal")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        let photo = folder + "/IMG_0001.JPG"
        let photoBytes = Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 5000))
        try photoBytes.write(to: URL(fileURLWithPath: photo))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: photo)
        // Another store's file (tables, a version), and another program's (tables, version 0).
        let catalog = folder + "/catalog.sqlite"
        let other = folder + "/other.sqlite"
        do {
            let made = try SQLiteDatabase(path: catalog)
            try made.execute("CREATE TABLE items (id TEXT PRIMARY KEY)")
            try made.execute("PRAGMA user_version = 4")
            let otherDatabase = try SQLiteDatabase(path: other)
            try otherDatabase.execute("CREATE TABLE notes (text TEXT)")
            // As another program keeps it: a rollback journal, not WAL; readable by all.
            try otherDatabase.execute("PRAGMA journal_mode=DELETE")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: other)
        for (path, said) in [
            (photo, "not a SQLite database"), (folder + "/photos", "a folder"), (catalog, "its tables: items"),
            (other, "its tables: notes"),
        ] {
            for readOnly in [true, false] {
                do {
                    _ = try UploadJournal(path: path, readOnly: readOnly)
                    Issue.record("\(path) opened as a journal (readOnly: \(readOnly))")
                } catch {
                    #expect(error.code == .journal && error.notAJournal, "\(error)")
                    #expect(error.message.contains(said) && error.message.contains("cannot be used"), "\(error)")
                    #expect(error.hint.contains("left as it is"), "\(error.hint)")
                }
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == photoBytes)
        let mode = try FileManager.default.attributesOfItem(atPath: photo)[.posixPermissions] as? Int
        #expect(mode == 0o644, "the photo's permissions changed")
        // Nothing written to the other program's database: not its journal mode, not its mode.
        let journalMode = try SQLiteDatabase(path: other, readOnly: true).prepare("PRAGMA journal_mode")
        #expect(
            try journalMode.step() && journalMode.text(0) == "delete",
            "the other program's database was switched to WAL")
        #expect(try FileManager.default.attributesOfItem(atPath: other)[.posixPermissions] as? Int == 0o644)
        for (path, table) in [(catalog, "items"), (other, "notes")] {
            let statement = try SQLiteDatabase(path: path).prepare(
                "SELECT group_concat(name) FROM sqlite_master WHERE type = 'table'")
            #expect(try statement.step() && statement.text(0) == table, "\(path) was written to")
        }
        // An empty file, or none, is a new journal.
        #expect(FileManager.default.createFile(atPath: folder + "/empty.sqlite", contents: nil))
        _ = try UploadJournal(path: folder + "/empty.sqlite")
        _ = try UploadJournal(path: folder + "/new.sqlite")
    }
}
