import Foundation
import PickupStore
import PickupUpload
import Testing

/// Journals made by earlier versions open and migrate; one made by a newer version is refused.
@Suite("journal versions")
struct JournalMigrationTests {
    /// `Stores/journal-v1.sqlite`: made by `pickup upload a.jpg` to a form nobody answered,
    /// before versions were counted (user_version 1): one failed upload, uunzak9tx4.
    func journalFromVersion1() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pickup-migrate-\(UUID()).sqlite").path
        let stored = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Stores/journal-v1.sqlite")
        try FileManager.default.copyItem(atPath: stored.path, toPath: path)
        return path
    }

    func version(_ path: String) throws -> Int32 {
        try SQLiteSchema.version(of: try SQLiteDatabase(path: path, readOnly: true))
    }

    @Test("a journal of version 1 opens, is migrated to the newest version, and keeps its uploads")
    func version1() async throws {
        let path = try journalFromVersion1()
        defer { unlink(path) }
        #expect(try version(path) == 1)
        let journal = try UploadJournal(path: path)
        let unfinished = try await journal.unfinished()
        #expect(unfinished.map(\.id) == ["uunzak9tx4"])
        #expect(unfinished.first?.state == .failed)
        #expect(unfinished.first?.path.hasSuffix("/card/a.jpg") == true)
        #expect(unfinished.first?.error?.code == .network)
        #expect(try version(path) == 3)
    }

    @Test("a journal made by a newer version is refused, saying to update")
    func newer() throws {
        let path = try journalFromVersion1()
        defer { unlink(path) }
        try SQLiteDatabase(path: path).execute("PRAGMA user_version = 99")
        let error = #expect(throws: UploadError.self) { try UploadJournal(path: path) }
        #expect(error?.description.contains("newer version of Pickup") == true, "\(String(describing: error))")
    }
}
