#if canImport(CoreTransferable) && canImport(UniformTypeIdentifiers)
    import CoreTransferable
    import Foundation
    import Pickup
    import PickupImport
    import UniformTypeIdentifiers

    /// Where picked files go: the app's library (an `ImportSession`). By default the standard
    /// library (`PickupStorage.standard`: Application Support, excluded from iCloud backup),
    /// opened when the first item arrives; `use(_:)` sets another at launch.
    ///
    /// ```swift
    /// // at launch: the standard library, or one of the app's own
    /// PickedMediaStore.shared.use(try ImportSession.library())
    /// ```
    public final class PickedMediaStore: Sendable {
        /// The one store, used by the pickers and the loader.
        public static let shared = PickedMediaStore()
        private let session = LockedValue<ImportSession?>(nil)

        /// Sets the library picked files are imported into.
        public func use(_ session: ImportSession) {
            self.session.withValue { $0 = session }
        }

        /// The library in use, opened now (the standard one) when none was set.
        public func library() throws(ImportError) -> ImportSession {
            try session.withValue { (session: inout ImportSession?) throws(ImportError) -> ImportSession in
                if let session { return session }
                let opened = try ImportSession.library()
                session = opened
                return opened
            }
        }

        /// An importer into this store's library, for the loader and the pickers.
        public var importer: PickedItemImporter {
            PickedItemImporter(inbox: .temporary) { () throws(ImportError) -> ImportSession in
                try PickedMediaStore.shared.library()
            }
        }
    }

    /// A picked file copied into Pickup's inbox inside the `FileRepresentation` importing
    /// closure: the received file is deleted once that closure returns, so the copy is made
    /// there (on APFS a clone, no extra space), and nothing is held in memory.
    protocol InboxTransfer: Transferable, Sendable {
        var file: PickedFile { get }
        init(file: PickedFile)
    }

    extension InboxTransfer {
        static func received(_ received: ReceivedTransferredFile, as type: UTType) throws -> Self {
            Self(file: try PickedFileInbox.temporary.take(received.file.path, contentType: type.identifier))
        }
    }

    /// A picked movie, taken into the inbox as a file.
    struct InboxMovie: InboxTransfer {
        let file: PickedFile
        static var transferRepresentation: some TransferRepresentation {
            FileRepresentation(importedContentType: .movie) { try InboxMovie.received($0, as: .movie) }
        }
    }

    /// A picked photo in its own encoding (HEIC, JPEG, PNG, DNG...), taken into the inbox as a file.
    struct InboxImage: InboxTransfer {
        let file: PickedFile
        static var transferRepresentation: some TransferRepresentation {
            FileRepresentation(importedContentType: .image) { try InboxImage.received($0, as: .image) }
        }
    }

    /// Any other picked file, taken into the inbox as it is.
    struct InboxData: InboxTransfer {
        let file: PickedFile
        static var transferRepresentation: some TransferRepresentation {
            FileRepresentation(importedContentType: .data) { try InboxData.received($0, as: .data) }
        }
    }
#endif
