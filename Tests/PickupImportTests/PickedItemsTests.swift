import Foundation
import Pickup
import PickupImport
import PickupTestSupport
import Testing

/// The library picker's loading decisions, driven through fakes that behave as Apple documents
/// `PhotosPickerItem`, `NSItemProvider` and `PHAssetResource` (see `AppleFakes/`).
@Suite("Picked items")
@MainActor
struct PickedItemsTests {
    /// A scratch library, an inbox, and the media the fake Photos hands over.
    final class Picking: Sendable {
        let root: String
        let session: ImportSession
        let inbox: PickedFileInbox

        init() throws {
            root = Temporary.path("picking")
            session = try ImportSession(destination: root + "/library")
            inbox = PickedFileInbox(folder: root + "/inbox")
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        @MainActor
        func model(motion: LivePhotoMotion = .pair, concurrency: Int = 3) -> PickedItems<FakePickedItem> {
            PickedItems(
                loading: PickedItemLoading(
                    importer: PickedItemImporter(session: session, inbox: inbox), motion: motion),
                concurrency: concurrency)
        }

        /// A Live Photo's still (HEIF with Apple's content identifier) and movie, written under `root`.
        func livePhotoFiles() throws -> (still: String, movie: String) {
            var tiff = TIFFBuilder()
            tiff.exif = [
                (
                    0x927C,
                    .undefined(TIFFBuilder.appleMakerNote(contentIdentifier: "1E2D3C4B-5A69-7887-96A5-B4C3D2E1F001"))
                )
            ]
            var heif = HEIFBuilder()
            heif.exif = tiff.build()
            let still = root + "/IMG_0004.HEIC"
            try Data(heif.build()).write(to: URL(fileURLWithPath: still))
            return (still, try Fixtures.path(.movAppleKeys))
        }

        func photo(_ identifier: String, gate: FakeGate? = nil, log: FakeLog = FakeLog()) throws -> FakePickedItem {
            FakePickedItem(
                identifier: identifier, kind: .image, file: try Fixtures.path(.jpegPlain), contentType: "public.jpeg",
                gate: gate, log: log)
        }

        func photos(_ identifiers: [String], gate: FakeGate? = nil, log: FakeLog = FakeLog()) throws -> [FakePickedItem]
        {
            try identifiers.map { try photo($0, gate: gate, log: log) }
        }

        func livePhoto(
            _ identifier: String, edited: Bool = false, writeFailure: FakePhotosError? = nil,
            failingRoles: Set<PickedResource.Role>? = nil, log: FakeLog = FakeLog()
        ) throws -> FakePickedItem {
            let (still, movie) = try livePhotoFiles()
            var resources = [
                PickedResource(role: .photo, originalFilename: "IMG_0004.HEIC", contentType: "public.heic", index: 0),
                PickedResource(
                    role: .pairedVideo, originalFilename: "IMG_0004.MOV", contentType: "com.apple.quicktime-movie",
                    index: 1),
            ]
            if edited {
                // `PhotosTypes.h:181,186` declare `fullSizePhoto` and `fullSizePairedVideo`: Photos lists
                // them for a Live Photo the person edited, beside the originals.
                resources += [
                    PickedResource(
                        role: .fullSizePhoto, originalFilename: "FullSizeRender.heic", contentType: "public.heic",
                        index: 2),
                    PickedResource(
                        role: .fullSizePairedVideo, originalFilename: "FullSizeRender.mov",
                        contentType: "com.apple.quicktime-movie", index: 3),
                    PickedResource(
                        role: .other, originalFilename: "Adjustments.plist", contentType: "com.apple.property-list",
                        index: 4),
                ]
            }
            return FakePickedItem(
                identifier: identifier, kind: .livePhoto, file: still, contentType: "public.heic", resources: resources,
                resourceFiles: [0: still, 1: movie, 2: still, 3: movie], writeFailure: writeFailure,
                failingRoles: failingRoles, log: log)
        }
    }

