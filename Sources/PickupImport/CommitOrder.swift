/// Makes an import's outcome independent of which copy finishes first: an item records
/// itself in the catalog only after every earlier item (in selection order) that could hold
/// the same content — the same size — has recorded itself or turned out different. So when
/// one run holds the same photo twice, the first is `imported` and the later `reused`,
/// every run, and the catalog names the first one's source.
///
/// Items of other sizes never wait for each other, so a large movie does not hold back the
/// photos after it.
actor CommitOrder {
    private var rule: CommitRule
    private var waiting: [Int: CheckedContinuation<Void, Never>] = [:]

    init(sizes: [Int64]) { rule = CommitRule(sizes: sizes) }

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

    init(sizes: [Int64]) { self.sizes = sizes }

    mutating func hashed(_ index: Int, sha256: String) { hashes[index] = sha256 }
    mutating func finished(_ index: Int) { done.insert(index) }

    /// Whether every earlier item of the same size is done, or known to differ.
    func mayCommit(_ index: Int) -> Bool {
        guard let mine = hashes[index], index < sizes.count else { return true }
        for earlier in 0..<index where sizes[earlier] == sizes[index] && !done.contains(earlier) {
            guard let theirs = hashes[earlier], theirs != mine else { return false }
        }
        return true
    }
}
