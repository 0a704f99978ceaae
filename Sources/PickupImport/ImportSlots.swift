#if canImport(Glibc)
    import Glibc
    private let openFilesResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#elseif canImport(Darwin)
    import Darwin
    private let openFilesResource = RLIMIT_NOFILE
#endif

/// Which items of an import may start copying now.
///
/// Each copy in flight holds its buffers (`FileCopier.copyMemory`: one of its file's size
/// for a file that fits in a chunk, else two chunks). The memory of `concurrency` large
/// copies is the budget: large files copy `concurrency` at a time, as asked, and small ones
/// — a folder of photos, where the time goes to opening, flushing and naming files rather
/// than to moving bytes — more at once, as many as fit in that memory: up to four times
/// `concurrency` (at most 32), or up to 256 where small items share their flushes
/// (`FlushRounds`: the more wait together, the larger each round and the fewer its fixed
/// costs an item; 10,000 photos of 70 KB took 6.45 s at 32 and 4.98 s at 96, and 10,000 of
/// 36 KB 2.78 s at 96 and 2.47 s at 256), and never fewer than `concurrency`. Each copy in
/// flight holds a few descriptors, so the 256 shrink where the process may open fewer than
/// 1,152 files.
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
        costs = fileSizes.map { FileCopier.copyMemory(for: $0.max() ?? 0) }
        budget = concurrency * 2 * FileCopier.chunkSize
        // Each copy in flight holds a few descriptors: at most 32 of them (256 sharing flushes),
        // unless asked for more.
        maxItems = max(concurrency, sharedFlushes ? ImportSlots.sharingFlushes() : min(concurrency * 4, 32))
    }

    /// How many small items may be in flight where they share flushes: 256, or a quarter of the
    /// descriptors the process may open beyond 128 (the catalog's, the walk's, the runtime's),
    /// never fewer than 32.
    static func sharingFlushes(openFilesLimit: Int = ImportSlots.openFilesLimit()) -> Int {
        min(256, max(32, (openFilesLimit - 128) / 4))
    }

    /// The process's soft limit on open files (`RLIMIT_NOFILE`); 256 when it cannot be read.
    static func openFilesLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(openFilesResource, &limit) == 0 else { return 256 }
        return Int(clamping: limit.rlim_cur)  // unlimited (all ones) clamps to Int.max
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

    /// How many items of item `index`'s size may be in flight at once (at least one).
    func capacity(for index: Int) -> Int {
        guard costs.indices.contains(index) else { return 1 }
        return max(1, min(maxItems, budget / max(1, costs[index])))
    }

    /// The next item to start, if one may start now and `wanted` takes it (a batch takes only
    /// the items it can hold).
    mutating func startNext(if wanted: (Int) -> Bool) -> Int? {
        while skipping.contains(next) { next += 1 }
        guard next < costs.count, wanted(next) else { return nil }
        return startNext()
    }

    /// Frees what item `index` held.
    mutating func finished(_ index: Int) {
        running -= 1
        used -= costs[index]
    }
}
