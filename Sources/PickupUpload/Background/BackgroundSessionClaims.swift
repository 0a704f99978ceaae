import Foundation
import Pickup

/// The background session identifiers this process holds a session for: "it is not safe to
/// create another background session with the same identifier until
/// URLSession:didBecomeInvalidWithError: has been issued" (NSURLSession.h:157-159 in the iOS 26.2
/// SDK). `BackgroundUploads` claims its identifier before it makes its session and lets it go
/// when the session has become invalid; a second one made meanwhile (a view that makes its own,
/// again at each redraw) makes no session and says why.
package final class BackgroundSessionClaims: Sendable {
    /// This process's claims.
    package static let process = BackgroundSessionClaims()

    private let held = LockedValue<Set<String>>([])

    package init() {}

    /// Claims `identifier`: false when a session of this process holds it already.
    package func claim(_ identifier: String) -> Bool {
        held.withValue { $0.insert(identifier).inserted }
    }

    /// Lets `identifier` go: its session has become invalid.
    package func release(_ identifier: String) {
        _ = held.withValue { $0.remove(identifier) }
    }

    /// Why a second `BackgroundUploads` for `identifier` sends nothing.
    package static func refusal(_ identifier: String) -> UploadError {
        UploadError(
            .busy,
            "the background session \(identifier) already has a BackgroundUploads in this app (one session per "
                + "identifier): make it once at launch and keep it (the app delegate's, or a static), and use that "
                + "one everywhere; this second one sends nothing")
    }
}
