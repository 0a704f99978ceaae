import Pickup

/// Background time as `UIApplication` documents it (`UIApplication.h`, iPhoneOS 26.2): each
/// `beginBackgroundTask(withName:expirationHandler:)` returns an identifier that must be balanced
/// by one `endBackgroundTask(_:)` (line 143); the expiration handler runs when the time runs out
/// (line 142). The fake records every call and can make the time run out; it decides nothing.
final class FakeApplication: BackgroundTimeGranting {
    let calls = LockedValue<[String]>([])
    private let handlers = LockedValue<[Int: @Sendable () -> Void]>([:])
    private let next = LockedValue(1)

    func begin(_ name: String, expired: @escaping @Sendable () -> Void) async -> Int? {
        let token = next.withValue { value -> Int in
            defer { value += 1 }
            return value
        }
        handlers.withValue { $0[token] = expired }
        calls.withValue { $0.append("begin \(token) \(name)") }
        return token
    }

    /// The system says the time is up: every open task's expiration handler runs. Apple
    /// terminates an app whose task is not ended by then; `UIKitBackgroundTime` ends it inside
    /// the handler, so here the handler's end is recorded at once.
    func expire() {
        for (token, handler) in handlers.current {
            handler()
            handlers.withValue { $0[token] = nil }
            calls.withValue { $0.append("end \(token)") }
        }
    }

    func end(_ token: Int) async {
        guard handlers.withValue({ $0.removeValue(forKey: token) }) != nil else { return }
        calls.withValue { $0.append("end \(token)") }
    }
}
