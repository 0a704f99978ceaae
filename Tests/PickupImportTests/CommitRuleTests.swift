import Testing

@testable import PickupImport

@Suite("Commit order: which of two same-size items records first")
struct CommitRuleTests {
    @Test func aLaterItemOfTheSameSizeWaitsForTheEarlierOnesHash() {
        var rule = CommitRule(sizes: [10, 20, 10])
        rule.hashed(2, sha256: "x")
        #expect(!rule.mayCommit(2), "item 0 has the same size and no hash yet")
        #expect(rule.mayCommit(1), "no earlier item of its size")
        rule.hashed(0, sha256: "y")
        #expect(rule.mayCommit(2), "item 0 differs")
    }

    @Test func aLaterItemOfTheSameNameWaitsUntilTheEarlierIsNamed() {
        // IMG_0001.JPG from two cards (different sizes), and a third photo of another name.
        var rule = CommitRule(sizes: [10, 20, 30], names: [["IMG_0001.JPG"], ["img_0001.jpg"], ["IMG_0002.JPG"]])
        rule.hashed(1, sha256: "b")
        rule.hashed(2, sha256: "c")
        #expect(!rule.mayCommit(1), "item 0 takes the name first, even if it finishes copying later")
        #expect(rule.mayCommit(2), "another name waits for nothing")
        rule.hashed(0, sha256: "a")
        #expect(rule.mayCommit(0))
        rule.finished(0)
        #expect(rule.mayCommit(1))
    }

    @Test func sameContentWaitsUntilTheEarlierIsDone() {
        var rule = CommitRule(sizes: [10, 10])
        rule.hashed(0, sha256: "x")
        rule.hashed(1, sha256: "x")
        #expect(rule.mayCommit(0))
        #expect(!rule.mayCommit(1))
        rule.finished(0)
        #expect(rule.mayCommit(1))
    }

    @Test func aChangeLetsGoOnlyLaterItemsOfItsSizeBeforeTheFirstWithoutAHash() {
        var rule = CommitRule(sizes: [10, 10, 10, 10])
        rule.hashed(2, sha256: "c")
        rule.hashed(3, sha256: "d")
        #expect(rule.ready(among: [2, 3], after: 3).isEmpty, "items 0 and 1 have no hash yet")
        rule.hashed(0, sha256: "a")
        #expect(rule.ready(among: [2, 3], after: 0).isEmpty, "item 1 still holds both back")
        rule.hashed(1, sha256: "b")
        #expect(Set(rule.ready(among: [2, 3], after: 1)) == [2, 3])
    }

    /// Random runs of the rule, as `CommitOrder` drives it: after each hash or end, the items
    /// `ready(among:after:)` lets go are exactly the waiting ones that `mayCommit`, and every
    /// item ends.
    @Test(arguments: 1...40) func readyLetsGoExactlyTheWaitingItemsThatMayCommit(seed: UInt64) {
        var random = SplitMix(state: seed)
        let count = 24
        let sizes = (0..<count).map { _ in Int64(random.next() % 3) }
        let names = (0..<count).map { _ in
            (0..<(random.next() % 3)).map { _ in ["A", "b", "a", "c"][Int(random.next() % 4)] }
        }
        var rule = CommitRule(sizes: sizes, names: names)
        var unhashed = Array(0..<count)
        var waiting: Set<Int> = []
        var recording: [Int] = []
        var ended = 0
        while ended < count {
            let changed: Int
            let hashing = !unhashed.isEmpty && (recording.isEmpty || random.next() % 2 == 0)
            if hashing {
                changed = unhashed.remove(at: Int(random.next() % UInt64(unhashed.count)))
                rule.hashed(changed, sha256: ["x", "y", "z"][Int(random.next() % 3)])
            } else {
                #expect(!recording.isEmpty, "nothing records, so nothing can end: seed \(seed)")
                guard !recording.isEmpty else { return }
                changed = recording.remove(at: Int(random.next() % UInt64(recording.count)))
                rule.finished(changed)
                ended += 1
            }
            let expected = waiting.filter { rule.mayCommit($0) }
            let letGo = Set(rule.ready(among: waiting, after: changed))
            #expect(letGo == expected, "seed \(seed), after item \(changed)")
            waiting.subtract(expected)
            recording += expected
            // As `waitForTurn`: the item just hashed records at once or waits.
            if hashing {
                if rule.mayCommit(changed) { recording.append(changed) } else { waiting.insert(changed) }
            }
        }
        #expect(waiting.isEmpty)
    }
}

/// A small seeded generator (SplitMix64), so each argument replays the same run.
private struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
