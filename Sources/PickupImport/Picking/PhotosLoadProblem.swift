/// What went wrong when Photos could not hand over an item, read from the error's domain and
/// code, so that the person is told what to do rather than Photos' own words. Decided here, where
/// the Linux tests reach it; `PickupUI` says it in the person's language.
public enum PhotosLoadProblem: Sendable, Hashable {
    /// The item is in iCloud and the download failed or needs the network: check the connection.
    case network
    /// The device has no room for the item: free some space.
    case space
    /// The person or the app stopped the load (deselected).
    case cancelled

    /// The problem an error of `domain` and `code` says, or nil when it is none of these (Photos'
    /// own description is shown then).
    ///
    /// `PHError.h` (iPhoneOS 26.2): `PHPhotosErrorUserCancelled = 3072`,
    /// `PHPhotosErrorNetworkAccessRequired = 3164`, `PHPhotosErrorNetworkError = 3169` ("failed due
    /// to a network connection error"), `PHPhotosErrorNotEnoughSpace = 3305`; iCloud downloads also
    /// fail in `NSURLErrorDomain` and `CloudPhotoLibraryErrorDomain`; in `NSCocoaErrorDomain`
    /// (`FoundationErrors.h`), `NSFileWriteOutOfSpaceError = 640` is a full disk and
    /// `NSUserCancelledError = 3072` a cancelled load.
    public init?(domain: String, code: Int) {
        switch (domain, code) {
        case ("PHPhotosErrorDomain", 3072), ("NSCocoaErrorDomain", 3072), ("NSURLErrorDomain", -999):
            // `NSURLErrorCancelled = -999` (`NSURLError.h`).
            self = .cancelled
        case ("NSURLErrorDomain", _), ("CloudPhotoLibraryErrorDomain", _), ("PHPhotosErrorDomain", 3164),
            ("PHPhotosErrorDomain", 3169):
            self = .network
        case ("PHPhotosErrorDomain", 3305), ("NSCocoaErrorDomain", 640), ("NSPOSIXErrorDomain", 28):
            // `ENOSPC = 28` (`sys/errno.h`): a write that found the disk full.
            self = .space
        default:
            return nil
        }
    }

    /// The first problem along an error and the errors under it (`NSUnderlyingErrorKey`, outermost
    /// first): a load's failure often arrives wrapped, Photos' own error inside.
    public init?(chain: [(domain: String, code: Int)]) {
        guard let found = chain.lazy.compactMap({ PhotosLoadProblem(domain: $0.domain, code: $0.code) }).first
        else { return nil }
        self = found
    }
}
