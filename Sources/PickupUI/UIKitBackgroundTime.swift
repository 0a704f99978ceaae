#if canImport(UIKit)
    import Pickup
    import UIKit

    /// Background time from `UIApplication` (`beginBackgroundTask(withName:expirationHandler:)`,
    /// `endBackgroundTask(_:)`), for an app's foreground uploads (an `UploadQueue`) that should
    /// finish when the person leaves the app. App extensions cannot use `UIApplication.shared`
    /// (`NS_EXTENSION_UNAVAILABLE_IOS`, UIApplication.h), so this type is not there for them;
    /// PickupUI's own work (a capture kept, picked files loaded, an export) and an extension's
    /// background uploads use ``ExpiringActivityTime``, which both may use.
    ///
    /// When the time runs out, the expiration handler ends the task itself, before it returns
    /// (Apple's documentation of `beginBackgroundTask(withName:expirationHandler:)`: an app that
    /// does not end its task in time is terminated); the work is told to stop, and a later
    /// `end(_:)` for that task does nothing. Each task is ended exactly once.
    @available(iOSApplicationExtension, unavailable)
    public struct UIKitBackgroundTime: BackgroundTimeGranting {
        private let ended = LockedValue<Set<Int>>([])

        /// Background time from the app.
        public init() {}

        /// Asks for background time named `name`.
        public func begin(_ name: String, expired: @escaping @Sendable () -> Void) async -> Int? {
            let ended = self.ended
            return await MainActor.run {
                let box = LockedValue(UIBackgroundTaskIdentifier.invalid)
                let identifier = UIApplication.shared.beginBackgroundTask(withName: name) {
                    expired()
                    let id = box.current
                    // On the main actor (`UIApplication.h:142`, `NS_SWIFT_UI_ACTOR`): ended here, now.
                    if id != .invalid, ended.withValue({ $0.insert(id.rawValue).inserted }) {
                        UIApplication.shared.endBackgroundTask(id)
                    }
                }
                box.withValue { $0 = identifier }
                return identifier == .invalid ? nil : identifier.rawValue
            }
        }

        /// Ends the background time `token`, once.
        public func end(_ token: Int) async {
            guard ended.withValue({ $0.insert(token).inserted }) else { return }
            await MainActor.run { UIApplication.shared.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: token)) }
        }
    }
#endif