    /// Waits (briefly, yielding to the loads) until `done` holds.
    func settle(_ done: () -> Bool) async {
        for _ in 0..<2000 where !done() { try? await Task.sleep(nanoseconds: 5_000_000) }
    }

    func isReady(_ state: PickedItemTile<String>.State?) -> Bool { state == .ready }
    func isFailed(_ state: PickedItemTile<String>.State?) -> Bool {
        if case .failed = state { return true }
        return false
    }

    @Test("a Live Photo arrives as still and movie, with no photo-library permission asked")
    func livePhotoPair() async throws {
        let picking = try Picking()
        let model = picking.model()
        model.follow([try picking.livePhoto("live")])
        #expect(model.thumbnailFile("live") == nil, "no thumbnail while it loads")
        await settle { !isLoading(model.states["live"]) }
        let item = try #require(model.items["live"])
        #expect(item.imported?.isLivePhoto == true)
        #expect(item.note == nil)
        // What to upload: the still, then the movie, each with its type, both in the library.
        let sent = item.filesToSend(from: picking.session)
        #expect(sent.map(\.type) == ["image/heic", "video/quicktime"])
        #expect(sent.allSatisfy { FileManager.default.fileExists(atPath: $0.path) && $0.path.hasPrefix(picking.root) })
        // The tile's thumbnail is made of the still, in the library.
        #expect(model.thumbnailFile("live") == sent.first?.path)
    }

    @Test("an edited Live Photo brings its full-size still and movie (the person's edits)")
    func livePhotoEdits() async throws {
        let picking = try Picking()
        let log = FakeLog()
        let model = picking.model()
        model.follow([try picking.livePhoto("live", edited: true, log: log)])
        await settle { isReady(model.states["live"]) || isFailed(model.states["live"]) }
        #expect(log.all.contains(.write("live", .fullSizePhoto)))
        #expect(log.all.contains(.write("live", .fullSizePairedVideo)))
        #expect(!log.all.contains(.write("live", .photo)))
        #expect(model.items["live"]?.imported?.isLivePhoto == true)
    }

    @Test("a Live Photo whose movie Photos refuses keeps its still and says so")
    func livePhotoWithoutMotion() async throws {
        let picking = try Picking()
        let model = picking.model()
        model.follow([try picking.livePhoto("live", writeFailure: .libraryAccessDenied)])
        await settle { isReady(model.states["live"]) || isFailed(model.states["live"]) }
        #expect(isReady(model.states["live"]))
        let item = try #require(model.items["live"])
        #expect(item.imported?.isLivePhoto == false)
        #expect(item.imported?.kind == .image)
        guard case .livePhotoWithoutMotion = item.note else {
            Issue.record("no note on a Live Photo kept without its movie")
            return
        }
    }

    @Test("a Live Photo whose movie alone fails keeps the still already written, not loaded again")
    func livePhotoMovieFails() async throws {
        let picking = try Picking()
        let log = FakeLog()
        let model = picking.model()
        model.follow([
            try picking.livePhoto("live", writeFailure: .iCloudUnavailable, failingRoles: [.pairedVideo], log: log)
        ])
        await settle { isReady(model.states["live"]) || isFailed(model.states["live"]) }
        let item = try #require(model.items["live"])
        #expect(item.imported?.kind == .image && item.imported?.isLivePhoto == false)
        #expect(log.count(.loadFile("live")) == 0)
        guard case .livePhotoWithoutMotion = item.note else {
            Issue.record("no note on a Live Photo kept without its movie")
            return
        }
    }

    @Test("still-only motion reads no Live Photo resources")
    func stillOnly() async throws {
        let picking = try Picking()
        let log = FakeLog()
        let model = picking.model(motion: .stillOnly)
        model.follow([try picking.livePhoto("live", log: log)])
        await settle { isReady(model.states["live"]) || isFailed(model.states["live"]) }
        #expect(isReady(model.states["live"]))
        #expect(log.count(.resources("live")) == 0)
        #expect(model.items["live"]?.note == nil)
    }

