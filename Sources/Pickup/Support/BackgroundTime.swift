/// The extra time an app that goes to the background may ask for while work runs (on iPhone
/// `UIApplication.beginBackgroundTask(withName:expirationHandler:)`, some thirty seconds: enough
/// to finish an import, an export or a short upload). Without it the system suspends the app a
/// few seconds after it leaves the screen.
public protocol BackgroundTimeGranting: Sendable {
    /// Asks for time; nil when the system gives none. `expired` is called if the time runs out
    /// first (`UIApplication.h:142`: the expiration handler, on the main actor).
    func begin(_ name: String, expired: @escaping @Sendable () -> Void) async -> Int?
    /// Says the work is over (`UIApplication.h:143`, `endBackgroundTask:`); each begun token is
    /// ended exactly once.
    func end(_ token: Int) async
}

/// Runs work inside background time: the time is ended exactly once, when the work ends, fails
/// or is cancelled, or when the system says it runs out (then the work is cancelled, so that
/// it stops at its next safe point: imports and uploads keep what they had confirmed).
public enum BackgroundTime {
    /// Runs `work` named `name` with time from `granting`.
    public static func run<T: Sendable>(
        _ name: String, granting: some BackgroundTimeGranting, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let task = Task { try await work() }
        let ended = LockedValue(false)
        let token = LockedValue<Int?>(nil)
        @Sendable func endOnce() async {
            let ending: Int? = ended.withValue { done in
                if done { return nil }
                guard let value = token.current else { return nil }
                done = true
                return value
            }
            if let ending { await granting.end(ending) }
        }
        let granted = await granting.begin(name) {
            task.cancel()
            Task { await endOnce() }
        }
        token.withValue { $0 = granted }
        return try await withTaskCancellationHandler {
            do {
                let value = try await task.value
                await endOnce()
                return value
            } catch {
                await endOnce()
                throw error
            }
        } onCancel: {
            task.cancel()
        }
    }
}

/// No background time: the platform does not suspend apps that leave the screen (Linux, macOS).
public struct NoBackgroundTime: BackgroundTimeGranting {
    /// Nothing to ask for.
    public init() {}
    /// Gives no time: there is nothing to ask for.
    public func begin(_ name: String, expired: @escaping @Sendable () -> Void) async -> Int? { nil }
    /// Nothing to end.
    public func end(_ token: Int) async {}
}

/// Background time held while any of several jobs runs (an upload queue's uploads): asked
/// for when the first starts, ended when the last ends, or at once when the system says it
/// runs out. Nothing is cancelled on expiry: the jobs stop when the system suspends the app,
/// and go on from what the server confirmed when it comes back.
public actor BackgroundHold {
    private let granting: any BackgroundTimeGranting
    private let name: String
    private var count = 0
    private var token: Int?
    private var asking = false

    /// A hold named `name`, with time from `granting`.
    public init(_ name: String, granting: any BackgroundTimeGranting) {
        self.name = name
        self.granting = granting
    }

    /// A job starts.
    public func acquire() async {
        count += 1
        guard count == 1, token == nil, !asking else { return }
        asking = true
        let granted = await granting.begin(name) {
            Task { await self.expired() }
        }
        asking = false
        token = granted
        if count == 0 { await endNow() }
    }

    /// A job ends.
    public func release() async {
        count = max(0, count - 1)
        if count == 0 { await endNow() }
    }

    private func expired() async { await endNow() }

    private func endNow() async {
        guard let ending = token else { return }
        token = nil
        await granting.end(ending)
    }
}
