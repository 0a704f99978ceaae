#if canImport(Photos)
    import Foundation
    import Photos
    import Pickup
    import PickupImport

    /// A Live Photo's resources as Photos listed them, and their writing into Pickup's inbox
    /// with `PHAssetResourceManager` (iCloud downloads allowed, progress, cancellable).
    ///
    /// `@unchecked Sendable` is safe: `listed` is only read and written under `lock`, and a
    /// `PHAssetResource` is an immutable description (every property in `PHAssetResource.h` is
    /// `readonly`); `PHAssetResourceManager` is `NS_SWIFT_SENDABLE` (`PHAssetResourceManager.h:33`).
    final class LivePhotoResources: @unchecked Sendable {
        private let lock = NSLock()
        private var listed: [PHAssetResource] = []

        /// Keeps Photos' list and returns it as Pickup's values.
        func keep(_ resources: [PHAssetResource]) -> [PickedResource] {
            lock.lock()
            listed = resources
            lock.unlock()
            return resources.enumerated().map { index, resource in
                PickedResource(
                    role: LivePhotoResources.role(resource.type), originalFilename: resource.originalFilename,
                    contentType: resource.uniformTypeIdentifier, index: index)
            }
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
            lock.lock()
            let resource = wanted.index < listed.count ? listed[wanted.index] : nil
            lock.unlock()
            guard let resource else { throw PhotosLoadError.nothingHandedOver }
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
            let request = LockedValue<PHAssetResourceDataRequestID?>(nil)
            do {
                try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                        let id = PHAssetResourceManager.default().requestData(
                            for: resource, options: options, dataReceivedHandler: { data in writer.append(data) },
                            completionHandler: { error in
                                if let error {
                                    continuation.resume(throwing: PhotosLoadError(error))
                                } else if writer.hasFailed {
                                    continuation.resume(
                                        throwing: PhotosLoadError(
                                            description: Localized.string(
                                                "The Live Photo's file could not be written. Free some space, then pick it again."
                                            )))
                                } else {
                                    continuation.resume()
                                }
                            })
                        request.withValue { $0 = id }
                    }
                } onCancel: {
                    if let id = request.current { PHAssetResourceManager.default().cancelDataRequest(id) }
                }
            } catch {
                unlink(path)
                throw error
            }
            return PickedFile(path: path, contentType: wanted.contentType)
        }
    }

    /// Appends Photos' pieces to an open file; a failed write is remembered, not retried.
    ///
    /// `@unchecked Sendable` is safe: Photos calls the data handler on one serial queue
    /// (`PHAssetResourceManager.h:38`), and `failed` and the descriptor are guarded by `lock`.
    final class PieceWriter: @unchecked Sendable {
        private let lock = NSLock()
        private var descriptor: Int32
        private var failed = false

        init(descriptor: Int32) { self.descriptor = descriptor }

        /// Whether a piece could not be written.
        var hasFailed: Bool {
            lock.lock()
            defer { lock.unlock() }
            return failed
        }

        func append(_ data: Data) {
            lock.lock()
            defer { lock.unlock() }
            guard !failed, descriptor >= 0 else { return }
            data.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count, let base = bytes.baseAddress {
                    let written = Darwin.write(descriptor, base + offset, bytes.count - offset)
                    if written < 0, errno == EINTR { continue }
                    if written <= 0 {
                        failed = true
                        return
                    }
                    offset += written
                }
            }
        }

        func close() {
            lock.lock()
            defer { lock.unlock() }
            if descriptor >= 0 { _ = Darwin.close(descriptor) }
            descriptor = -1
        }
    }
#endif
