import Foundation
import PickupImport
import PickupStore
import PickupTestSupport
import Testing

/// Catalogs made by earlier versions open and migrate; one made by a newer version is refused.
@Suite("catalog versions")
struct CatalogMigrationTests {
    /// A library whose catalog is `Stores/catalog-v1.sqlite`: made by `pickup import` of a 2.0 KB
    /// JPEG (a.jpg) and a one-second MP4 (b.mp4) before versions were counted (user_version 1).
    func libraryFromVersion1() throws -> String {
        let folder = try Temporary.folder("migrate", inside: ".pickup")
        let stored = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Stores/catalog-v1.sqlite")
        try FileManager.default.copyItem(atPath: stored.path, toPath: folder + "/.pickup/catalog.sqlite")
        return folder
    }

    func version(_ path: String) throws -> Int32 {
        try SQLiteSchema.version(of: try SQLiteDatabase(path: path, readOnly: true))
    }

    @Test("a catalog of version 1 opens, is migrated to the newest version, and keeps its items")
    func version1() async throws {
        let folder = try libraryFromVersion1()
        defer { Temporary.remove(folder) }
        #expect(try version(folder + "/.pickup/catalog.sqlite") == 1)
        let catalog = try ImportCatalog(folder: folder)
        let items = try await catalog.items()
        #expect(Set(items.map(\.id)) == ["6830dd03a869", "01478a228c6d"])
        #expect(Set(items.flatMap { $0.files.map(\.name) }) == ["a.jpg", "b.mp4"])
        #expect(items.first { $0.id == "01478a228c6d" }?.kind == .video)
        #expect(try version(folder + "/.pickup/catalog.sqlite") == 6)
        // Opened again: nothing left to run, nothing lost.
        #expect(try await ImportCatalog(folder: folder).items().count == 2)
    }

    @Test("a catalog of version 3 (no durations yet), opened only to read, lists its items unchanged")
    func version3ReadOnly() async throws {
        let folder = try libraryFromVersion1()
        defer { Temporary.remove(folder) }
        let path = folder + "/.pickup/catalog.sqlite"
        _ = try await ImportCatalog(folder: folder).items()
        // What the previous version left: version 3, its files without a duration column.
        let database = try SQLiteDatabase(path: path)
        try database.execute("ALTER TABLE files DROP COLUMN duration")
        try database.execute("PRAGMA user_version = 3")
        let items = try await ImportCatalog(folder: folder, readOnly: true).items()
        #expect(Set(items.map(\.id)) == ["6830dd03a869", "01478a228c6d"])
        #expect(items.allSatisfy { $0.files.allSatisfy { $0.duration == nil } })
        #expect(try version(path) == 3, "reading changed nothing")
    }

    @Test("a catalog made by a newer version is refused, saying to update, and left as it is")
    func newer() throws {
        let folder = try libraryFromVersion1()
        defer { Temporary.remove(folder) }
        let path = folder + "/.pickup/catalog.sqlite"
        try SQLiteDatabase(path: path).execute("PRAGMA user_version = 99")
        let error = #expect(throws: ImportError.self) { try ImportCatalog(folder: folder) }
        #expect(error?.description.contains("newer version of Pickup") == true, "\(String(describing: error))")
        #expect(try version(path) == 99)
    }

    @Test("a library folder whose catalog file is another database (the upload journal) is refused and left as it is")
    func anotherDatabase() async throws {
        let folder = try Temporary.folder("foreign", inside: ".pickup")
        defer { Temporary.remove(folder) }
        let path = folder + "/.pickup/catalog.sqlite"
        do {
            let made = try SQLiteDatabase(path: path)
            try made.execute("CREATE TABLE uploads (id TEXT PRIMARY KEY)")
            try made.execute("PRAGMA user_version = 7")
        }
        for readOnly in [false, true] {
            let error = #expect(throws: ImportError.self) { try ImportCatalog(folder: folder, readOnly: readOnly) }
            #expect(error?.code == .catalog)
            #expect(error?.message.contains("its tables: uploads") == true, "\(String(describing: error))")
            #expect(error?.hint.contains("not a Pickup library") == true, "\(String(describing: error))")
        }
        let statement = try SQLiteDatabase(path: path).prepare(
            "SELECT group_concat(name) FROM sqlite_master WHERE type = 'table'")
        #expect(try statement.step() && statement.text(0) == "uploads", "the file was written to")
        #expect(try version(path) == 7)
    }
}
