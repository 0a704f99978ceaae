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
}
