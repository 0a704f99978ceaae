import Observation

/// The upload screen's model: the queue's items as rows, kept current, and
/// the actions a row's buttons call. `@Observable`, on the main actor, for
/// SwiftUI to bind to.
@available(iOS 17.0, macOS 14.0, *)
@MainActor
@Observable
public final class UploadQueueModel {
    /// One row per upload, in the order they were added.
    public private(set) var rows: [UploadRow] = []
    /// Bytes confirmed and total, over every upload not cancelled.
    public private(set) var confirmed: Int64 = 0
    /// Bytes on their way (sent, the confirmed ones included), over every upload not cancelled.
    public private(set) var sent: Int64 = 0
    /// Bytes to send in all, over every upload not cancelled.
    public private(set) var total: Int64 = 0
    /// The queue it follows.
    @ObservationIgnored public let queue: UploadQueue
    @ObservationIgnored private var items: [Int: UploadQueue.Item] = [:]
    /// Where each item's row is in `rows`, by the item's id.
    @ObservationIgnored private var positions: [Int: Int] = [:]
    @ObservationIgnored private var watcher: Task<Void, Never>?

    /// A model of `queue`; call `start()` to follow it.
    public init(queue: UploadQueue) {
        self.queue = queue
    }

    /// Starts following the queue's updates (once).
    public func start() {
        guard watcher == nil else { return }
        let queue = self.queue
        watcher = Task { [weak self] in
            for await item in queue.updates {
                guard let self else { return }
                self.apply(item)
            }
        }
    }

    /// Stops following the queue (the uploads go on).
    public func stop() {
        watcher?.cancel()
        watcher = nil
    }

    /// The share of all bytes on their way (`sent`), 0...1: what an overall progress bar shows.
    public var fractionDone: Double { total > 0 ? min(1, Double(sent) / Double(total)) : 0 }

    /// Adds an upload to the queue.
    public func add(_ job: UploadQueue.Job) async { await queue.add(job) }
    /// Pauses a row's upload; the journal keeps its place.
    public func pause(_ id: Int) async { await queue.pause(id) }
    /// Resumes a paused row, from the server's offset.
    public func resume(_ id: Int) async { await queue.resume(id) }
    /// "Try Again" on a failed row: back in line, from the server's offset.
    public func retry(_ id: Int) async { await queue.resume(id) }
    /// Cancels a row's upload for good.
    public func cancel(_ id: Int) async { await queue.cancel(id) }

    /// One item's change: its row alone is made again (and set only when it differs), and the
    /// totals move by what the item's own counts moved, so that an update costs the same with
    /// ten rows or ten thousand (they come a few times a second per upload sending).
    func apply(_ item: UploadQueue.Item) {
        let before = items.updateValue(item, forKey: item.id)
        let row = UploadRow(item)
        if let at = positions[item.id] {
            if rows[at] != row { rows[at] = row }
        } else {
            // Ids grow as items are added: a new row goes last, or where its id sorts.
            let at = rows.firstIndex { $0.id > item.id } ?? rows.count
            rows.insert(row, at: at)
            for position in at..<rows.count { positions[rows[position].id] = position }
        }
        let (oldConfirmed, oldSent, oldSize) = before.map(Self.counts) ?? (0, 0, 0)
        let (newConfirmed, newSent, newSize) = Self.counts(item)
        if newConfirmed != oldConfirmed { confirmed += newConfirmed - oldConfirmed }
        if newSent != oldSent { sent += newSent - oldSent }
        if newSize != oldSize { total += newSize - oldSize }
    }

    /// What an item adds to the totals: nothing once cancelled.
    private static func counts(_ item: UploadQueue.Item) -> (confirmed: Int64, sent: Int64, size: Int64) {
        item.state == .cancelled ? (0, 0, 0) : (item.confirmed, item.progressBytes, item.size)
    }
}
