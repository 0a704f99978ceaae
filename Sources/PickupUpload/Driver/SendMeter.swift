import Pickup

/// One upload's bytes on their way (`SentBytes`), told as `UploadEvent.sending` while its
/// requests are in flight: four times a second at most (`interval`), and at once when a
/// failure takes bytes back.
///
/// The driver sets it as the task's `current` meter for the whole upload, so every request
/// whose body carries bytes of the file finds it (`StepSender`), S3 parts started on tasks of
/// their own included (a task inherits its parent's task-local values). Transports call it from
/// their own threads; events leave in the order the counts were made (under the lock).
final class SendMeter: Sendable {
    /// The meter of the upload the current task runs, if any. A `let`, not `@TaskLocal static
    /// var`: the iOS 17.4 SDK's Swift interface, which `scripts/check-ios.sh` compiles against,
    /// declares `TaskLocal` a property wrapper, whose static `var` Swift 6 refuses as shared
    /// mutable state.
    static let current = TaskLocal<SendMeter?>(wrappedValue: nil)

    /// Seconds between two events while bytes move, at least.
    static let interval: Double = 0.25

    private struct State {
        var bytes: SentBytes
        /// The count and time of the last event (-1: none yet).
        var told: Int64
        var toldAt: Double
        /// The upload ended: nothing more is told (a part let go may still report).
        var closed = false
        /// The pace of the counts told.
        var pace = TransferPace()
    }

    private let id: String
    private let events: AsyncStream<UploadEvent>.Continuation
    private let clock: any UploadClock
    private let state: LockedValue<State>

    /// The meter of upload `id`, on `clock`, with `confirmed` bytes on the server.
    init(
        id: String, size: Int64, confirmed: Int64, events: AsyncStream<UploadEvent>.Continuation, clock: any UploadClock
    ) {
        self.id = id
        self.events = events
        self.clock = clock
        // Nothing told yet (-1): the first count goes at once (a photo's whole body may be its only one).
        state = LockedValue(
            State(bytes: SentBytes(size: size, confirmed: confirmed), told: -1, toldAt: -.infinity))
    }

    /// A request carrying file bytes starts: its number.
    func begin() -> Int { state.withValue { $0.bytes.begin() } }

    /// Request `number` has handed `bytes` of the file to the network so far; `whole`: all it
    /// carries, told at once (no later count of that request may come before its answer).
    func sent(_ number: Int, _ bytes: Int64, whole: Bool = false) {
        update(now: whole) { $0.sent(number, bytes) }
    }

    /// Request `number` ended: answered well or not.
    func end(_ number: Int, landed: Bool) {
        update { $0.end(number, landed: landed) }
    }

    /// A step failed: what landed since the last confirmation counts no more.
    func failed() { update { $0.failed() } }

    /// The server holds `bytes`. After a send the driver tells its own `progress` event; after
    /// a sync (`tell`) the count is told when it moved, so that a resumed upload shows where it
    /// stands before its first request ends.
    func confirm(_ bytes: Int64, tell: Bool = false) {
        state.withValue { state in
            state.bytes.confirm(bytes)
            let value = state.bytes.value
            if tell, value != state.told, value > 0 { say(value, in: &state) }
            state.told = value
        }
    }

    /// The upload ended: its final event goes next, and no count after it.
    func close() { state.withValue { $0.closed = true } }

    /// Applies `change`, and tells the count when it went down, when `now`, or when the last
    /// was told `interval` ago.
    private func update(now: Bool = false, _ change: (inout SentBytes) -> Void) {
        state.withValue { state in
            guard !state.closed else { return }
            change(&state.bytes)
            let value = state.bytes.value
            guard value != state.told else { return }
            guard value < state.told || now || clock.now - state.toldAt >= Self.interval else { return }
            say(value, in: &state)
        }
    }

    /// Tells `value` (under the lock, so that events leave in the order the counts were made),
    /// with the pace of the last few seconds (0 until there is one).
    private func say(_ value: Int64, in state: inout State) {
        // The clock is read only when bytes moved (a test's clock may count its reads).
        let now = clock.now
        state.told = value
        state.toldAt = now
        state.pace.add(value, at: now)
        events.yield(
            .sending(id: id, sent: value, size: state.bytes.size, bytesPerSecond: state.pace.bytesPerSecond ?? 0))
    }

    /// Bytes a second over the last few seconds of counts told, if there is a pace yet.
    var bytesPerSecond: Double? { state.withValue { $0.pace.bytesPerSecond } }
}
