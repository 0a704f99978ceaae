/// One item a photo picker handed over, as Pickup's loading decisions see it.
///
/// On iPhone, `PickupUI` adapts `PhotosPickerItem` (SwiftUI) and `NSItemProvider`
/// (`PHPickerViewController`) to this protocol; everything that decides what to load,
/// in which order, what to cancel and what to keep lives on this side of it, and the
/// Linux tests drive it through fakes that behave as Apple documents.
public protocol PickedItemSource: Sendable {
    /// The photo library's local identifier (nil when the picker was not given the library).
    var identifier: String? { get }
    /// For an item without ``identifier``: a value that tells it apart from the other items of a
    /// selection, the same while it stays selected (`PhotosPickerItem` is `Hashable`:
    /// `_PhotosUI_SwiftUI.swiftinterface`, iPhoneOS 26.2 line 77, and the picker's binding hands
    /// back the values it holds). Nil (the default) when nothing tells such items apart.
    var selectionValue: AnyHashable? { get }
    /// What the item offers, decided from its content types (`UTType` conformance on Apple
    /// platforms). Apple's `PHPicker.h`: "Returned item providers for preselected assets are
    /// always empty", so a preselected item comes back as ``PickedContentKind/empty``.
    var kind: PickedContentKind { get }
    /// The item's file in its current encoding, copied into `inbox` while it exists.
    ///
    /// Apple's `NSItemProvider.h`: the file handed to a file-representation handler "will be
    /// deleted when the completion handler returns", so implementations call
    /// ``PickedFileInbox/take(_:contentType:)`` inside that handler. Cancelling the calling
    /// task cancels the load. `progress` gets fractions from 0 to 1 (iCloud downloads).
    func loadFile(
        into inbox: PickedFileInbox, progress: @escaping @Sendable (Double) -> Void
    ) async throws -> PickedFile
    /// A Live Photo's resources (`PHAssetResource.assetResources(for: PHLivePhoto)`), loaded with
    /// no photo-library permission; empty when the item is no Live Photo or Photos lists none.
    func livePhotoResources() async throws -> [PickedResource]
    /// Writes one of ``livePhotoResources()`` into `inbox` (iCloud downloads allowed), with progress.
    func write(
        _ resource: PickedResource, into inbox: PickedFileInbox, progress: @escaping @Sendable (Double) -> Void
    ) async throws -> PickedFile
}

extension PickedItemSource {
    /// Nothing tells this item apart but its identifier.
    public var selectionValue: AnyHashable? { nil }
}

/// What a picked item offers, from its content types.
public enum PickedContentKind: String, Sendable, Hashable, Codable {
    /// A Live Photo: a still with a paired movie.
    case livePhoto
    /// A movie.
    case movie
    /// A still image (HEIC, JPEG, PNG, DNG...).
    case image
    /// Something else (a PDF, an audio file): loaded as a file and kept unprobed.
    case other
    /// No content types at all: a preselected item (Apple's `PHPicker.h`: its provider is
    /// always empty), never loaded.
    case empty
}

/// One resource of a Live Photo, as `PHAssetResource` lists it.
public struct PickedResource: Sendable, Hashable {
    /// The resource's role, as `PHAssetResourceType` names it.
    public enum Role: String, Sendable, Hashable {
        /// `.photo`: the still as taken.
        case photo
        /// `.fullSizePhoto`: the still with the person's edits.
        case fullSizePhoto
        /// `.pairedVideo`: the movie as taken.
        case pairedVideo
        /// `.fullSizePairedVideo`: the movie with the person's edits.
        case fullSizePairedVideo
        /// `.adjustmentData` and every other role Pickup does not load.
        case other
    }

    /// What the resource is to the Live Photo.
    public var role: Role
    /// Its file name in the library (`IMG_0263.HEIC`).
    public var originalFilename: String
    /// Its uniform type identifier (`public.heic`, `com.apple.quicktime-movie`).
    public var contentType: String
    /// The index in the list Photos gave, so an adapter can find the resource again.
    public var index: Int

    /// A resource with its role, file name, content type and place in Photos' list.
    public init(role: Role, originalFilename: String, contentType: String, index: Int) {
        self.role = role
        self.originalFilename = originalFilename
        self.contentType = contentType
        self.index = index
    }
}
