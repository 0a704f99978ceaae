#if canImport(UIKit)
    import Pickup
    import UIKit

    /// Background time from `UIApplication` (`beginBackgroundTask(withName:expirationHandler:)`,
    /// `endBackgroundTask(_:)`), for imports, exports and foreground uploads that should finish
    /// when the person leaves the app. App extensions have no `UIApplication.shared`: they get none.
    public struct UIKitBackgroundTime: BackgroundTimeGranting {
        /// Background time from the app.
        public init() {}

        public func begin(_ name: String, expired: @escaping @Sendable () -> Void) async -> Int? {
            await MainActor.run {
                let identifier = UIApplication.shared.beginBackgroundTask(withName: name) { expired() }
                return identifier == .invalid ? nil : identifier.rawValue
            }
        }

        public func end(_ token: Int) async {
            await MainActor.run { UIApplication.shared.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: token)) }
        }
    }
#endif
