import Foundation
import Pickup
import PickupStore
import PickupTestSupport
import Testing

@testable import PickupImport

/// A library of tens of thousands of items costs in proportion to its size: listing it,
/// verifying it and deciding "already there" for each of its sources grow linearly, not with
/// the square of the library. Catalogs of 1,000 and 10,000 items are made in code; the test
/// compares how the time grows (a ratio, never an absolute time), so it holds on a loaded
/// machine: linear work is about 10x for 10x items, quadratic work about 100x, and the bound
/// is 25x.
@Suite("Catalog at scale", .serialized)
struct CatalogScaleTests {
    typealias Scratch = ImportSessionTests.Scratch

    /// How much more time 10x items may take.
    static let allowedGrowth = 25.0

    /// A library of `count` items, each a small file in the folder with its real SHA-256, all
    /// recorded in one transaction; and the source keys the catalog knows them by.
    final class Library {
        let scratch: Scratch
        let catalog: ImportCatalog
        let sources: [ImportCatalog.SourceKey]
        var folder: String { scratch.library }

        init(count: Int) async throws {
            let scratch = try Scratch()
            try FileManager.default.createDirectory(atPath: scratch.library, withIntermediateDirectories: true)
            let catalog = try ImportCatalog(folder: scratch.library)
            var entries: [(ImportedItem, [StoredFile.Role: ImportCatalog.SourceKey])] = []
            var sources: [ImportCatalog.SourceKey] = []
            for number in 0..<count {
                let bytes = Array("photo \(number) of \(count)\n".utf8)
                let name = "IMG_\(number).JPG"
                try Data(bytes).write(to: URL(fileURLWithPath: scratch.library + "/" + name))
                let hasher = DigestHasher()
                hasher.update(bytes)
                let sha256 = hasher.finalizeHex()
                let source = ImportCatalog.SourceKey(
                    path: "/camera/DCIM/" + name, size: Int64(bytes.count), modified: Int64(number) * 1_000_000_000)
                var info = MediaInfo(kind: .image, container: .jpeg, fileSize: Int64(bytes.count))
                info.width = 4032
                info.height = 3024
                let item = ImportedItem(
                    id: String(sha256.prefix(12)), kind: .image, originalName: name, originalPath: source.path,
                    importedAt: 1_700_000_000 + Double(number),
                    files: [
                        StoredFile(
                            role: .primary, name: name, originalPath: source.path, size: source.size,
                            sha256: sha256, method: .copied)
                    ], info: info)
                entries.append((item, [.primary: source]))
                sources.append(source)
            }
            try await catalog.recordAll(entries)
            self.scratch = scratch
            self.catalog = catalog
            self.sources = sources
        }
    }

    /// How much longer `work` takes on `large` than on `small`, and the two times.
    static func growth(
        _ small: Library, _ large: Library, _ work: (Library) async throws -> Void
    ) async throws -> (ratio: Double, small: Double, large: Double) {
        let short = try await Timing.shortest { try await work(small) }
        let long = try await Timing.shortest { try await work(large) }
        return (long / max(short, 1e-4), short, long)
    }

    @Test("listing, verifying and deciding 'already there' for 10x the items take less than 25x the time")
    func growsLinearly() async throws {
        // Made once for the three: writing 11,000 files is most of the test's time.
        let small = try await Library(count: 1_000), large = try await Library(count: 10_000)
        #expect(try await small.catalog.items().count == 1_000)
        #expect(try await large.catalog.items().map(\.originalName).last == "IMG_9999.JPG")
        let report = try await LibraryVerifier(folder: large.folder, catalog: large.catalog).verify()
        #expect(report.isClean && report.files == 10_000)
        #expect(try await large.catalog.item(from: large.sources[9_999])?.originalName == "IMG_9999.JPG")

        let listing = try await CatalogScaleTests.growth(small, large) { _ = try await $0.catalog.items() }
        #expect(listing.ratio < CatalogScaleTests.allowedGrowth, "list: \(listing)")
        let verifying = try await CatalogScaleTests.growth(small, large) { library in
            _ = try await LibraryVerifier(folder: library.folder, catalog: library.catalog).verify()
        }
        #expect(verifying.ratio < CatalogScaleTests.allowedGrowth, "verify: \(verifying)")
        let lookup = try await CatalogScaleTests.growth(small, large) { library in
            for source in library.sources {
                guard try await library.catalog.item(from: source) != nil else { throw CocoaError(.fileNoSuchFile) }
            }
        }
        #expect(lookup.ratio < CatalogScaleTests.allowedGrowth, "already there: \(lookup)")
    }

