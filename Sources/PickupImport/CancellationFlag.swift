import Pickup

/// A flag set once, read from any thread.
final class CancellationFlag: Sendable {
    private let value = LockedValue(false)

    var isSet: Bool { value.current }

    func set() { value.withValue { $0 = true } }
}
