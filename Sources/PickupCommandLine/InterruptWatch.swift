import Dispatch
import Foundation
import Pickup

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns Ctrl-C (SIGINT), and a polite stop (SIGTERM: `kill`, `timeout`, a service manager),
/// into a call; after `stop()` each works as usual again.
public final class InterruptWatch {
    private static let watched = [SIGINT, SIGTERM]
    private let sources: [DispatchSourceSignal]
    /// The first signal caught (0: none), written on the signal queue and read after the run: a
    /// lock guards it.
    private let caught = LockedValue<Int32>(0)

    public init(_ action: @escaping @Sendable () -> Void) {
        let caught = self.caught
        sources = InterruptWatch.watched.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                caught.withValue { if $0 == 0 { $0 = number } }
                action()
            }
            source.resume()
            return source
        }
    }

    public var fired: Bool { caught.current != 0 }

    /// The exit status of a run so stopped: 128 and the signal's number, as a shell reports a
    /// process the signal ended (130 for Ctrl-C, 143 for SIGTERM).
    public var status: Int32 { 128 + caught.current }

    public func stop() {
        for source in sources { source.cancel() }
        for number in InterruptWatch.watched { signal(number, SIG_DFL) }
    }
}
