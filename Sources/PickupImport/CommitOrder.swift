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

    init(sizes: [Int64], names: [[String]] = []) { rule = CommitRule(sizes: sizes, names: names) }

    /// Waits until item `index`, whose primary file has `sha256`, may record itself.
    func waitForTurn(_ index: Int, sha256: String) async {
        rule.hashed(index, sha256: sha256)
        wakeReady()
        guard !rule.mayCommit(index) else { return }
        await withCheckedContinuation { waiting[index] = $0 }
    }

    /// Item `index` has recorded itself, or ended without recording anything.
    func finished(_ index: Int) {
        rule.finished(index)
        wakeReady()
    }

    private func wakeReady() {
        for (index, continuation) in waiting where rule.mayCommit(index) {
            waiting[index] = nil
            continuation.resume()
        }
    }
}

/// The rule `CommitOrder` applies, as plain state (tested without threads).
struct CommitRule {
    let sizes: [Int64]
    private var hashes: [Int: String] = [:]
    private var done: Set<Int> = []
    /// Each size's items, in selection order, and how many of them from the front are done: an
    /// item looks only at the earlier ones of its size not yet done (a few in flight), not at
    /// every earlier one (a folder of same-size photos made that grow with its square).
    private let bySize: [Int64: [Int]]
    private var doneFront: [Int64: Int] = [:]
    /// Each item's file names (folded to lower case, as file systems that ignore case see
    /// them), and each name's items in selection order.
    private let names: [[String]]
    private let byName: [String: [Int]]

    init(sizes: [Int64], names: [[String]] = []) {
        self.sizes = sizes
        bySize = Dictionary(grouping: sizes.indices, by: { sizes[$0] })
        self.names = names.map { $0.map { $0.lowercased() } }
        var byName: [String: [Int]] = [:]
        for (index, itemNames) in self.names.enumerated() {
            for name in Set(itemNames) { byName[name, default: []].append(index) }
        }
        self.byName = byName
    }

    mutating func hashed(_ index: Int, sha256: String) { hashes[index] = sha256 }

    mutating func finished(_ index: Int) {
        done.insert(index)
        guard index < sizes.count, let same = bySize[sizes[index]] else { return }
        var front = doneFront[sizes[index], default: 0]
        while front < same.count, done.contains(same[front]) { front += 1 }
        doneFront[sizes[index]] = front
    }

    /// Whether every earlier item of the same size is done, or known to differ, and every
    /// earlier item with a file of the same name is done.
    func mayCommit(_ index: Int) -> Bool {
        if index < names.count {
            for name in names[index] {
                for earlier in byName[name] ?? [] {
                    if earlier >= index { break }
                    if !done.contains(earlier) { return false }
                }
            }
        }
        guard let mine = hashes[index], index < sizes.count, let same = bySize[sizes[index]] else { return true }
        for earlier in same[doneFront[sizes[index], default: 0]...] {
            if earlier >= index { break }
            if done.contains(earlier) { continue }
            guard let theirs = hashes[earlier], theirs != mine else { return false }
        }
        return true
    }
}