    @Test("deselecting an item that is loading cancels its load, and it never comes back")
    func deselectCancels() async throws {
        let picking = try Picking()
        let gate = FakeGate()
        let log = FakeLog()
        let model = picking.model()
        let slow = try picking.photo("slow", gate: gate, log: log)
        let quick = try picking.photo("quick")
        model.follow([slow, quick])
        await settle { isReady(model.states["quick"]) }
        model.follow([quick])
        await settle { log.count(.cancelled("slow")) == 1 }
        #expect(log.count(.cancelled("slow")) == 1)
        gate.open()
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(model.keys == ["quick"])
        #expect(model.states["slow"] == nil)
        #expect(model.items["slow"] == nil)
        #expect(model.ready.map(\.key) == ["quick"])
    }

    /// Two photos a picker made without the photo library hands over: no identifiers, each its
    /// own file (told apart by size), told apart by their values when `values` says so.
    func unidentified(_ picking: Picking, values: Bool) throws -> [FakePickedItem] {
        try [(Fixture.jpegPlain, "a"), (Fixture.jpegEXIF, "b")].map { fixture, value in
            FakePickedItem(
                identifier: nil, value: values ? value : nil, kind: .image, file: try Fixtures.path(fixture),
                contentType: "public.jpeg")
        }
    }

    @Test(
        "without identifiers, deselecting the first item leaves the second with its own file", arguments: [true, false])
    func deselectUnidentified(values: Bool) async throws {
        let picking = try Picking()
        let model = picking.model()
        let both = try unidentified(picking, values: values)
        model.follow(both)
        await settle { model.ready.count == 2 }
        let sizes = model.ready.map { $0.imported?.info.fileSize }
        let firstCopy = try #require(model.ready.first?.imported?.primary).name
        model.follow([both[1]])
        await settle { model.ready.count == 1 }
        #expect(model.keys.count == 1)
        #expect(model.ready.map { $0.imported?.info.fileSize } == [sizes[1]], "the second photo's own file")
        if values {
            // Told apart: the second keeps its key and its load; the first's copy is gone.
            #expect(model.key(of: both[1]) == model.keys.first)
            #expect(model.key(of: both[0]) == nil)
        }
        await settle { !FileManager.default.fileExists(atPath: picking.root + "/library/" + firstCopy) }
        #expect(!FileManager.default.fileExists(atPath: picking.root + "/library/" + firstCopy))
    }

