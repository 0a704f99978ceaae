/// The events of one running job, for any number of observers (as Nuke's `ImageTask`
/// gives each observer its own stream).
///
/// Each call to ``stream()`` gives a new stream. The first one also gets every event sent
/// before it was asked for (a job starts before anyone can watch it); a later one gets the
/// events from then on. Once the job has finished, a new stream gets the last event again
/// (the final one) and ends. A second observer never takes events from the first, as two
/// loops over one `AsyncStream` do.
///
/// A feed of states *keyed* by what they describe (a queue's items, by id) starts every
/// stream with the latest state of each, in the order they first came: a view that comes
/// back, or starts watching late, sees where everything stands, and the feed keeps one
/// state per key however long nobody watches.
package final class EventFeed<Event: Sendable>: Sendable {
    private struct State: Sendable {
        var observers: [Int: AsyncStream<Event>.Continuation] = [:]
        var next = 0
        /// Events sent before the first observer, kept for it.
        var early: [Event] = []
        var watched = false
        var last: Event?
        var finished = false
        /// With a key: the latest event of each key, and the keys in the order they came.
        var latest: [Int: Event] = [:]
        var order: [Int] = []
    }

    private let state = LockedValue(State())
    private let earlyLimit: Int
    private let key: (@Sendable (Event) -> Int)?

    /// A feed with no event yet; at most `earlyLimit` events are kept for a first observer.
    /// With `latestBy`, the feed keeps the latest event of each key instead, and every new
    /// stream begins with them.
    package init(keepingEarly earlyLimit: Int = 100_000, latestBy key: (@Sendable (Event) -> Int)? = nil) {
        self.earlyLimit = earlyLimit
        self.key = key
    }

    /// Sends `event` to every observer (or keeps it for the first one).
    /// Events sent from several threads at once reach every observer in one order: each is
    /// handed on under the lock (a yield never calls back into the feed).
    package func yield(_ event: Event) {
        state.withValue { state in
            guard !state.finished else { return }
            state.last = event
            if let key {
                let id = key(event)
                if state.latest.updateValue(event, forKey: id) == nil { state.order.append(id) }
            } else if !state.watched, state.early.count < earlyLimit {
                state.early.append(event)
            }
            for observer in state.observers.values { observer.yield(event) }
        }
    }

    /// Ends every stream; later streams get the last event, then end. (Ending a stream runs
    /// its termination handler, which takes the lock: so outside it.)
    package func finish() {
        let observers = state.withValue { state -> [AsyncStream<Event>.Continuation] in
            state.finished = true
            defer { state.observers = [:] }
            return Array(state.observers.values)
        }
        for observer in observers { observer.finish() }
    }

    /// A new stream of the events.
    package func stream() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let keyed = key != nil
        let id = state.withValue { state -> Int? in
            var backlog = state.watched ? [] : state.early
            if keyed { backlog = state.order.compactMap { state.latest[$0] } }
            state.watched = true
            state.early = []
            if state.finished, keyed {
                for event in backlog { continuation.yield(event) }
                return nil
            }
            if state.finished {
                for event in backlog.isEmpty ? (state.last.map { [$0] } ?? []) : backlog {
                    continuation.yield(event)
                }
                return nil
            }
            for event in backlog { continuation.yield(event) }
            state.next += 1
            state.observers[state.next] = continuation
            return state.next
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withValue { $0.observers.removeValue(forKey: id) }
        }
        return stream
    }
}