    @Test("an id and a prefix of it find the item among 2,000; a prefix that fits several finds none")
    func prefixesAmongMany() async throws {
        let large = try await Library(count: 2_000)
        let items = try await large.catalog.items()
        let some = items[1_234]
        #expect(try await large.catalog.item(id: some.id)?.id == some.id)
        #expect(try await large.catalog.item(id: String(some.id.prefix(8)))?.id == some.id)
        // One hex digit fits about 125 of the 2,000 ids.
        #expect(try await large.catalog.item(id: String(some.id.prefix(1))) == nil)
        #expect(try await large.catalog.item(id: some.id + "0") == nil)
        // What a prefix of several fits: those ids, in order, at most as many as asked.
        let digit = String(some.id.prefix(1))
        let expected = items.map(\.id).filter { $0.hasPrefix(digit) }.sorted()
        #expect(expected.count > 11)
        #expect(try await large.catalog.items(idPrefix: digit, limit: 11).map(\.id) == Array(expected.prefix(11)))
        #expect(try await large.catalog.items(idPrefix: digit, limit: 10_000).map(\.id) == expected)
        #expect(try await large.catalog.items(idPrefix: "", limit: 11).isEmpty)
        #expect(try await large.catalog.items(idPrefix: "zz", limit: 11).isEmpty)
    }
}

/// Every catalog query is served by an index, and a catalog made before the indexes were
/// added opens and gains them.
@Suite("Catalog indexes")
struct CatalogIndexTests {
    typealias Scratch = ImportSessionTests.Scratch

