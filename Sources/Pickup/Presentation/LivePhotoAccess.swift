/// Whether a Live Photo's movie can be read, from the app's photo-library access.
///
/// PhotosPicker hands over a Live Photo's still without any access, but its paired movie is
/// read from the library, which needs the person's permission. Pickup asks when it was never
/// asked, and otherwise says so per item instead of silently keeping only the still.
public enum LivePhotoAccess: Sendable, Hashable {
    /// The app's library access, as Photos reports it.
    public enum Status: Sendable, Hashable {
        /// Not asked yet; the person's answer comes first.
        case notDetermined
        /// Refused by a device policy.
        case restricted
        /// Refused by the person.
        case denied
        /// The whole library.
        case authorized
        /// Only the items the person chose.
        case limited
    }

    /// Read the still and movie from the library.
    case read
    /// Ask the person for access first, then decide again.
    case ask
    /// Access was refused: the item fails with this reason.
    case refused(PickProblem)

    /// What to do with the app's current access.
    public init(_ status: Status) {
        switch status {
        case .authorized, .limited: self = .read
        case .notDetermined: self = .ask
        case .denied, .restricted: self = .refused(.livePhotoNeedsLibraryAccess)
        }
    }
}

/// Why a picked item could not be loaded, in words for the person who picked it.
public enum PickProblem: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// A Live Photo's movie lives in the photo library, and the app may not read it.
    case livePhotoNeedsLibraryAccess

    public var description: String {
        switch self {
        case .livePhotoNeedsLibraryAccess:
            return "This Live Photo's movie needs access to your photo library. "
                + "Allow access in Settings, then pick it again."
        }
    }
}
