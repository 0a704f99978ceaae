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
        /// The count and time of the last event.
        var told: Int64
        var toldAt: Double
        /// The upload ended: nothing more is told (a part let go may still report).
        var closed = false
    }

    private let id: String
    private let events: AsyncStream<UploadEvent>.Continuation
    private let clock: any UploadClock
    /// When this run of the upload began, and what the server held then: the rate's base.
    private let began: Double
    private let first: Int64
    private let state: LockedValue<State>

    /// The meter of upload `id`, begun at `began` on `clock` with `confirmed` bytes on the server.
    init(
        id: String, size: Int64, confirmed: Int64, events: AsyncStream<UploadEvent>.Continuation,
        clock: any UploadClock, began: Double
    ) {
        self.id = id
        self.events = events
        self.clock = clock
        self.began = began
        first = confirmed
        state = LockedValue(State(bytes: SentBytes(size: size, confirmed: confirmed), told: confirmed, toldAt: began))
    }

    /// A request carrying file bytes starts: its number.
    func begin() -> Int { state.withValue { $0.bytes.begin() } }

    /// Request `number` has handed `bytes` of the file to the network so far.
    func sent(_ number: Int, _ bytes: Int64) {
        update { $0.sent(number, bytes) }
    }

    /// Request `number` ended: answered well or not.
    func end(_ number: Int, landed: Bool) {
        update { $0.end(number, landed: landed) }
    }

    /// A step failed: what landed since the last confirmation counts no more.
    func failed() { update { $0.failed() } }

    /// The server holds `bytes` (the driver tells its own `progress` event).
    func confirm(_ bytes: Int64) {
        state.withValue {
            $0.bytes.confirm(bytes)
            $0.told = $0.bytes.value
        }
    }

    /// The upload ended: its final event goes next, and no count after it.
    func close() { state.withValue { $0.closed = true } }

    private func update(_ change: (inout SentBytes) -> Void) {
        state.withValue { state in
            guard !state.closed else { return }
            change(&state.bytes)
            let value = state.bytes.value
            guard value != state.told else { return }
            // The clock is read only when bytes moved (a test's clock may count its reads).
            let now = clock.now
            guard value < state.told || now - state.toldAt >= Self.interval else { return }
            state.told = value
            state.toldAt = now
            events.yield(
                .sending(
                    id: id, sent: value, size: state.bytes.size,
                    bytesPerSecond: Double(max(0, value - first)) / max(0.001, now - began)))
        }
    }
}
