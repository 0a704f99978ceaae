#if canImport(UIKit)
    import Foundation
    import Pickup

    /// Background time that apps and app extensions may both use: `ProcessInfo`'s expiring
    /// activity ("an expiring task assertion on iOS"), where `UIApplication`'s
    /// `beginBackgroundTask` is not available to extensions. PickupUI's own work uses it (a
    /// capture kept, picked files loaded, an export made smaller), and so does an extension's
    /// ``BackgroundUploads``, so that all of PickupUI can run in a share extension.
    ///
    /// NSProcessInfo.h:184 (iOS 26.2 SDK): "The block will be scheduled on a system-provided
    /// concurrent queue. After a system-specified time, the block will be called with the
    /// `expired` parameter set to YES. The `expired` parameter will also be YES if the system
    /// decides to prematurely terminate a previous non-expiration invocation of the block." The
    /// activity lasts while its first call runs: that call waits until the work ends (`end`) or
    /// the second call says the time is up; then the work is told (`expired`) and the first call
    /// returns. An activity the system will not start is called with `expired` set at once: then
    /// no time was given (`begin` returns nil) and nothing is cancelled.
    public struct ExpiringActivityTime: BackgroundTimeGranting {
        /// The semaphore each running activity's first call waits on, by token.
        private let waiting = LockedValue<[Int: DispatchSemaphore]>([:])
        private let counter = LockedValue(0)

        /// Background time from the process's expiring activities.
        public init() {}

        /// Asks for time named `name`: returns once the system has started the activity, or nil
        /// when it would not (its first call came with `expired` set: no time was given, and the
        /// work goes on without it, as with `UIApplication`'s invalid task). `expired` is called
        /// if the time runs out before `end`.
        public func begin(_ name: String, expired: @escaping @Sendable () -> Void) async -> Int? {
            let token = counter.withValue { count -> Int in
                count += 1
                return count
            }
            let release = DispatchSemaphore(value: 0)
            let waiting = self.waiting
            waiting.withValue { $0[token] = release }
            let firstCall = LockedValue(true)
            return await withCheckedContinuation { (started: CheckedContinuation<Int?, Never>) in
                ProcessInfo.processInfo.performExpiringActivity(withReason: name) { isExpired in
                    let first = firstCall.withValue { first -> Bool in
                        defer { first = false }
                        return first
                    }
                    if first {
                        guard !isExpired else {
                            _ = waiting.withValue { $0.removeValue(forKey: token) }
                            started.resume(returning: nil)
                            return
                        }
                        // Running: this call lasts as long as the activity, until `end` or the
                        // expiry's call releases it.
                        started.resume(returning: token)
                        release.wait()
                    } else if isExpired {
                        // Out of time: the work is told once, and the first call returns.
                        if waiting.withValue({ $0.removeValue(forKey: token) }) != nil { expired() }
                        release.signal()
                    }
                }
            }
        }

        /// Ends the time `token`, once: its activity's first call returns.
        public func end(_ token: Int) async {
            waiting.withValue { $0.removeValue(forKey: token) }?.signal()
        }
    }
#endif