    @Test("no catalog query reads a whole table except the listing, which reads it in its index's order")
    func everyQueryUsesAnIndex() async throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.library, withIntermediateDirectories: true)
        let catalog = try ImportCatalog(folder: scratch.library)
        let plans = try await catalog.queryPlans()
        #expect(plans.count == ImportCatalog.Query.all.count)
        for (name, steps) in plans {
            for step in steps where step.hasPrefix("SCAN") {
                // The listing reads every item, in the order of the index on (imported_at, id); a
                // page reads the rows of its own subquery, a range on that index (below).
                let listing = name == "allItems" && step.contains("USING INDEX items_by_import")
                #expect(listing || (name == "itemsPage" && step == "SCAN i"), "\(name): \(step)")
            }
            #expect(!steps.isEmpty, "\(name)")
        }
        #expect(plans["knowsStoredName"]?.joined().contains("USING COVERING INDEX") == true)
        #expect(
            plans["itemsPage"]?.joined().contains("SEARCH items USING INDEX items_by_import ((imported_at,id)>(?,?))")
                == true)
        #expect(plans["idsWithPrefix"]?.joined().contains("id>? AND id<?") == true)
    }

    @Test(
        "pages of the listing, of any size, read every item once, in its order, none split",
        .timeLimit(.minutes(1)))
    func pagesReadTheListing() async throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.library, withIntermediateDirectories: true)
        let catalog = try ImportCatalog(folder: scratch.library)
        // Three items an import time (the page's key is the time, then the id), and every
        // fourth a Live Photo with its movie: two rows of the join for one item.
        var entries: [(ImportedItem, [StoredFile.Role: ImportCatalog.SourceKey])] = []
        for number in 0..<14 {
            let name = "IMG_\(number)"
            var files = [
                StoredFile(
                    role: .primary, name: name + ".HEIC", originalPath: "/c/" + name + ".HEIC", size: 10,
                    sha256: String(repeating: "a", count: 63) + String(number % 10), method: .copied)
            ]
            if number % 4 == 0 {
                files.append(
                    StoredFile(
                        role: .livePhotoMovie, name: name + ".MOV", originalPath: "/c/" + name + ".MOV", size: 20,
                        sha256: String(repeating: "b", count: 64), method: .copied))
            }
            let item = ImportedItem(
                id: String(format: "%02x", (number * 37) % 256) + "0000000000", kind: .image, originalName: name,
                originalPath: "/c/" + name, importedAt: 1_700_000_000 + Double(number / 3), files: files,
                info: MediaInfo(kind: .image, container: .heif, fileSize: 10))
            entries.append((item, [:]))
        }
        try await catalog.recordAll(entries)
        let all = try await catalog.items()
        #expect(all.count == 14)
        for limit in [1, 2, 3, 5, 14, 50] {
            var pages: [[ImportedItem]] = []
            var last: ImportedItem?
            repeat {
                let page = try await catalog.items(after: last, limit: limit)
                #expect(page.count <= limit)
                pages.append(page)
                last = page.last
            } while pages.count < 100 && pages.last?.count == limit
            #expect(pages.flatMap { $0 } == all, "pages of \(limit)")
        }
        #expect(try await catalog.items(limit: 0).isEmpty)
        #expect(all.filter { $0.files.count == 2 }.count == 4)
        for limit in [0, 1, 3, 14, 50] {
            let read = try await catalog.readPages(of: limit, into: [ImportedItem]()) { $0 += $1 }
            #expect(read == all, "one snapshot in pages of \(limit)")
        }

        // An import time that is not a number (a catalog changed by hand) reads as 0 and sorts
        // after every number: the pages still end, with every item once, in the catalog's order.
        let path = scratch.library + "/.pickup/catalog.sqlite"
        try SQLiteDatabase(path: path).execute("UPDATE items SET imported_at = 'oops' WHERE id = '\(all[4].id)'")
        let damaged = try await catalog.items()
        #expect(damaged.map(\.id) == all.map(\.id).filter { $0 != all[4].id } + [all[4].id])
        for limit in [1, 2, 5] {
            let read = try await catalog.readPages(of: limit, into: [ImportedItem]()) { $0 += $1 }
            #expect(read.map(\.id) == damaged.map(\.id), "a damaged catalog in pages of \(limit)")
        }
    }

    @Test("a file imported by one spelling of its path is known by another, without being copied again")
    func knownByItsResolvedPath() async throws {
        let scratch = try Scratch()
        let photo = try scratch.add(.jpegPlain, as: "IMG_0001.JPG")
        // A folder that leads to the sources by a symbolic link: the same file, another path.
        try FileManager.default.createSymbolicLink(atPath: scratch.root + "/card", withDestinationPath: scratch.sources)
        let linked = scratch.root + "/card/IMG_0001.JPG"
        let session = try ImportSession(destination: scratch.library)
        let first = await session.run([ImportRequest(path: linked, info: try MediaProbe().probe(path: linked))])
        guard case .imported(let item) = first.first else {
            Issue.record("not imported: \(first)")
            return
        }
        #expect(try await session.catalog.item(importedFrom: photo)?.id == item.id)
        #expect(try await session.catalog.items(importedFrom: [photo, linked]).count == 2)
        // And imported again by its own path: reused, found by path, size and time.
        let again = await session.run([ImportRequest(path: photo, info: try MediaProbe().probe(path: photo))])
        guard case .reused(let reused) = again.first else {
            Issue.record("not reused: \(again)")
            return
        }
        #expect(reused.id == item.id)
    }

    @Test("a prefix's range ends just past its last character")
    func prefixRange() {
        #expect(ImportCatalog.upperBound(ofPrefix: "3f2a") == "3f2b")
        #expect(ImportCatalog.upperBound(ofPrefix: "a\u{D7FF}") == "a\u{E000}")
        #expect(ImportCatalog.upperBound(ofPrefix: "b\u{10FFFF}") == "c")
        #expect(ImportCatalog.upperBound(ofPrefix: "\u{10FFFF}") == nil)
    }

    @Test("a catalog made before the indexes opens, keeps its items and gains the indexes")
    func oldCatalogGainsIndexes() async throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(
            atPath: scratch.library + "/.pickup", withIntermediateDirectories: true)
        let path = scratch.library + "/.pickup/catalog.sqlite"
        do {
            // The first catalog's tables, with one item and without the listing's index.
            let old = try SQLiteDatabase(path: path)
            try old.execute(
                """
                CREATE TABLE items (id TEXT PRIMARY KEY, kind TEXT NOT NULL, original_name TEXT NOT NULL,
                    original_path TEXT NOT NULL, imported_at REAL NOT NULL, info TEXT NOT NULL);
                CREATE TABLE files (item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
                    role TEXT NOT NULL, stored_name TEXT NOT NULL UNIQUE, original_path TEXT NOT NULL,
                    size INTEGER NOT NULL, sha256 TEXT NOT NULL, source_size INTEGER NOT NULL,
                    source_modified INTEGER NOT NULL, PRIMARY KEY (item_id, role));
                CREATE TABLE thumbnails (item_id TEXT PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
                    name TEXT NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL);
                CREATE INDEX files_by_hash ON files(sha256);
                INSERT INTO items VALUES ('abcdef012345', 'image', 'IMG_1.JPG', '/c/IMG_1.JPG', 1700000000, '{}');
                INSERT INTO files VALUES ('abcdef012345', 'primary', 'IMG_1.JPG', '/c/IMG_1.JPG', 3, 'abcdef0123456789',
                    3, 5);
                PRAGMA user_version = 1;
                """)
        }
        let catalog = try ImportCatalog(folder: scratch.library)
        #expect(try await catalog.items().map(\.id) == ["abcdef012345"])
        #expect(try await catalog.item(id: "abcdef")?.originalName == "IMG_1.JPG")
        let plans = try await catalog.queryPlans()
        #expect(plans["allItems"]?.joined().contains("items_by_import") == true)
        #expect(plans["itemFromSource"]?.joined().contains("files_by_source") == true)
        // Read-only (list, show, verify), as it now is.
        let reader = try ImportCatalog(folder: scratch.library, readOnly: true)
        #expect(try await reader.item(id: "abc")?.files.map(\.name) == ["IMG_1.JPG"])
    }
}
