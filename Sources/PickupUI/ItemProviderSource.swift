#if canImport(PhotosUI) && canImport(Photos) && canImport(UIKit)
    import Foundation
    import Photos
    import PhotosUI
    import Pickup
    import PickupImport
    import UniformTypeIdentifiers

    /// A `PHPickerResult` as Pickup's loading decisions see it (`PickedItemSource`).
    ///
    /// `@unchecked Sendable` is safe: `NSItemProvider`'s load handlers are `NS_SWIFT_SENDABLE`
    /// and its `registeredTypeIdentifiers` is `atomic` (`NSItemProvider.h`), each source is loaded
    /// by one task, and the Live Photo resources are kept under their own lock.
    public struct ItemProviderSource: PickedItemSource, @unchecked Sendable {
        let provider: NSItemProvider
        /// The photo library's identifier of the item.
        public let identifier: String?
        /// What the item offers, from its content types.
        public let kind: PickedContentKind
        let resources = LivePhotoResources()

        /// A result the picker returned.
        public init(_ result: PHPickerResult) {
            provider = result.itemProvider
            identifier = result.assetIdentifier
            let types = result.itemProvider.registeredTypeIdentifiers.compactMap { UTType($0) }
            // `canLoadObject(ofClass:)` knows a Live Photo whatever its registered type is called.
            let live = result.itemProvider.canLoadObject(ofClass: PHLivePhoto.self)
            kind = live ? .livePhoto : PhotosPickerSource.kind(of: types)
        }

        /// The best registered type of the item's kind ("register higher-fidelity types first",
        /// `NSItemProvider.h:85`).
        var fileType: String? {
            let types = provider.registeredTypeIdentifiers
            let wanted: UTType = kind == .movie ? .movie : kind == .other ? .data : .image
            return types.first { UTType($0)?.conforms(to: wanted) == true } ?? types.first
        }

        /// The item's file, copied into `inbox` inside Apple's handler, with iCloud progress.
        public func loadFile(
            into inbox: PickedFileInbox, progress: @escaping @Sendable (Double) -> Void
        ) async throws -> PickedFile {
            guard let type = fileType else { throw PhotosLoadError.nothingHandedOver }
            let handle = ProgressHandle()
            let watcher = handle.report(to: progress)
            defer { watcher.cancel() }
            let provider = self.provider
            let once = OnceContinuation<PickedFile> { inbox.discard($0) }
            return try await withTaskCancellationHandler {
                try await once.wait { once in
                    // `NSItemProvider.h:119`: the file "will be deleted when the completion handler
                    // returns": it is copied into the inbox here, inside the handler.
                    let loading = provider.loadFileRepresentation(forTypeIdentifier: type) { url, error in
                        guard let url else {
                            once.resume(
                                with: .failure(error.map(PhotosLoadError.init) ?? PhotosLoadError.nothingHandedOver))
                            return
                        }
                        once.resume(with: Result { try inbox.take(url.path, contentType: type) })
                    }
                    handle.set(loading)
                }
            } onCancel: {
                handle.cancel()
                once.cancel()
            }
        }

        /// The picked Live Photo's resources, with no photo-library permission asked.
        public func livePhotoResources() async throws -> [PickedResource] {
            guard provider.canLoadObject(ofClass: PHLivePhoto.self) else { return [] }
            let provider = self.provider
            let handle = ProgressHandle()
            let once = OnceContinuation<LivePhotoBox?>()
            let live = try await withTaskCancellationHandler {
                try await once.wait { once in
                    let loading = provider.loadObject(ofClass: PHLivePhoto.self) { object, error in
                        if let error {
                            once.resume(with: .failure(PhotosLoadError(error)))
                        } else {
                            once.resume(with: .success((object as? PHLivePhoto).map(LivePhotoBox.init)))
                        }
                    }
                    handle.set(loading)
                }
            } onCancel: {
                handle.cancel()
                once.cancel()
            }
            guard let live else { return [] }
            return resources.keep(PHAssetResource.assetResources(for: live.photo), of: live)
        }

        /// Writes one Live Photo resource into `inbox`, from iCloud when needed.
        public func write(
            _ resource: PickedResource, into inbox: PickedFileInbox, progress: @escaping @Sendable (Double) -> Void
        ) async throws -> PickedFile {
            try await resources.write(resource, into: inbox, progress: progress)
        }
    }

    /// A `PHLivePhoto` handed from Photos' handler queue to the loading task.
    ///
    /// `@unchecked Sendable` is safe: it is made in the handler and read once by the task that
    /// awaited it; nothing else holds it.
    struct LivePhotoBox: @unchecked Sendable {
        let photo: PHLivePhoto
    }
#endif
