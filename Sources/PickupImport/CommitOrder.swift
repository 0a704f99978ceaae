/// Makes an import's outcome independent of which copy finishes first: an item records
/// itself in the catalog only after every earlier item (in selection order) that could hold
/// the same content — the same size — has recorded itself or turned out different. So when
/// one run holds the same photo twice, the first is `imported` and the later `reused`,
/// every run, and the catalog names the first one's source.
///
/// Items whose files have a name in common (`IMG_0001.JPG` from two cards) are named in
/// selection order too: the first gets `IMG_0001.JPG` and the later `IMG_0001 2.JPG`, every
/// run, whichever copy finishes first. Items of other sizes and names never wait for each
/// other, so a large movie does not hold back the photos after it.
actor CommitOrder {
    private var rule: CommitRule
    private var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    /// Batches waiting for their turn.
    private var batches: [WaitingBatch] = []

    init(sizes: [Int64], names: [[String]] = []) { rule = CommitRule(sizes: sizes, names: names) }

    /// Waits until item `index`, whose primary file has `sha256`, may record itself.
    func waitForTurn(_ index: Int, sha256: String) async {
        rule.hashed(index, sha256: sha256)
        wakeReady(after: index)
        guard !rule.mayCommit(index) else { return }
        await withCheckedContinuation { waiting[index] = $0 }
    }

    /// Waits until every item of a batch (consecutive items in selection order, each with the
    /// SHA-256 of its primary file) may record itself together with the others: named and
    /// recorded in one round, in their order, so that no member waits for an earlier one.
    /// Members that ended without a copy are `finished` before.
    func waitForTurn(batch: [(index: Int, sha256: String)]) async {
        guard let start = batch.first?.index else { return }
        for member in batch { rule.hashed(member.index, sha256: member.sha256) }
        for member in batch { wakeReady(after: member.index) }
        let members = batch.map(\.index)
        guard !rule.mayCommit(batch: members, from: start) else { return }
        var sizes: Set<Int> = []
        var names: Set<Int> = []
        for member in members {
            guard let groups = rule.groups(of: member) else { continue }
            sizes.insert(groups.size)
            names.formUnion(groups.names)
        }
        await withCheckedContinuation { batches.append(WaitingBatch(start, members, sizes, names, $0)) }
    }

    /// Item `index` has recorded itself, or ended without recording anything.
    func finished(_ index: Int) {
        rule.finished(index)
        wakeReady(after: index)
    }

    /// Items `indices` have recorded themselves, or ended without recording anything.
    func finished(_ indices: [Int]) {
        for index in indices { finished(index) }
    }

    /// Resumes the waiting items that `changed`'s new hash or end lets go.
    private func wakeReady(after changed: Int) {
        if !waiting.isEmpty {
            for index in rule.ready(among: waiting.keys, after: changed) {
                waiting.removeValue(forKey: index)?.resume()
            }
        }
        // A batch looks only at items before it: looked at again only when one of those, of its
        // sizes or names, changed.
        guard !batches.isEmpty, let changedGroups = rule.groups(of: changed) else { return }
        let ready = batches.indices.filter { position in
            let batch = batches[position]
            guard changed < batch.start,
                batch.sizes.contains(changedGroups.size) || changedGroups.names.contains(where: batch.names.contains)
            else { return false }
            return rule.mayCommit(batch: batch.members, from: batch.start)
        }
        for position in ready.reversed() { batches.remove(at: position).continuation.resume() }
    }

    /// A batch waiting for its turn: its first index, its members, their size and name groups,
    /// and who waits.
    private struct WaitingBatch {
        let start: Int
        let members: [Int]
        let sizes: Set<Int>
        let names: Set<Int>
        let continuation: CheckedContinuation<Void, Never>

        init(
            _ start: Int, _ members: [Int], _ sizes: Set<Int>, _ names: Set<Int>,
            _ continuation: CheckedContinuation<Void, Never>
        ) {
            self.start = start
            self.members = members
            self.sizes = sizes
            self.names = names
            self.continuation = continuation
        }
    }
}

