import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns Ctrl-C into a call, once; afterwards Ctrl-C works as usual again.
final class InterruptWatch {
    private let source: DispatchSourceSignal
    private let flag = Flag()

    /// `fired` is written on the signal queue and read after the run: a lock guards it.
    private final class Flag: @unchecked Sendable {
        private let lock = NSLockLite()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    init(_ action: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let flag = self.flag
        source.setEventHandler {
            flag.set()
            action()
        }
        source.resume()
    }

    var fired: Bool { flag.isSet }

    func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}

/// A small mutex over pthread, to avoid Foundation in the tool.
final class NSLockLite: @unchecked Sendable {
    // Safe: the mutex is only touched through pthread calls, which synchronise themselves.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
