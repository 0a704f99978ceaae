import Pickup
import Testing

/// The selection grid's thumbnails (`PickedThumbnails` on iPhone), decided by `ThumbnailMemo`:
/// SwiftUI runs a tile's `task` each time the tile appears (a lazy grid makes tiles again as
/// they scroll back), so the memo is what keeps a file from being decoded once per appearance.
@Suite("thumbnail memo: each file made once, the last ones kept")
struct ThumbnailMemoTests {
    /// What `begin` says for each file in turn: whether each should be made now.
    func appear(_ memo: inout ThumbnailMemo<Int>, _ files: String...) -> [Bool] {
        files.map { memo.begin($0) }
    }

    @Test("a file is made once: not again while it is being made, nor once it is kept")
    func madeOnce() {
        var memo = ThumbnailMemo<Int>(capacity: 10)
        #expect(appear(&memo, "/a.jpg", "/a.jpg") == [true, false], "a second appearance while it is made")
        #expect(memo.image("/a.jpg") == nil)
        memo.end("/a.jpg", 1)
        #expect(memo.image("/a.jpg") == 1)
        #expect(appear(&memo, "/a.jpg") == [false], "kept: shown, not made again")
    }

    @Test("a file that could not be made is not tried on every appearance; removeAll forgets it")
    func failureRemembered() {
        var memo = ThumbnailMemo<Int>()
        #expect(appear(&memo, "/broken.heic") == [true])
        memo.end("/broken.heic", nil)
        #expect(appear(&memo, "/broken.heic") == [false])
        #expect(memo.image("/broken.heic") == nil)
        memo.removeAll()
        #expect(appear(&memo, "/broken.heic") == [true], "after a memory warning every tile asks again")
    }

    @Test("beyond capacity the one asked for longest ago goes; one shown again is kept")
    func leastRecentGoes() {
        var memo = ThumbnailMemo<Int>(capacity: 3)
        #expect(appear(&memo, "/1", "/2", "/3") == [true, true, true])
        for (index, file) in ["/1", "/2", "/3"].enumerated() { memo.end(file, index) }
        // "/1" appears again (scrolled back to): now the most recent; then a new one comes.
        #expect(appear(&memo, "/1", "/4") == [false, true])
        memo.end("/4", 4)
        #expect(memo.count == 3)
        #expect(memo.image("/2") == nil, "the least recent went")
        #expect(memo.image("/1") == 0 && memo.image("/3") == 2 && memo.image("/4") == 4)
        #expect(appear(&memo, "/2") == [true], "a file let go is made again when its tile appears")
    }

    @Test("a capacity below one keeps one")
    func capacityAtLeastOne() {
        var memo = ThumbnailMemo<Int>(capacity: 0)
        #expect(memo.capacity == 1)
        _ = appear(&memo, "/a", "/b")
        memo.end("/a", 1)
        memo.end("/b", 2)
        #expect(memo.count == 1 && memo.image("/b") == 2)
    }
}
