#if canImport(PhotosUI) && canImport(Photos) && canImport(UIKit)
    import Foundation
    import Photos
    import PhotosUI
    import Pickup
    import PickupImport
    import UniformTypeIdentifiers

    /// A `PHPickerResult` as Pickup's loading decisions see it (`PickedItemSource`).
    ///
    /// `@unchecked Sendable` is safe: `NSItemProvider`'s load methods may be called from any
    /// thread (its handlers are `NS_SWIFT_SENDABLE` in `NSItemProvider.h`), each source is loaded
    /// by one task, and the Live Photo resources are kept under their own lock.
    public struct ItemProviderSource: PickedItemSource, @unchecked Sendable {
        let provider: NSItemProvider
        public let identifier: String?
        public let kind: PickedContentKind
        let resources = LivePhotoResources()

        /// A result the picker returned.
        public init(_ result: PHPickerResult) {
            provider = result.itemProvider
            identifier = result.assetIdentifier
            let types = result.itemProvider.registeredTypeIdentifiers.compactMap { UTType($0) }
            kind = PhotosPickerSource.kind(of: types)
        }

        /// The best registered type of the item's kind ("register higher-fidelity types first",
        /// `NSItemProvider.h:85`).
        var fileType: String? {
            let types = provider.registeredTypeIdentifiers
            let wanted: UTType = kind == .movie ? .movie : kind == .other ? .data : .image
            return types.first { UTType($0)?.conforms(to: wanted) == true } ?? types.first
        }

        public func loadFile(
            into inbox: PickedFileInbox, progress: @escaping @Sendable (Double) -> Void
        ) async throws -> PickedFile {
            guard let type = fileType else { throw PhotosLoadError.nothingHandedOver }
            let handle = ProgressHandle()
            let watcher = Task {
                while !Task.isCancelled {
                    if let fraction = handle.fraction { progress(fraction) }
                    try? await Task.sleep(nanoseconds: 250_000_000)
                }
            }
            defer { watcher.cancel() }
            let provider = self.provider
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation {
                    (continuation: CheckedContinuation<PickedFile, any Error>) in
                    // `NSItemProvider.h:119`: the file "will be deleted when the completion handler
                    // returns": it is copied into the inbox here, inside the handler.
                    let loading = provider.loadFileRepresentation(forTypeIdentifier: type) { url, error in
                        guard let url else {
                            continuation.resume(
                                throwing: error.map(PhotosLoadError.init) ?? PhotosLoadError.nothingHandedOver)
                            return
                        }
                        do {
                            continuation.resume(returning: try inbox.take(url.path, contentType: type))
                        } catch {
                            continuation.resume(throwing: error)
                        }
                    }
                    handle.set(loading)
                }
            } onCancel: {
                handle.cancel()
            }
        }

        public func livePhotoResources() async throws -> [PickedResource] {
            guard provider.canLoadObject(ofClass: PHLivePhoto.self) else { return [] }
            let provider = self.provider
            let live = try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<LivePhotoBox?, any Error>) in
                _ = provider.loadObject(ofClass: PHLivePhoto.self) { object, error in
                    if let error {
                        continuation.resume(throwing: PhotosLoadError(error))
                    } else {
                        continuation.resume(returning: (object as? PHLivePhoto).map(LivePhotoBox.init))
                    }
                }
            }
            guard let live else { return [] }
            return resources.keep(PHAssetResource.assetResources(for: live.photo))
        }

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
