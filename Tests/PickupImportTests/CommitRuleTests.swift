import Pickup
import PickupTestSupport
import Testing

@testable import PickupImport

@Suite("Commit order: which of two same-size items records first", .timeLimit(.minutes(5)))
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

    @Test func aBatchWaitsOnlyForTheItemsBeforeIt() {
        // Items 1 and 2 share a name and their content; item 0 has item 2's name too.
        var rule = CommitRule(sizes: [30, 10, 10], names: [["IMG_0001.JPG"], ["IMG_0001.JPG"], ["IMG_0001.JPG"]])
        rule.hashed(1, sha256: "x")
        rule.hashed(2, sha256: "x")
        #expect(!rule.mayCommit(2), "alone, item 2 waits for item 1")
        #expect(!rule.mayCommit(1, batchFrom: 1), "item 0, before the batch, takes the name first")
        rule.hashed(0, sha256: "y")
        rule.finished(0)
        #expect(rule.mayCommit(1, batchFrom: 1))
        #expect(rule.mayCommit(2, batchFrom: 1), "in one round with item 1, named and recorded after it")
        #expect(!rule.mayCommit(2), "alone it still waits")
    }

    @Test("a batch waits for a later item's hash only when it is before the batch")
    func aBatchWaitsForAnEarlierItemWithoutAHash() {
        var rule = CommitRule(sizes: [10, 10, 10])
        rule.hashed(1, sha256: "a")
        rule.hashed(2, sha256: "b")
        #expect(!rule.mayCommit(2, batchFrom: 1), "item 0 may hold the same bytes")
        #expect(!rule.mayCommit(2, batchFrom: 2))
        rule.hashed(0, sha256: "c")
        #expect(rule.mayCommit(1, batchFrom: 1) && rule.mayCommit(2, batchFrom: 1))
    }

    @Test("a batch that shares a name with an item before it goes once that item is done")
    func batchTurns() async {
        let order = CommitOrder(sizes: [10, 20, 20], names: [["IMG_0001.JPG"], ["IMG_0001.JPG"], ["IMG_0001.JPG"]])
        await order.waitForTurn(0, sha256: "a")
        let went = LockedValue(false)
        let batch = Task {
            await order.waitForTurn(batch: [(1, "b"), (2, "b")])
            went.withValue { $0 = true }
        }
        try? await Task.sleep(for: .milliseconds(100))
        #expect(!went.withValue { $0 }, "item 0, before the batch, has the name and is not done")
        await order.finished(0)
        // Its two members share a name and bytes, and still go together (no member waits for
        // the other, which would wait for ever, under the suite's limit).
        await batch.value
        #expect(went.withValue { $0 })
        await order.finished([1, 2])
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
        func allowed(_ index: Int, before start: Int? = nil) -> Bool {
            let mine = Set(names[index].map { $0.lowercased() })
            for earlier in 0..<min(index, start ?? index) where !done[earlier] {
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
            // A batch from any earlier item looks only at the items before it.
            for index in 0..<count where !done[index] && hashes[index] != nil {
                let start = Int(random.next() % UInt64(index + 1))
                #expect(
                    rule.mayCommit(index, batchFrom: start) == allowed(index, before: start),
                    "seed \(seed), item \(index) in a batch from \(start)")
            }
            // And a whole batch: the members from a start on that have their hashes.
            let start = Int(random.next() % UInt64(count))
            let members = (start..<count).filter { !done[$0] && hashes[$0] != nil && random.next() % 2 == 0 }
            #expect(
                rule.mayCommit(batch: members, from: start) == members.allSatisfy { allowed($0, before: start) },
                "seed \(seed), a batch of \(members) from \(start)")
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
