import Foundation

/// A value behind a lock: Pickup's lock type for a value shared across threads (as swift-nio
/// has `NIOLockedValueBox`). Four objects that Apple's frameworks or URLSession call from
/// their own threads (`URLSessionTransport`'s task delegate, PickupUI's load progress, Live
/// Photo resources and background uploads) guard several fields, and their invariants between
/// them, with one `NSLock` of their own instead, each explained in its `@unchecked Sendable` note.
///
/// `@unchecked Sendable` is safe: `value` is only reached inside `withValue`,
/// which holds `lock` for the whole access, and `Value` must itself be `Sendable`
/// to be handed in or out.
package final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A lock around a first value.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock; what `body` returns or throws is handed out.
    package func withValue<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// The value now.
    package var current: Value { withValue { $0 } }
}