/// The rule `CommitOrder` applies, as plain state (tested without threads).
///
/// Items are grouped by size and by file name, each group in selection order, with how many of
/// its items from the front are done, and for a size, how many from the front are done or
/// hashed: an item looks only at the earlier ones of its groups not yet done (those in flight,
/// and any done behind one still in flight), not at every earlier one (a folder of same-size
/// photos made that grow with its square). State is kept in arrays by item, so a check reads
/// no hash table.
struct CommitRule {
    /// Each item's size group, and its name groups (file names folded to lower case, as file
    /// systems that ignore case see them).
    private let sizeGroupOf: [Int]
    private let nameGroupsOf: [[Int]]
    /// Each group's items in selection order, and how many of them from the front are done
    /// (for a size, also how many are done or hashed: the first item past those, with no hash
    /// yet, holds back every later one of its size).
    private let sizeGroups: [[Int]]
    private var sizeFront: [Int]
    private var sizeUnhashed: [Int]
    private let nameGroups: [[Int]]
    private var nameFront: [Int]
    private var hashes: [String?]
    private var done: [Bool]

    init(sizes: [Int64], names: [[String]] = []) {
        var sizeIDs: [Int64: Int] = [:]
        var sizeGroups: [[Int]] = []
        sizeGroupOf = sizes.enumerated().map { index, size in
            CommitRule.join(index, to: size, ids: &sizeIDs, groups: &sizeGroups)
        }
        var nameIDs: [String: Int] = [:]
        var nameGroups: [[Int]] = []
        nameGroupsOf = sizes.indices.map { index in
            guard index < names.count else { return [] }
            return Set(names[index].map { $0.lowercased() }).sorted().map { name in
                CommitRule.join(index, to: name, ids: &nameIDs, groups: &nameGroups)
            }
        }
        self.sizeGroups = sizeGroups
        self.nameGroups = nameGroups
        sizeFront = Array(repeating: 0, count: sizeGroups.count)
        sizeUnhashed = Array(repeating: 0, count: sizeGroups.count)
        nameFront = Array(repeating: 0, count: nameGroups.count)
        hashes = Array(repeating: nil, count: sizes.count)
        done = Array(repeating: false, count: sizes.count)
    }

    /// Adds item `index` to the group of `key` (a new group for a new key); the group's number.
    private static func join<Key: Hashable>(
        _ index: Int, to key: Key, ids: inout [Key: Int], groups: inout [[Int]]
    ) -> Int {
        let group = ids[key] ?? groups.count
        if group == groups.count {
            ids[key] = group
            groups.append([])
        }
        groups[group].append(index)
        return group
    }

    mutating func hashed(_ index: Int, sha256: String) {
        guard hashes.indices.contains(index) else { return }
        hashes[index] = sha256
        advanceUnhashed(sizeGroupOf[index])
    }

    mutating func finished(_ index: Int) {
        guard done.indices.contains(index) else { return }
        done[index] = true
        let group = sizeGroupOf[index]
        sizeFront[group] = Self.skip(sizeGroups[group], from: sizeFront[group]) { done[$0] }
        advanceUnhashed(group)
        for group in nameGroupsOf[index] {
            nameFront[group] = Self.skip(nameGroups[group], from: nameFront[group]) { done[$0] }
        }
    }

    /// Where in `members`, from `start` on, the first item that has not `passed` stands.
    private static func skip(_ members: [Int], from start: Int, while passed: (Int) -> Bool) -> Int {
        var next = start
        while next < members.count, passed(members[next]) { next += 1 }
        return next
    }

    private mutating func advanceUnhashed(_ group: Int) {
        sizeUnhashed[group] = Self.skip(sizeGroups[group], from: sizeUnhashed[group]) {
            done[$0] || hashes[$0] != nil
        }
    }

