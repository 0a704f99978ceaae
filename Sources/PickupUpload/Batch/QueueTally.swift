/// Which of a queue's items wait and how many are being sent, kept as their states change, so
/// that starting the next upload or asking whether the queue is idle does not filter and sort
/// every item (whole structs) each time. Finding the next one still looks at every waiting
/// id (`Set.min`), so the cost per upload grows with the waiting ones, in integers only;
/// a sorted list would remove that too.
struct QueueTally {
    /// The items waiting for their turn, by queue number.
    private(set) var waiting: Set<Int> = []
    /// How many are being sent.
    private(set) var uploading = 0

    /// Item `id` went from `old` (nil: new) to `new`.
    mutating func change(_ id: Int, from old: UploadQueue.State?, to new: UploadQueue.State) {
        guard old != new else { return }
        if old == .waiting { waiting.remove(id) }
        if old == .uploading { uploading -= 1 }
        if new == .waiting { waiting.insert(id) }
        if new == .uploading { uploading += 1 }
    }

    /// Whether every item is settled: none waits, none is being sent.
    var isIdle: Bool { waiting.isEmpty && uploading == 0 }

    /// The `count` waiting items added first.
    func next(_ count: Int) -> [Int] {
        guard count > 0 else { return [] }
        if count == 1 { return waiting.min().map { [$0] } ?? [] }
        return Array(waiting.sorted().prefix(count))
    }
}
