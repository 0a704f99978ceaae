import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns Ctrl-C into a call, once; afterwards Ctrl-C works as usual again.
public final class InterruptWatch {
    private let source: DispatchSourceSignal
    private let flag = Flag()

    /// `fired` is written on the signal queue and read after the run: a lock guards it.
    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    public init(_ action: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let flag = self.flag
        source.setEventHandler {
            flag.set()
            action()
        }
        source.resume()
    }

    public var fired: Bool { flag.isSet }

    public func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
