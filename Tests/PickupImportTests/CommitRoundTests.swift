import Foundation
import Pickup
import PickupStore
import PickupTestSupport
import Testing

@testable import PickupImport

/// Whether libraries in the temporary folder share their flushes (`FlushRounds`): ext4,
/// XFS or Btrfs on Linux 5.8 or later.
private var sharedFlushesHere: Bool {
    guard let scratch = try? ImportSessionTests.Scratch(),
        let session = try? ImportSession(destination: scratch.library)
    else {
        return false
    }
    return session.rounds != nil
}

/// A round of small photos named, recorded and flushed together (`ImportSession.nameRound`,
/// then `recordRound`), driven directly, so that what one round holds is chosen, not left to
/// timing.
// The time limits of these suites are hang guards: on a loaded 2-core run (the whole suite, its
// synchronous end-to-end tests holding the cooperative threads) a round that takes 0.03 s alone
// was measured to wait 177 s for a thread, past the one minute these had.
@Suite(
    "import commit rounds", .enabled(if: sharedFlushesHere, "the temporary folder shares no flushes"),
    .timeLimit(.minutes(5)))
struct CommitRoundTests {
    typealias Scratch = ImportSessionTests.Scratch

    /// `paths` copied to temporaries in the library and hashed, as an import's items are before
    /// their round.
    func made(_ paths: [String], in session: ImportSession) throws -> [ImportSession.Made] {
        try paths.map { path in
            let request = ImportRequest(path: path, info: try MediaProbe().probe(path: path))
            let copy = try FileCopier(folder: session.destination).copyToTemporary(
                path, flushing: false, progress: { _ in }, shouldStop: { false })
            return ImportSession.Made(
                request: request, keys: [try ImportSession.sourceKey(path)], copies: [copy], subfolder: "",
                infoJSON: ImportCatalog.factsJSON(request.info))
        }
    }

    @Test("copies written before a flush began are held by it: their round starts no flush of its own")
    func ticketsShareAFlush() async throws {
        let scratch = try Scratch()
        let session = try ImportSession(destination: scratch.library)
        let flushes = try #require(session.rounds)
        let written = flushes.ticket()  // a round's copies ended here
        try await flushes.flush(gathering: false)  // the round before it: its last flush
        let begun = flushes.ticket()
        #expect(begun == written + 1)
        try await flushes.flush(after: written, gathering: false)
        #expect(flushes.ticket() == begun, "the flush that ended holds them: none began")
        try await flushes.flush(after: begun, gathering: false)
        #expect(flushes.ticket() == begun + 1, "writes that ended after the last flush began wait for a new one")
    }

    @Test("two copies of one photo in one round: the first imported, the second that item, its own name undone")
    func sameContentInOneRound() async throws {
        let scratch = try Scratch()
        let first = try scratch.add(.jpegEXIF, as: "IMG_0001.JPG")
        let second = try scratch.add(.jpegEXIF, as: "IMG_0002.JPG")
        let session = try ImportSession(destination: scratch.library)
        let flushes = try #require(session.rounds)
        let results = await session.commitRound(try made([first, second], in: session), flushes: flushes)
        guard case .success(.imported(let item)) = results[0], case .success(.reused(let same)) = results[1] else {
            Issue.record("expected imported, then reused: \(results)")
            return
        }
        #expect(same.id == item.id)
        #expect(item.files.map(\.name) == ["IMG_0001.JPG"])
        #expect(try scratch.everything() == [".pickup", "IMG_0001.JPG"], "the second name was made, then unlinked")
        #expect(try await session.catalog.items().map(\.id) == [item.id])
    }

    @Test(
        "new small photos go in batches; the same bytes twice in one are one item, and the names after come out as if it had waited"
    )
    func batches() async throws {
        let scratch = try Scratch()
        // Three photos named IMG_0001.JPG from three cards: the first two the same bytes.
        let first = try scratch.add(.jpegPlain, as: "IMG_0001.JPG", in: "100APPLE")
        let twin = try scratch.add(.jpegPlain, as: "IMG_0001.JPG", in: "101APPLE")
        let other = try scratch.add(.jpegEXIF, as: "IMG_0001.JPG", in: "102APPLE")
        let session = try ImportSession(destination: scratch.library)
        let requests = try [first, twin, other].map { ImportRequest(path: $0, info: try MediaProbe().probe(path: $0)) }
        let results = await session.run(requests)
        #expect(session.batchedItems.withValue { $0 } == 3, "one batch of three")
        guard case .imported(let item) = results[0], case .reused(let same) = results[1],
            case .imported(let third) = results[2]
        else {
            Issue.record("expected imported, reused, imported: \(results)")
            return
        }
        #expect(same.id == item.id)
        #expect([item.primary?.name, third.primary?.name] == ["IMG_0001.JPG", "IMG_0001 2.JPG"])
        #expect(try scratch.everything() == [".pickup", "IMG_0001 2.JPG", "IMG_0001.JPG"], "no name for the twin")
        #expect(try await session.catalog.items().count == 2)
    }

    @Test("a round whose transaction fails is undone: no name stays, nothing recorded, each item told why")
    func failedTransaction() async throws {
        let scratch = try Scratch()
        let photos = [try scratch.add(.jpegEXIF, as: "IMG_0001.JPG"), try scratch.add(.jpegPlain, as: "IMG_0002.JPG")]
        let session = try ImportSession(destination: scratch.library)
        let flushes = try #require(session.rounds)
        // The catalog refuses every new item (a second connection's trigger), as a damaged or
        // full one would.
        let other = try SQLiteDatabase(path: scratch.library + "/.pickup/catalog.sqlite")
        try other.execute("CREATE TRIGGER refuse BEFORE INSERT ON items BEGIN SELECT RAISE(ABORT, 'refused'); END")
        let results = await session.commitRound(try made(photos, in: session), flushes: flushes)
        #expect(results.count == 2)
        for result in results {
            guard case .failure(let error) = result else {
                Issue.record("expected a failure: \(result)")
                continue
            }
            #expect(error.code == .catalog, "\(error)")
        }
        #expect(try scratch.everything() == [".pickup"], "no name and no temporary left")
        #expect(try await session.catalog.items().isEmpty)
        // Nothing half-done stands in the way: once the catalog takes items, both import.
        try other.execute("DROP TRIGGER refuse")
        let requests = try photos.map { ImportRequest(path: $0, info: try MediaProbe().probe(path: $0)) }
        let again = await session.run(requests)
        let imported = again.map { result in
            if case .imported = result { return true } else { return false }
        }
        #expect(imported == [true, true], "\(again)")
        #expect(try scratch.stored() == ["IMG_0001.JPG", "IMG_0002.JPG"])
    }
}

extension ImportSession {
    /// One round through both stages, one after the other (as `CommitRounds` runs them, without
    /// the overlap): one result an item, in their order.
    fileprivate func commitRound(_ round: [Made], flushes: FlushRounds) async -> [Result<Copied, ImportError>] {
        let named = await nameRound(round, flushes: flushes)
        var recorded = await recordRound(named.compactMap { try? $0.get() }, flushes: flushes).makeIterator()
        return named.map { result in
            switch result {
            case .failure(let error): return .failure(error)
            case .success: return recorded.next() ?? .failure(ImportError(.cancelled, "not recorded"))
            }
        }
    }
}