    @Test(
        "without identifiers or values, a selection replaced by others of the same kinds loads them, not the old files")
    func replacedUntold() async throws {
        let picking = try Picking()
        let model = picking.model()
        let first = try unidentified(picking, values: false)
        model.follow(first)
        await settle { model.ready.count == 2 }
        // Two other photos, in the same places and of the same kinds: their own files.
        let others = try [Fixture.jpegEXIF, .jpegPlain].map { fixture in
            FakePickedItem(identifier: nil, kind: .image, file: try Fixtures.path(fixture), contentType: "public.jpeg")
        }
        model.follow(others)
        await settle { model.ready.count == 2 && Set(model.keys).isDisjoint(with: first.indices.map { "#\($0 + 1)" }) }
        let sizes = try [Fixture.jpegEXIF, .jpegPlain].map {
            Int64(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path($0))).count)
        }
        #expect(model.ready.map { $0.imported?.primary?.size } == sizes)
    }

    @Test("take() hands each loaded item over once; one deselected after keeps its copy for its upload")
    func takeHandsOver() async throws {
        let picking = try Picking()
        let model = picking.model()
        let a = try picking.photo("a")
        let b = FakePickedItem(
            identifier: "b", kind: .image, file: try Fixtures.path(.jpegEXIF), contentType: "public.jpeg")
        model.follow([a])
        await settle { model.ready.count == 1 }
        #expect(model.take().map(\.key) == ["a"])
        #expect(model.take().isEmpty, "not handed over twice")
        let copy = try #require(model.items["a"]?.imported?.primary).name
        model.follow([a, b])
        await settle { model.ready.count == 2 }
        #expect(model.notTaken.map(\.key) == ["b"])
        model.follow([b])
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(FileManager.default.fileExists(atPath: picking.root + "/library/" + copy), "its upload reads it")
        #expect(model.take().map(\.key) == ["b"])
    }

    @Test("removing a tile while it loads does not put it back when the load ends")
    func removeWhileLoading() async throws {
        let picking = try Picking()
        let gate = FakeGate()
        let model = picking.model()
        model.follow([try picking.photo("a", gate: gate)])
        model.remove("a")
        gate.open()
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(model.items.isEmpty)
        #expect(model.states.isEmpty)
        #expect(model.keys.isEmpty)
    }

    @Test("a selection that grows loads only the new items")
    func nothingLoadsTwice() async throws {
        let picking = try Picking()
        let log = FakeLog()
        let gate = FakeGate()
        let model = picking.model()
        let a = try picking.photo("a", gate: gate, log: log)
        let b = try picking.photo("b", log: log)
        model.follow([a])
        model.follow([a, b])
        model.follow([a, b])
        gate.open()
        await settle { isReady(model.states["a"]) && isReady(model.states["b"]) }
        #expect(log.count(.loadFile("a")) == 1)
        #expect(log.count(.loadFile("b")) == 1)
    }

    @Test("each item is ready when it is done; ready items keep the selection's order")
    func deliveredWhenDone() async throws {
        let picking = try Picking()
        let gate = FakeGate()
        let model = picking.model(concurrency: 3)
        let items = [try picking.photo("video", gate: gate)] + (try picking.photos(["p1", "p2", "p3", "p4"]))
        model.follow(items)
        await settle { (1...4).allSatisfy { isReady(model.states["p\($0)"]) } }
        #expect((1...4).allSatisfy { isReady(model.states["p\($0)"]) })
        #expect(isLoading(model.states["video"]))
        gate.open()
        await settle { isReady(model.states["video"]) }
        #expect(model.ready.map(\.key) == ["video", "p1", "p2", "p3", "p4"])
    }

    @Test("at most `concurrency` items load at once")
    func concurrencyLimit() async throws {
        let picking = try Picking()
        let gate = FakeGate()
        let log = FakeLog()
        let model = picking.model(concurrency: 2)
        model.follow(try picking.photos(["p1", "p2", "p3", "p4"], gate: gate, log: log))
        func started() -> Int { log.all.filter { if case .loadFile = $0 { return true } else { return false } }.count }
        await settle { started() >= 2 }
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(started() == 2)
        gate.open()
        await settle { (1...4).allSatisfy { isReady(model.states["p\($0)"]) } }
        #expect((1...4).allSatisfy { isReady(model.states["p\($0)"]) })
    }

    @Test("a failed item loads again with retry")
    func retry() async throws {
        let picking = try Picking()
        let log = FakeLog()
        let failing = FakePickedItem(
            identifier: "cloud", kind: .image, file: try Fixtures.path(.jpegPlain), contentType: "public.jpeg",
            loadFailure: .iCloudUnavailable, log: log)
        let model = picking.model()
        model.follow([failing])
        await settle { isFailed(model.states["cloud"]) }
        guard case .failed(let message) = model.states["cloud"] else {
            Issue.record("the item did not fail")
            return
        }
        #expect(message.contains("iCloud"))
        failing.loadFailure.withValue { $0 = nil }
        model.retry("cloud")
        await settle { isReady(model.states["cloud"]) }
        #expect(isReady(model.states["cloud"]))
        #expect(log.count(.loadFile("cloud")) == 2)
    }

    @Test("preselected items are not loaded and never shown as failures")
    func preselectedSkipped() async throws {
        let picking = try Picking()
        let log = FakeLog()
        let model = picking.model()
        model.follow([FakePickedItem.preselected("old", log: log), try picking.photo("new")])
        await settle { isReady(model.states["new"]) }
        #expect(log.all.isEmpty)
        #expect(model.keys == ["new"])
        #expect(model.states["old"] == nil)
    }

    /// A model loading four photos one at a time: `done` ready, `broken` failed, `slow` loading
    /// (held by `gate`), `next` waiting its turn; and the plan of the picker opened again.
    func fourStates() async throws -> (
        picking: Picking, gate: FakeGate, log: FakeLog, model: PickedItems<FakePickedItem>, items: [FakePickedItem],
        plan: PickerSelectionPlan
    ) {
        let picking = try Picking()
        let gate = FakeGate()
        let log = FakeLog()
        let model = picking.model(concurrency: 1)
        let broken = FakePickedItem(
            identifier: "broken", kind: .image, file: try Fixtures.path(.jpegPlain), contentType: "public.jpeg",
            loadFailure: .iCloudUnavailable, log: log)
        let items =
            [try picking.photo("done", log: log), broken]
            + (try picking.photos(["slow", "next"], gate: gate, log: log))
        model.follow(items)
        await settle { log.count(.loadFile("slow")) == 1 }
        #expect(isReady(model.states["done"]) && isFailed(model.states["broken"]))
        #expect(model.states["next"] == .loading(fraction: nil))
        return (
            picking, gate, log, model, items, PickerSelectionPlan(limit: 10, preselected: model.keys, ordered: true)
        )
    }

    @Test("the UIKit picker opened again and cancelled leaves every item as it was, loading or not")
    func uikitPickerCancelled() async throws {
        let (picking, gate, log, model, items, plan) = try await fourStates()
        defer { withExtendedLifetime(picking) {} }  // its scratch library, until the end
        #expect(plan.preselected == ["done", "broken", "slow", "next"])
        model.follow(returned: FakePickedItem.pickerResults(preselected: plan.preselected, selected: nil), opened: plan)
        #expect(model.keys == ["done", "broken", "slow", "next"])
        #expect(isFailed(model.states["broken"]), "still there to try again")
        #expect(log.count(.cancelled("slow")) == 0)
        gate.open()
        await settle { isReady(model.states["next"]) }
        #expect(model.ready.map(\.key) == ["done", "slow", "next"])
        // The failed one is tried again with the provider it came with (the one back is empty).
        items[1].loadFailure.withValue { $0 = nil }
        model.retry("broken")
        await settle { isReady(model.states["broken"]) }
        #expect(model.ready.map(\.key) == ["done", "broken", "slow", "next"])
        #expect(log.count(.loadFile("done")) == 1 && log.count(.loadFile("next")) == 1)
    }

    @Test("the UIKit picker opened again: what stays is kept, what is deselected goes, what is new loads")
    func uikitPickerChanged() async throws {
        let (picking, gate, log, model, items, plan) = try await fourStates()
        let added = try picking.photo("added", log: log)
        let chosen = [items[3], items[0], added]  // `broken` and `slow` deselected, `next` put first
        model.follow(
            returned: FakePickedItem.pickerResults(preselected: plan.preselected, selected: chosen), opened: plan)
        #expect(model.keys == ["next", "done", "added"])
        await settle { log.count(.cancelled("slow")) == 1 }
        gate.open()
        await settle { isReady(model.states["added"]) && isReady(model.states["next"]) }
        #expect(model.ready.map(\.key) == ["next", "done", "added"])
        #expect(model.states["slow"] == nil && model.states["broken"] == nil)
        #expect(log.count(.loadFile("done")) == 1 && log.count(.loadFile("next")) == 1)
        // Everything deselected and Add tapped: nothing comes back, and that is not a cancel.
        let again = PickerSelectionPlan(limit: 10, preselected: model.keys, ordered: true)
        model.follow(
            returned: FakePickedItem.pickerResults(preselected: again.preselected, selected: []), opened: again)
        #expect(model.keys.isEmpty)
    }

    @Test("a single pick: Cancel keeps it (nothing is preselected, nothing comes back), another replaces it")
    func uikitPickerSingle() async throws {
        let picking = try Picking()
        let model = picking.model()
        let plan = { PickerSelectionPlan(limit: 1, preselected: model.keys, ordered: false) }
        model.follow(returned: [try picking.photo("first")], opened: plan())
        await settle { isReady(model.states["first"]) }
        let copy = try #require(model.items["first"]?.imported?.primary).name
        #expect(plan().preselected.isEmpty, "PHPicker.h:173: empty when selectionLimit is 1")
        model.follow(returned: FakePickedItem.pickerResults(preselected: [], selected: nil), opened: plan())
        #expect(model.keys == ["first"])
        let second = FakePickedItem(
            identifier: "second", kind: .image, file: try Fixtures.path(.jpegEXIF), contentType: "public.jpeg")
        model.follow(returned: [second], opened: plan())
        await settle { isReady(model.states["second"]) }
        #expect(model.keys == ["second"])
        await settle { !FileManager.default.fileExists(atPath: picking.root + "/library/" + copy) }
        #expect(
            !FileManager.default.fileExists(atPath: picking.root + "/library/" + copy), "the replaced pick's copy goes")
    }

    @Test("a failed item picked again loads with the provider it comes back with, not the old one")
    func uikitPickerRepicked() async throws {
        let picking = try Picking()
        let log = FakeLog()
        let model = picking.model()
        let plan = { PickerSelectionPlan(limit: 1, preselected: model.keys, ordered: false) }
        let broken = FakePickedItem(
            identifier: "cloud", kind: .image, file: try Fixtures.path(.jpegPlain), contentType: "public.jpeg",
            loadFailure: .iCloudUnavailable, log: log)
        model.follow(returned: [broken], opened: plan())
        await settle { isFailed(model.states["cloud"]) }
        // With a limit of one nothing is preselected: the item picked again comes with a provider
        // of its own (the old one stays broken here).
        model.follow(returned: [try picking.photo("cloud", log: log)], opened: plan())
        await settle { isReady(model.states["cloud"]) }
        #expect(isReady(model.states["cloud"]))
        #expect(log.count(.loadFile("cloud")) == 2)
    }

    @Test("a preselected item shows what restore gave it")
    func preselectedRestored() async throws {
        let picking = try Picking()
        let model = picking.model()
        model.follow([try picking.photo("old")])
        await settle { isReady(model.states["old"]) }
        let kept = try #require(model.items["old"])
        let next = picking.model()
        next.restore([kept])
        next.follow([FakePickedItem.preselected("old")])
        #expect(next.keys == ["old"])
        #expect(next.ready.map(\.key) == ["old"])
        // Deselected in this session, an earlier session's copy stays: its upload may read it.
        let copy = try #require(kept.imported?.primary).name
        next.follow([])
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(next.keys.isEmpty)
        #expect(FileManager.default.fileExists(atPath: picking.root + "/library/" + copy))
    }

    @Test("a file in a format Pickup cannot read is kept, unprobed, with its content type")
    func unknownFormatKept() async throws {
        let picking = try Picking()
        let document = picking.root + "/scan.pdf"
        try Data("%PDF-1.7\n%\u{00e2}\u{00e3}\n1 0 obj\n".utf8).write(to: URL(fileURLWithPath: document))
        let model = picking.model()
        model.follow([FakePickedItem(identifier: "pdf", kind: .other, file: document, contentType: "com.adobe.pdf")])
        await settle { isReady(model.states["pdf"]) || isFailed(model.states["pdf"]) }
        let item = try #require(model.items["pdf"])
        guard case .unprobed(let file) = item.stored else {
            Issue.record("the file was not kept unprobed: \(item.stored)")
            return
        }
        #expect(file.contentType == "com.adobe.pdf")
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(model.thumbnailFile("pdf") == nil, "no picture Pickup can read: the tile shows none")
    }

    @Test("the inbox copy is gone once the library has the file")
    func inboxEmptied() async throws {
        let picking = try Picking()
        let model = picking.model()
        model.follow([try picking.photo("a")])
        await settle { isReady(model.states["a"]) }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: picking.inbox.folder)) ?? []
        #expect(left.isEmpty)
        let item = try #require(model.items["a"]?.imported)
        #expect(FileManager.default.fileExists(atPath: picking.session.path(of: try #require(item.primary))))
    }

    @Test("iCloud progress reaches the tile")
    func progressShown() async throws {
        let picking = try Picking()
        let gate = FakeGate()
        let model = picking.model()
        model.follow([try picking.photo("a", gate: gate)])
        await settle { model.states["a"] == .loading(fraction: 0) }
        #expect(model.states["a"] == .loading(fraction: 0))
        gate.open()
        await settle { isReady(model.states["a"]) }
    }
}

