/// Which items of an import may start copying now.
///
/// Each copy in flight holds two buffers of its file's size, up to a chunk
/// (`FileCopier.bufferSize`). The memory of `concurrency` large copies is the
/// budget: large files copy `concurrency` at a time, as asked, and small ones
/// — a folder of photos, where the time goes to opening, flushing and naming
/// files rather than to moving bytes — more at once, as many as fit in that
/// memory: up to four times `concurrency`, or up to 32 where small items share
/// their flushes (`FlushRounds`: the more wait together, the fewer flushes), and
/// never fewer than `concurrency`.
/// Items start in selection order; one always may, whatever its size.
struct ImportSlots {
    private let costs: [Int]
    private let budget: Int
    private let maxItems: Int
    private let skipping: Set<Int>
    private var next = 0
    private var running = 0
    private var used = 0

    /// `fileSizes`: for each item in selection order, the sizes of its files; `skipping`: the
    /// items that never start (already failed); `sharedFlushes`: whether small items share flushes.
    init(fileSizes: [[Int64]], concurrency: Int, skipping: Set<Int> = [], sharedFlushes: Bool = false) {
        self.skipping = skipping
        costs = fileSizes.map { 2 * FileCopier.bufferSize(for: $0.max() ?? 0) }
        budget = concurrency * 2 * FileCopier.chunkSize
        // Each copy in flight holds a few descriptors: at most 32 of them, unless asked for more.
        maxItems = max(concurrency, sharedFlushes ? 32 : min(concurrency * 4, 32))
    }

    /// The next item to start, if one may start now.
    mutating func startNext() -> Int? {
        while skipping.contains(next) { next += 1 }
        guard next < costs.count else { return nil }
        guard running == 0 || (running < maxItems && used + costs[next] <= budget) else { return nil }
        defer { next += 1 }
        running += 1
        used += costs[next]
        return next
    }

    /// Frees what item `index` held.
    mutating func finished(_ index: Int) {
        running -= 1
        used -= costs[index]
    }
}
