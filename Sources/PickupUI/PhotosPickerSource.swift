#if canImport(PhotosUI) && canImport(Photos) && canImport(SwiftUI)
    import Foundation
    import Photos
    import PhotosUI
    import Pickup
    import PickupImport
    import SwiftUI
    import UniformTypeIdentifiers

    /// A `PhotosPickerItem` as Pickup's loading decisions see it (`PickedItemSource`): Apple's
    /// calls in, nothing decided here.
    ///
    /// `@unchecked Sendable`, and why that is safe: the iOS 17 SDK does not mark
    /// `PhotosPickerItem` `Sendable` (26.2 does: `@unchecked Sendable`), though it is a struct of
    /// an identifier, content types and the picker's handle, and loading it is an `async` API
    /// meant to run off the main actor. The Live Photo resources kept here are read and written
    /// only under `resources`' lock, and `PHAssetResource` is an immutable description (every
    /// property in `PHAssetResource.h` is `readonly`).
    @available(iOS 16.0, macOS 13.0, *)
    public struct PhotosPickerSource: PickedItemSource, @unchecked Sendable {
        let item: PhotosPickerItem
        public let identifier: String?
        public let kind: PickedContentKind
        let contentType: UTType?
        let resources = LivePhotoResources()

        /// The picker's item.
        public init(_ item: PhotosPickerItem) {
            self.item = item
            identifier = item.itemIdentifier
            let types = item.supportedContentTypes
            kind = PhotosPickerSource.kind(of: types)
            contentType = types.first
        }

        /// What the item's content types offer: Apple lists them best first.
        static func kind(of types: [UTType]) -> PickedContentKind {
            if types.isEmpty { return .empty }
            if types.contains(where: { $0.conforms(to: .livePhoto) }) { return .livePhoto }
            if types.contains(where: { $0.conforms(to: .movie) }) { return .movie }
            if types.contains(where: { $0.conforms(to: .image) }) { return .image }
            return .other
        }

        public func loadFile(
            into inbox: PickedFileInbox, progress: @escaping @Sendable (Double) -> Void
        ) async throws -> PickedFile {
            let taken: PickedFile
            switch kind {
            case .movie: taken = try await load(InboxMovie.self, progress: progress).file
            case .livePhoto, .image: taken = try await load(InboxImage.self, progress: progress).file
            case .other, .empty: taken = try await load(InboxData.self, progress: progress).file
            }
            var file = taken
            file.contentType = contentType?.identifier ?? taken.contentType
            guard inbox != .temporary else { return file }
            defer { PickedFileInbox.temporary.discard(taken) }
            return try inbox.take(taken.path, contentType: file.contentType)
        }

        /// `loadTransferable(type:completionHandler:)`, the form that returns a `Progress`: its
        /// fraction is read four times a second (iCloud downloads), and cancelling the task cancels it.
        func load<T: InboxTransfer>(_ type: T.Type, progress: @escaping @Sendable (Double) -> Void) async throws -> T {
            let handle = ProgressHandle()
            let watcher = Task {
                while !Task.isCancelled {
                    if let fraction = handle.fraction { progress(fraction) }
                    try? await Task.sleep(nanoseconds: 250_000_000)
                }
            }
            defer { watcher.cancel() }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                    let loading = item.loadTransferable(type: T.self) { result in
                        switch result {
                        case .success(let value?): continuation.resume(returning: value)
                        case .success(nil): continuation.resume(throwing: PhotosLoadError.nothingHandedOver)
                        case .failure(let error): continuation.resume(throwing: PhotosLoadError(error))
                        }
                    }
                    handle.set(loading)
                }
            } onCancel: {
                handle.cancel()
            }
        }

        public func livePhotoResources() async throws -> [PickedResource] {
            let live: PHLivePhoto?
            do {
                live = try await item.loadTransferable(type: PHLivePhoto.self)
            } catch {
                throw PhotosLoadError(error)
            }
            guard let live else { return [] }
            return resources.keep(PHAssetResource.assetResources(for: live))
        }

        public func write(
            _ resource: PickedResource, into inbox: PickedFileInbox, progress: @escaping @Sendable (Double) -> Void
        ) async throws -> PickedFile {
            try await resources.write(resource, into: inbox, progress: progress)
        }
    }

    /// The `Progress` of one load, read and cancelled from other threads under a lock.
    ///
    /// `@unchecked Sendable` is safe: `progress` is only touched under `lock`, and `Progress`
    /// itself is thread-safe (Apple's `NSProgress.h`: its properties may be read from any thread).
    final class ProgressHandle: @unchecked Sendable {
        private let lock = NSLock()
        private var progress: Progress?
        private var cancelled = false

        func set(_ progress: Progress) {
            lock.lock()
            self.progress = progress
            let cancel = cancelled
            lock.unlock()
            if cancel { progress.cancel() }
        }

        func cancel() {
            lock.lock()
            cancelled = true
            let progress = self.progress
            lock.unlock()
            progress?.cancel()
        }

        var fraction: Double? {
            lock.lock()
            defer { lock.unlock() }
            guard let progress, progress.totalUnitCount > 0 else { return nil }
            return progress.fractionCompleted
        }
    }

    /// What Photos said when it could not load an item, in words for the person.
    struct PhotosLoadError: Error, CustomStringConvertible {
        let description: String

        static let nothingHandedOver = PhotosLoadError(
            description: Localized.string("Photos gave nothing for this item. Pick it again."))

        init(description: String) { self.description = description }

        init(_ error: any Error) {
            if error is CancellationError {
                description = Localized.string("The item was deselected before it loaded.")
                return
            }
            let nsError = error as NSError
            if nsError.domain == NSURLErrorDomain || nsError.domain == "CloudPhotoLibraryErrorDomain" {
                description = Localized.string(
                    "This item is in iCloud and could not be downloaded. Check the connection and try again.")
            } else if nsError.domain == NSCocoaErrorDomain, nsError.code == NSUserCancelledError {
                description = Localized.string("The item was deselected before it loaded.")
            } else {
                description = nsError.localizedDescription
            }
        }
    }
#endif