func isLoading(_ state: PickedItemTile<String>.State?) -> Bool {
    if case .loading = state { return true }
    return false
}

@Suite("Picked items: the grid")
@MainActor
struct PickedItemsGridTests {
    @Test("tiles follow the selection's order, with order badges and a Live Photo badge before loading")
    func tilesInOrder() async throws {
        let picking = try PickedItemsTests.Picking()
        let gate = FakeGate()
        let model = picking.model()
        let live = FakePickedItem(identifier: "live", kind: .livePhoto, gate: gate)
        model.follow([try picking.photo("b"), live, try picking.photo("a")])
        let tiles = model.tiles()
        #expect(tiles.map(\.id) == ["b", "live", "a"])
        #expect(tiles.map(\.orderBadge) == [1, 2, 3])
        #expect(tiles[1].isLivePhoto)
        model.cancelAll()
    }
}

@Suite("Picked items: what a deselection leaves")
@MainActor
struct PickedItemsCleanupTests {
    @Test("a loaded item the person deselects takes its new library copy with it")
    func deselectedCopyRemoved() async throws {
        let picking = try PickedItemsTests.Picking()
        let model = picking.model()
        model.follow([try picking.photo("a")])
        for _ in 0..<2000 where model.states["a"] != .ready { try await Task.sleep(nanoseconds: 5_000_000) }
        let item = try #require(model.items["a"]?.imported)
        let stored = picking.session.path(of: try #require(item.primary))
        #expect(FileManager.default.fileExists(atPath: stored))
        model.follow([])
        for _ in 0..<400 where FileManager.default.fileExists(atPath: stored) {
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        #expect(!FileManager.default.fileExists(atPath: stored))
        #expect(try await picking.session.catalog.items().isEmpty)
    }

    @Test("an item the library held before the pick stays when it is deselected")
    func heldBeforeStays() async throws {
        let picking = try PickedItemsTests.Picking()
        let first = picking.model()
        first.follow([try picking.photo("a")])
        for _ in 0..<2000 where first.states["a"] != .ready { try await Task.sleep(nanoseconds: 5_000_000) }
        let second = picking.model()
        second.follow([try picking.photo("b")])
        for _ in 0..<2000 where second.states["b"] != .ready { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(second.items["b"]?.isNew == false)
        second.follow([])
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(try await picking.session.catalog.items().count == 1)
    }

    @Test("stopping every load leaves items that can be tried again, not spinners")
    func cancelAllLeavesRetry() async throws {
        let picking = try PickedItemsTests.Picking()
        let gate = FakeGate()
        let model = picking.model()
        model.follow([try picking.photo("a", gate: gate)])
        model.cancelAll()
        guard case .failed = model.states["a"] else {
            Issue.record("a stopped item is \(String(describing: model.states["a"]))")
            return
        }
        gate.open()
        model.retry("a")
        for _ in 0..<2000 where model.states["a"] != .ready { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(model.states["a"] == .ready)
    }
}
