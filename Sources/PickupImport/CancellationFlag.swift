import Foundation

/// A flag set once, read from any thread.
///
/// `@unchecked Sendable` is safe here: the only state, `value`, is read and
/// written only while `lock` is held.
final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
