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

    func apply(_ item: UploadQueue.Item) {
        items[item.id] = item
        rows = items.values.sorted { $0.id < $1.id }.map(UploadRow.init)
        let counted = items.values.filter { $0.state != .cancelled }
        confirmed = counted.reduce(0) { $0 + $1.confirmed }
        sent = counted.reduce(0) { $0 + max($1.sent, $1.confirmed) }
        total = counted.reduce(0) { $0 + $1.size }
    }
}
