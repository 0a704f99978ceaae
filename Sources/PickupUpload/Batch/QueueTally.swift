/// Which of a queue's items wait and how many are being sent, kept as their states change, so
/// that starting the next upload or asking whether the queue is idle neither filters and sorts
/// every item (whole structs) nor scans every waiting id: the next ones come off a heap, in
/// time that grows with the logarithm of the waiting ones (a queue of 100,000 photos).
struct QueueTally {
    /// The items waiting for their turn, by queue number.
    private(set) var waiting: Set<Int> = []
    /// How many are being sent.
    private(set) var uploading = 0
    /// The waiting ids, smallest first (a binary min-heap). An id that stops waiting stays in
    /// it until it comes to the top, and is dropped then; one that waits again is added again.
    private var heap: [Int] = []

    /// Item `id` went from `old` (nil: new) to `new`.
    mutating func change(_ id: Int, from old: UploadQueue.State?, to new: UploadQueue.State) {
        guard old != new else { return }
        if old == .waiting { waiting.remove(id) }
        if old == .uploading { uploading -= 1 }
        if new == .waiting, waiting.insert(id).inserted { push(id) }
        if new == .uploading { uploading += 1 }
    }

    /// Whether every item is settled: none waits, none is being sent.
    var isIdle: Bool { waiting.isEmpty && uploading == 0 }

    /// The `count` waiting items added first (the lowest queue numbers), lowest first. They
    /// stay waiting until their state changes.
    mutating func next(_ count: Int) -> [Int] {
        var found: [Int] = []
        while found.count < count, let top = popSmallest() {
            // Ids no longer waiting, and the second entry of one that waited twice, go.
            if waiting.contains(top), !found.contains(top) { found.append(top) }
        }
        for id in found { push(id) }
        return found
    }

    private mutating func push(_ id: Int) {
        heap.append(id)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child] < heap[parent] else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popSmallest() -> Int? {
        guard let last = heap.popLast() else { return nil }
        guard let smallest = heap.first else { return last }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { break }
            let right = left + 1
            let child = right < heap.count && heap[right] < heap[left] ? right : left
            guard heap[child] < heap[parent] else { break }
            heap.swapAt(child, parent)
            parent = child
        }
        return smallest
    }
}