    /// The first item of size group `group` that is neither done nor hashed (`Int.max` when
    /// there is none): no later item of that size may commit before it has its hash.
    private func barrier(_ group: Int) -> Int {
        let members = sizeGroups[group]
        return sizeUnhashed[group] < members.count ? members[sizeUnhashed[group]] : Int.max
    }

    /// Whether every earlier item of the same size is done, or known to differ, and every
    /// earlier item with a file of the same name is done. An item with no hash yet looks only
    /// at the names, and an index out of the list may always commit.
    func mayCommit(_ index: Int) -> Bool { mayCommit(index, batchFrom: index) }

    /// Whether item `index` may commit in one round with the items from `start` up to it (a
    /// batch, named and recorded in their order): as `mayCommit(_:)`, looking only at the items
    /// before `start`.
    func mayCommit(_ index: Int, batchFrom start: Int) -> Bool {
        guard done.indices.contains(index) else { return true }
        let before = min(start, index)
        for group in nameGroupsOf[index] {
            for earlier in nameGroups[group][nameFront[group]...] {
                if earlier >= before { break }
                if !done[earlier] { return false }
            }
        }
        guard let mine = hashes[index] else { return true }
        let group = sizeGroupOf[index]
        if barrier(group) < before { return false }
        for earlier in sizeGroups[group][sizeFront[group]...] {
            if earlier >= before { break }
            if done[earlier] { continue }
            guard let theirs = hashes[earlier], theirs != mine else { return false }
        }
        return true
    }

    /// The groups item `index` is in: its size's and its names' (nil: an index out of the list).
    func groups(of index: Int) -> (size: Int, names: [Int])? {
        guard done.indices.contains(index) else { return nil }
        return (sizeGroupOf[index], nameGroupsOf[index])
    }

    /// Whether every member of a batch (items from `start` on, each with its hash) may commit in
    /// one round with the others: `mayCommit(_:batchFrom:)` for each, with one walk a group
    /// (the members of a batch of same-size photos share their size's walk).
    func mayCommit(batch members: [Int], from start: Int) -> Bool {
        var sizeWalked: [Int: Set<String>?] = [:]  // nil: an earlier item of the size has no hash yet
        var nameWalked: [Int: Bool] = [:]
        for index in members where done.indices.contains(index) {
            for group in nameGroupsOf[index] {
                let free =
                    nameWalked[group]
                    ?? {
                        let earlier = nameGroups[group][nameFront[group]...].prefix { $0 < start }
                        return earlier.allSatisfy { done[$0] }
                    }()
                nameWalked[group] = free
                if !free { return false }
            }
            guard let mine = hashes[index] else { continue }
            let group = sizeGroupOf[index]
            let taken: Set<String>? =
                sizeWalked[group]
                ?? {
                    if barrier(group) < start { return nil }
                    var hashes: Set<String> = []
                    for earlier in sizeGroups[group][sizeFront[group]...] {
                        if earlier >= start { break }
                        if done[earlier] { continue }
                        if let theirs = self.hashes[earlier] { hashes.insert(theirs) }
                    }
                    return hashes
                }()
            sizeWalked[group] = taken
            guard let taken, !taken.contains(mine) else { return false }
        }
        return true
    }

    /// Which of `waiting` may commit now that item `changed` has its hash or is done, given
    /// that none of them could before and that each has its hash (as `CommitOrder` keeps
    /// them). Only a later item of `changed`'s size or of one of its names can have been let
    /// go, as an item looks only at earlier ones; and of its size, none past the barrier.
    func ready(among waiting: some Collection<Int>, after changed: Int) -> [Int] {
        guard done.indices.contains(changed) else { return waiting.filter { mayCommit($0) } }
        let size = sizeGroupOf[changed]
        let names = nameGroupsOf[changed]
        let barrier = barrier(size)
        return waiting.filter { index in
            guard index > changed, done.indices.contains(index) else { return false }
            if sizeGroupOf[index] == size { return index < barrier && mayCommit(index) }
            return nameGroupsOf[index].contains(where: names.contains) && mayCommit(index)
        }
    }
}
