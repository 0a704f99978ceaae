import Testing

@testable import PickupUpload

/// The rule for a tus upload's next chunk size, without a server or a clock.
@Suite("tus chunk sizes: grow while quick, halve when slow, stop at a failure")
struct TusChunkSizesTests {
    static let first = 8 << 20

    @Test("doubles after each whole chunk under 5 s, up to the largest")
    func grows() {
        var sizes = TusChunkSizes(first: Self.first, largest: 32 << 20)
        var seen: [Int] = []
        for _ in 0..<4 {
            seen.append(sizes.next >> 20)
            sizes.took(sizes.next, whole: true, seconds: 1)
        }
        #expect(seen == [8, 16, 32, 32])
    }

    @Test("a chunk of 5 to 10 s keeps the size; one of 10 s or more halves it, never below the first")
    func slows() {
        var sizes = TusChunkSizes(first: Self.first, largest: 64 << 20)
        for _ in 0..<3 { sizes.took(sizes.next, whole: true, seconds: 1) }
        #expect(sizes.next == 64 << 20)
        sizes.took(sizes.next, whole: true, seconds: 7)
        #expect(sizes.next == 64 << 20)
        sizes.took(sizes.next, whole: true, seconds: 12)
        #expect(sizes.next == 32 << 20)
        for _ in 0..<4 { sizes.took(sizes.next, whole: true, seconds: 30) }
        #expect(sizes.next == Self.first)
        // The link quick again: growth goes on.
        sizes.took(sizes.next, whole: true, seconds: 1)
        #expect(sizes.next == 16 << 20)
    }

    @Test("a grown chunk refused as too large: back to the largest that passed, remembered; a cut: back to the first")
    func failures() {
        var refused = TusChunkSizes(first: Self.first, largest: 64 << 20)
        refused.took(Self.first, whole: true, seconds: 1)
        refused.took(16 << 20, whole: true, seconds: 1)
        let grownRefused = refused.failed(32 << 20, refused: true)
        #expect(grownRefused)
        #expect(refused.next == 16 << 20 && refused.largestPassedBeforeRefusal == 16 << 20)
        refused.took(16 << 20, whole: true, seconds: 1)
        #expect(refused.next == 16 << 20, "no more growth")
        let passedRefused = refused.failed(16 << 20, refused: true)
        #expect(!passedRefused, "the size that passed, refused: the error stands")

        var cut = TusChunkSizes(first: Self.first, largest: 64 << 20)
        cut.took(Self.first, whole: true, seconds: 1)
        let grownCut = cut.failed(16 << 20, refused: false)
        #expect(grownCut)
        #expect(cut.next == Self.first && cut.largestPassedBeforeRefusal == nil)
        let firstCut = cut.failed(Self.first, refused: false)
        #expect(!firstCut, "a first-size chunk that fails is retried at that size")
    }

    @Test("a ceiling found by another upload caps the growth")
    func ceiling() {
        var sizes = TusChunkSizes(first: Self.first, largest: 64 << 20)
        sizes.took(Self.first, whole: true, seconds: 1)
        sizes.took(16 << 20, whole: true, seconds: 1)
        sizes.limit(to: 12 << 20)
        #expect(sizes.next == 12 << 20)
        sizes.took(12 << 20, whole: true, seconds: 1)
        #expect(sizes.next == 12 << 20)
        sizes.limit(to: 1 << 20)
        #expect(sizes.next == Self.first, "never below the first size")
    }
}
