#if canImport(Photos)
    import Foundation
    import Photos
    import Pickup
    import PickupImport

    /// A Live Photo's resources as Photos listed them, and their writing into Pickup's inbox
    /// with `PHAssetResourceManager` (iCloud downloads allowed, progress, cancellable).
    ///
    /// `@unchecked Sendable` is safe: `listed` and `livePhoto` are only read and written under
    /// `lock`, and a `PHAssetResource` is an immutable description (every property in
    /// `PHAssetResource.h` is `readonly`). `PHAssetResourceManager` is `NS_SWIFT_SENDABLE` in
    /// the 26.2 headers (`PHAssetResourceManager.h:33`; 17.4 does not say), and its handlers run
    /// "on an arbitrary serial queue" (line 38).
    final class LivePhotoResources: @unchecked Sendable {
        private let lock = NSLock()
        private var listed: [PHAssetResource] = []
        private var livePhoto: LivePhotoBox?

        /// Keeps Photos' list, and the Live Photo it came from (alive until the writes are
        /// done: nothing documents that its resources outlive it), and returns it as Pickup's values.
        func keep(_ resources: [PHAssetResource], of live: LivePhotoBox) -> [PickedResource] {
            lock.lock()
            listed = resources
            livePhoto = live
            lock.unlock()
            return resources.enumerated().map { index, resource in
                PickedResource(
                    role: LivePhotoResources.role(resource.type), originalFilename: resource.originalFilename,
                    contentType: resource.uniformTypeIdentifier, index: index)
            }
        }

        static var unwritable: String {
            Localized.string("The Live Photo's file could not be written. Free some space, then pick it again.")
        }

        static func role(_ type: PHAssetResourceType) -> PickedResource.Role {
            switch type {
            case .photo: return .photo
            case .fullSizePhoto: return .fullSizePhoto
            case .pairedVideo: return .pairedVideo
            case .fullSizePairedVideo: return .fullSizePairedVideo
            default: return .other
            }
        }

        /// Streams one resource into a file of the inbox (`requestData`, so that a deselected item's
        /// download can be cancelled: `writeData` cannot be). Handlers run "on an arbitrary serial
        /// queue" and the data lives only for the handler (`PHAssetResourceManager.h:38`): each piece
        /// is written before the handler returns.
        func write(
            _ wanted: PickedResource, into inbox: PickedFileInbox, progress: @escaping @Sendable (Double) -> Void
        ) async throws -> PickedFile {
            let resource = lock.withLock { wanted.index < listed.count ? listed[wanted.index] : nil }
            guard let resource else { throw PhotosLoadError.nothingHandedOver }
            // Apple does not document whether reading a picked Live Photo's resources can ask
            // for photo-library access; a prompt without the Info.plist key ends the app. So,
            // without the key and before the person was ever asked, the movie is not read (the
            // still is kept, and the item says why).
            if PHPhotoLibrary.authorizationStatus(for: .readWrite) == .notDetermined,
                Bundle.main.object(forInfoDictionaryKey: "NSPhotoLibraryUsageDescription") == nil
            {
                throw PhotosLoadError(description: "needs NSPhotoLibraryUsageDescription in the app's Info.plist")
            }
            let path = inbox.reserve(wanted.originalFilename)
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            guard descriptor >= 0 else {
                throw PhotosLoadError(
                    description: Localized.string(
                        "The Live Photo's file could not be written. Free some space, then pick it again."))
            }
            let writer = PieceWriter(descriptor: descriptor)
            defer { writer.close() }
            let options = PHAssetResourceRequestOptions()
            options.isNetworkAccessAllowed = true
            options.progressHandler = { progress($0) }
            if Task.isCancelled {
                inbox.discard(PickedFile(path: path, contentType: nil))  // made empty above: it goes
                throw CancellationError()
            }
            // The request id, and whether the task was cancelled before Photos gave one.
            let request = LockedValue<(id: PHAssetResourceDataRequestID?, cancelled: Bool)>((nil, false))
            let once = OnceContinuation<Void>()
            do {
                try await withTaskCancellationHandler {
                    try await once.wait { once in
                        let id = PHAssetResourceManager.default().requestData(
                            for: resource, options: options, dataReceivedHandler: { data in writer.append(data) },
                            completionHandler: { error in
                                if let error {
                                    once.resume(with: .failure(PhotosLoadError(error)))
                                } else if writer.hasFailed {
                                    once.resume(
                                        with: .failure(PhotosLoadError(description: LivePhotoResources.unwritable)))
                                } else {
                                    once.resume(with: .success(()))
                                }
                            })
                        let cancelNow = request.withValue { state -> Bool in
                            state.id = id
                            return state.cancelled
                        }
                        if cancelNow { PHAssetResourceManager.default().cancelDataRequest(id) }
                    }
                } onCancel: {
                    let id = request.withValue { state -> PHAssetResourceDataRequestID? in
                        state.cancelled = true
                        return state.id
                    }
                    if let id { PHAssetResourceManager.default().cancelDataRequest(id) }
                    once.cancel()
                }
            } catch {
                inbox.discard(PickedFile(path: path, contentType: nil))
                throw error
            }
            return PickedFile(path: path, contentType: wanted.contentType)
        }
    }

    /// Appends Photos' pieces to an open file; a failed write is remembered, not retried.
    ///
    /// Photos calls the data handler on one serial queue (`PHAssetResourceManager.h`, line 38 in
    /// the 26.2 SDK, 37 in 17.4); the descriptor and whether a write failed are kept under a lock
    /// all the same, for `close()`, which can run beside it after a cancel.
    final class PieceWriter: Sendable {
        private struct State {
            var descriptor: Int32
            var failed = false
        }
        private let state: LockedValue<State>

        init(descriptor: Int32) { state = LockedValue(State(descriptor: descriptor)) }

        /// Whether a piece could not be written.
        var hasFailed: Bool { state.current.failed }

        func append(_ data: Data) {
            state.withValue { state in
                guard !state.failed, state.descriptor >= 0 else { return }
                data.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count, let base = bytes.baseAddress {
                        let written = Darwin.write(state.descriptor, base + offset, bytes.count - offset)
                        if written < 0, errno == EINTR { continue }
                        if written <= 0 {
                            state.failed = true
                            return
                        }
                        offset += written
                    }
                }
            }
        }

        func close() {
            state.withValue { state in
                if state.descriptor >= 0 { _ = Darwin.close(state.descriptor) }
                state.descriptor = -1
            }
        }
    }
#endif
