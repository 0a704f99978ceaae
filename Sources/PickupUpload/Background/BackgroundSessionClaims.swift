import Foundation
import Pickup

/// Which object holds each background session identifier in this process. Apple's background
/// transfer documentation: a session's identifier names it across launches, and "it is not safe
/// to create another background session with the same identifier until
/// URLSession:didBecomeInvalidWithError: has been issued" (NSURLSession.h:157-159 in the iOS 26.2
/// SDK). `BackgroundUploads` claims its identifier before it makes its session and lets it go
/// when the session has become invalid; a second one made meanwhile (in a view, again at each
/// redraw; or at a relaunch for an extension's events while the app still holds that session)
/// makes none and passes every call to the holder.
package final class BackgroundSessionClaims: Sendable {
    /// This process's claims.
    package static let process = BackgroundSessionClaims()

    /// Each identifier's holder, held weakly (a session keeps its delegate until it is
    /// invalidated, NSURLSession.h; a holder gone without that frees the identifier).
    private let holders = LockedValue<[String: WeakHolder]>([:])

    private struct WeakHolder: @unchecked Sendable {
        // `@unchecked Sendable` is safe: the reference is only read and written under `holders`'
        // lock, and what it points to is the caller's (a Sendable BackgroundUploads).
        weak var object: AnyObject?
    }

    package init() {}

    /// Claims `identifier` for `owner`: nil when it is `owner`'s now, else the object that
    /// holds it (to pass calls to).
    package func claim(_ identifier: String, by owner: AnyObject) -> AnyObject? {
        holders.withValue { holders -> AnyObject? in
            if let holder = holders[identifier]?.object, holder !== owner { return holder }
            holders[identifier] = WeakHolder(object: owner)
            return nil
        }
    }

    /// Lets `identifier` go when `owner` holds it: its session has become invalid.
    package func release(_ identifier: String, by owner: AnyObject) {
        holders.withValue { holders in
            if holders[identifier]?.object === owner { holders[identifier] = nil }
        }
    }
}
