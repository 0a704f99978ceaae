import Pickup

/// One upload under way: what it reports as it goes, its final record, and a way to
/// stop it. Stopping keeps its place in the journal: it is resumed from the last byte
/// the server confirmed.
public final class UploadTask: Sendable {
    /// Started, progress (the bytes confirmed, and between them the bytes sent), retries, and
    /// the final record; then the stream ends. Each access gives a stream of its own (two
    /// observers both see every event); one asked for after the upload ended gives its final
    /// event.
    public var events: AsyncStream<UploadEvent> { feed.stream() }
    private let feed = EventFeed<UploadEvent>()
    private let task: Task<UploadRecord, Never>

    init(_ body: @escaping @Sendable (AsyncStream<UploadEvent>.Continuation) async -> UploadRecord) {
        let (events, continuation) = AsyncStream<UploadEvent>.makeStream()
        let feed = feed
        // The driver's events, handed on to every observer in order.
        let relay = Task {
            for await event in events { feed.yield(event) }
            feed.finish()
        }
        task = Task {
            let record = await body(continuation)
            continuation.finish()
            await relay.value
            return record
        }
    }

    /// The final record: done, failed (with why), or cancelled.
    public func result() async -> UploadRecord { await task.value }

    /// Stops the upload at once; its record ends `cancelled`, resumable.
    public func cancel() { task.cancel() }
}
