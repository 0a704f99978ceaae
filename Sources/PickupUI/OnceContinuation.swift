#if canImport(Foundation)
    import Foundation
    import Pickup

    /// A continuation resumed once: by Apple's completion handler, or by the task's
    /// cancellation when that comes first. No header promises that a cancelled `Progress` or
    /// `cancelDataRequest(_:)` still calls the completion handler (`PHLivePhoto.h:40` is the only
    /// one that says so), so a cancelled load must not wait for it. A late result is given to
    /// `late` (to remove the file it made) and otherwise dropped.
    final class OnceContinuation<Value: Sendable>: Sendable {
        private let state = LockedValue<(continuation: CheckedContinuation<Value, any Error>?, done: Bool)>(
            (nil, false))
        private let late: @Sendable (Value) -> Void

        init(late: @escaping @Sendable (Value) -> Void = { _ in }) { self.late = late }

        /// Waits for the result; `start` begins Apple's work with this box.
        func wait(_ start: (OnceContinuation<Value>) -> Void) async throws -> Value {
            try await withCheckedThrowingContinuation { continuation in
                let already = state.withValue { state -> Bool in
                    if state.done { return true }
                    state.continuation = continuation
                    return false
                }
                if already {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                start(self)
            }
        }

        /// Apple's result.
        func resume(with result: Result<Value, any Error>) {
            let continuation = state.withValue { state -> CheckedContinuation<Value, any Error>? in
                defer { state = (nil, true) }
                return state.done ? nil : state.continuation
            }
            if let continuation {
                continuation.resume(with: result)
            } else if case .success(let value) = result {
                late(value)
            }
        }

        /// The task was cancelled: the wait ends now.
        func cancel() { resume(with: .failure(CancellationError())) }
    }
#endif
