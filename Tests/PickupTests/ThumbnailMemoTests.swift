import Pickup
import Testing

/// The selection grid's thumbnails (`PickedThumbnails` on iPhone), decided by `ThumbnailMemo`:
/// SwiftUI runs a tile's `task` each time the tile appears (a lazy grid makes tiles again as
/// they scroll back), so the memo is what keeps a file from being decoded once per appearance,
/// and a fast scroll from decoding every file at once.
@Suite("thumbnail memo: each file made once, a few at a time, the last ones kept")
struct ThumbnailMemoTests {
    typealias Start = ThumbnailMemo<Int>.Start

    /// What `begin` says for each file in turn.
    func appear(_ memo: inout ThumbnailMemo<Int>, _ files: String...) -> [Start] {
        files.map { memo.begin($0) }
    }

    @Test("a file is made once: not again while it is being made, nor once it is kept")
    func madeOnce() {
        var memo = ThumbnailMemo<Int>(capacity: 10)
        #expect(appear(&memo, "/a.jpg", "/a.jpg") == [.now, .no], "a second appearance while it is made")
        #expect(memo.image("/a.jpg") == nil)
        #expect(memo.end("/a.jpg", 1) == nil)
        #expect(memo.image("/a.jpg") == 1)
        #expect(appear(&memo, "/a.jpg") == [.no], "kept: shown, not made again")
    }

    @Test("a file that could not be made is not tried on every appearance; removeAll forgets it")
    func failureRemembered() {
        var memo = ThumbnailMemo<Int>()
        #expect(appear(&memo, "/broken.heic") == [.now])
        _ = memo.end("/broken.heic", nil)
        #expect(appear(&memo, "/broken.heic") == [.no])
        #expect(memo.image("/broken.heic") == nil)
        memo.removeAll()
        #expect(appear(&memo, "/broken.heic") == [.now], "after a memory warning every tile asks again")
    }

    @Test("a fast scroll: two made at once, the rest wait in the order they appeared")
    func fewAtOnce() {
        var memo = ThumbnailMemo<Int>(concurrency: 2)
        #expect(appear(&memo, "/1", "/2", "/3", "/4", "/3") == [.now, .now, .later, .later, .no])
        #expect(memo.end("/1", 1) == "/3", "the first to wait is the next")
        #expect(memo.end("/2", 2) == "/4")
        #expect(memo.end("/3", 3) == nil)
        #expect(appear(&memo, "/5") == [.now], "one of two slots is free")
    }

    @Test("beyond capacity the one asked for longest ago goes; one shown again is kept")
    func leastRecentGoes() {
        var memo = ThumbnailMemo<Int>(capacity: 3, concurrency: 3)
        #expect(appear(&memo, "/1", "/2", "/3") == [.now, .now, .now])
        for (index, file) in ["/1", "/2", "/3"].enumerated() { _ = memo.end(file, index) }
        // "/1" appears again (scrolled back to): now the most recent; then a new one comes.
        #expect(appear(&memo, "/1", "/4") == [.no, .now])
        _ = memo.end("/4", 4)
        #expect(memo.count == 3)
        #expect(memo.image("/2") == nil, "the least recent went")
        #expect(memo.image("/1") == 0 && memo.image("/3") == 2 && memo.image("/4") == 4)
        #expect(appear(&memo, "/2") == [.now], "a file let go is made again when its tile appears")
    }

    @Test("a capacity or concurrency below one is one")
    func atLeastOne() {
        var memo = ThumbnailMemo<Int>(capacity: 0, concurrency: 0)
        #expect(memo.capacity == 1 && memo.concurrency == 1)
        #expect(appear(&memo, "/a", "/b") == [.now, .later])
        #expect(memo.end("/a", 1) == "/b")
        _ = memo.end("/b", 2)
        #expect(memo.count == 1 && memo.image("/b") == 2)
    }
}
