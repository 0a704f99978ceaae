import Dispatch
import Foundation
import Pickup

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns Ctrl-C into a call, once; afterwards Ctrl-C works as usual again.
public final class InterruptWatch {
    private let source: DispatchSourceSignal
    /// `fired` is written on the signal queue and read after the run: a lock guards it.
    private let flag = LockedValue(false)

    public init(_ action: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let flag = self.flag
        source.setEventHandler {
            flag.withValue { $0 = true }
            action()
        }
        source.resume()
    }

    public var fired: Bool { flag.current }

    public func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
