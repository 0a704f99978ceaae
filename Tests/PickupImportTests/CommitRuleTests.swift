import PickupTestSupport
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

    /// Random runs of the rule, as `CommitOrder` drives it: an item is hashed and then records
    /// or waits, or ends with no hash (refused, already there, failed); a recording item ends.
    /// After each change, the items `ready(among:after:)` lets go are exactly the waiting ones
    /// that a plain check over every earlier item allows, no item waits when that check allows
    /// it, and every item ends.
    @Test func readyLetsGoExactlyTheWaitingItemsThatMayCommit() {
        var letGo = 0
        for seed in UInt64(1)...200 {
            letGo += Self.simulate(seed: seed)
        }
        #expect(letGo > 200, "the runs let waiting items go: \(letGo)")
    }

    /// One run; how many waiting items it let go.
    private static func simulate(seed: UInt64) -> Int {
        var random = SplitMix64(seed: seed)
        let count = 24
        let sizes = (0..<count).map { _ in Int64(random.next() % 3) }
        let names = (0..<count).map { _ in
            (0..<(random.next() % 3)).map { _ in ["A", "b", "a", "c"][Int(random.next() % 4)] }
        }
        var rule = CommitRule(sizes: sizes, names: names)
        var hashes: [String?] = Array(repeating: nil, count: count)
        var done = Array(repeating: false, count: count)
        // The rule written out plainly: every earlier item, no groups, no fronts.
        func allowed(_ index: Int) -> Bool {
            let mine = Set(names[index].map { $0.lowercased() })
            for earlier in 0..<index where !done[earlier] {
                if !mine.isDisjoint(with: names[earlier].map { $0.lowercased() }) { return false }
                if sizes[earlier] == sizes[index], let hash = hashes[index], (hashes[earlier] ?? hash) == hash {
                    return false
                }
            }
            return true
        }
        var unhashed = Array(0..<count)
        var waiting: Set<Int> = []
        var recording: [Int] = []
        var ended = 0
        var letGo = 0
        while ended < count {
            let changed: Int
            let pick = random.next() % 5
            if !unhashed.isEmpty && (recording.isEmpty || pick < 3) {
                changed = unhashed.remove(at: Int(random.next() % UInt64(unhashed.count)))
                if pick == 0 {
                    done[changed] = true
                    rule.finished(changed)
                    ended += 1
                } else {
                    hashes[changed] = ["x", "y", "z"][Int(random.next() % 3)]
                    rule.hashed(changed, sha256: hashes[changed] ?? "")
                }
            } else {
                guard !recording.isEmpty else {
                    Issue.record("nothing records, so nothing can end: seed \(seed)")
                    return letGo
                }
                changed = recording.remove(at: Int(random.next() % UInt64(recording.count)))
                done[changed] = true
                rule.finished(changed)
                ended += 1
            }
            let expected = waiting.filter { allowed($0) }
            #expect(Set(rule.ready(among: waiting, after: changed)) == expected, "seed \(seed), item \(changed)")
            letGo += expected.count
            waiting.subtract(expected)
            recording += expected
            // As `waitForTurn`: the item just hashed records at once or waits.
            if !done[changed] && !recording.contains(changed) {
                #expect(rule.mayCommit(changed) == allowed(changed), "seed \(seed), item \(changed)")
                if allowed(changed) { recording.append(changed) } else { waiting.insert(changed) }
            }
        }
        return letGo
    }
}
