import Foundation
import PickupStore
import PickupTestSupport
import PickupUpload
import Testing

/// Journals made by earlier versions open and migrate; one made by a newer version is refused.
@Suite("journal versions")
struct JournalMigrationTests {
    /// `Stores/journal-v1.sqlite`: made by `pickup upload a.jpg` to a form nobody answered,
    /// before versions were counted (user_version 1): one failed upload, uunzak9tx4.
    func journalFromVersion1() throws -> String {
        let path = Temporary.path("migrate", suffix: ".sqlite")
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
        // Its tries were not recorded then: a resume gives it the resuming run's.
        #expect(unfinished.first?.maxAttempts == nil)
        // Nor its chunk sizes: a resume sends with the resuming run's.
        #expect(unfinished.first?.chunkSize == nil && unfinished.first?.largestTusChunk == nil)
        // Nor a form's answer.
        #expect(unfinished.first?.reply == nil)
        #expect(try version(path) == 7)
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

/// The journal on iPhone: paths under the app's home kept relative to it, so that an app
/// updated (its container moved) still finds the files of its pending uploads.
@Suite("journal paths under the app's home")
struct JournalHomeTests {
    @Test("a path under the home is kept as ~/…, and read back under the new home after the container moved")
    func containerMoved() async throws {
        let path = Temporary.path("home", suffix: ".sqlite")
        defer { unlink(path) }
        let old = "/var/mobile/Containers/Data/Application/OLD-UUID"
        let before = try UploadJournal(path: path, home: old)
        let record = try await before.begin(
            path: old + "/Library/Application Support/Pickup/Library/IMG_0001.MOV", size: 10, modified: 1,
            destination: .tus(endpoint: try #require(URL(string: "https://tus.example/files/"))),
            type: "video/quicktime")
        let elsewhere = try await before.begin(
            path: "/private/var/mobile/Media/DCIM/IMG_0002.MOV", size: 10, modified: 1,
            destination: .tus(endpoint: try #require(URL(string: "https://tus.example/files/"))),
            type: "video/quicktime")
        // A library's path, its links resolved (`/var` is a link to `/private/var`): under the home too.
        let resolved = try await before.begin(
            path: "/private" + old + "/Library/Application Support/Pickup/Library/IMG_0003.HEIC", size: 10,
            modified: 1, destination: .tus(endpoint: try #require(URL(string: "https://tus.example/files/"))),
            type: "image/heic")
        let new = "/var/mobile/Containers/Data/Application/NEW-UUID"
        let after = try UploadJournal(path: path, home: new)
        #expect(
            try await after.record(id: resolved.id)?.path == new
                + "/Library/Application Support/Pickup/Library/IMG_0003.HEIC")
        #expect(
            try await after.record(id: record.id)?.path == new
                + "/Library/Application Support/Pickup/Library/IMG_0001.MOV")
        #expect(try await after.record(id: elsewhere.id)?.path == "/private/var/mobile/Media/DCIM/IMG_0002.MOV")
        // Without a home (Linux, macOS), paths are kept as they are.
        let plain = try UploadJournal(path: path, home: nil)
        #expect(try await plain.record(id: elsewhere.id)?.path == "/private/var/mobile/Media/DCIM/IMG_0002.MOV")
        #expect(
            try await plain.record(id: record.id)?.path == "~/Library/Application Support/Pickup/Library/IMG_0001.MOV")
    }
}
