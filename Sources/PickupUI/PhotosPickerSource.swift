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
        /// The photo library's identifier of the item.
        public let identifier: String?
        /// What the item offers, from its content types.
        public let kind: PickedContentKind
        let contentType: UTType?
        let resources = LivePhotoResources()

        /// The picker's item itself, which tells it apart without an identifier:
        /// `PhotosPickerItem` is `Hashable` (`_PhotosUI_SwiftUI.swiftinterface`, iPhoneOS 26.2
        /// line 77), and the binding hands back the values it holds.
        public var selectionValue: AnyHashable? { AnyHashable(item) }

        /// The picker's item.
        public init(_ item: PhotosPickerItem) {
            self.item = item
            identifier = item.itemIdentifier
            let types = item.supportedContentTypes
            kind = PhotosPickerSource.kind(of: types)
            contentType = PhotosPickerSource.fileType(of: types, kind: kind)
        }

        /// What the item's content types offer: Apple lists them best first. A Live Photo is
        /// known by a type that conforms to `.livePhoto`, or whose identifier names one
        /// (`com.apple.live-photo-bundle`, which Apple does not declare as conforming).
        static func kind(of types: [UTType]) -> PickedContentKind {
            if types.isEmpty { return .empty }
            if types.contains(where: { $0.conforms(to: .livePhoto) || $0.identifier.contains("live-photo") }) {
                return .livePhoto
            }
            if types.contains(where: { $0.conforms(to: .movie) }) { return .movie }
            if types.contains(where: { $0.conforms(to: .image) }) { return .image }
            return .other
        }

        /// The type of the file a load gives: the first that is a movie or an image as the kind
        /// says (never the Live Photo's bundle type).
        static func fileType(of types: [UTType], kind: PickedContentKind) -> UTType? {
            let wanted: UTType = kind == .movie ? .movie : kind == .other ? .data : .image
            return types.first { $0.conforms(to: wanted) && !$0.identifier.contains("live-photo") } ?? types.first
        }

        /// The item's file, copied into `inbox` inside Apple's handler, with iCloud progress.
        public func loadFile(
            into inbox: PickedFileInbox, progress: @escaping @Sendable (Double) -> Void
        ) async throws -> PickedFile {
            let taken: PickedFile
            let discard: @Sendable (PickedFile) -> Void = { PickedFileInbox.temporary.discard($0) }
            switch kind {
            case .movie: taken = try await load(InboxMovie.self, progress: progress, late: discard) { $0.file }
            case .livePhoto, .image:
                taken = try await load(InboxImage.self, progress: progress, late: discard) { $0.file }
            case .other, .empty: taken = try await load(InboxData.self, progress: progress, late: discard) { $0.file }
            }
            var file = taken
            file.contentType = contentType?.identifier ?? taken.contentType
            guard inbox != .temporary else { return file }
            defer { PickedFileInbox.temporary.discard(taken) }
            return try inbox.take(taken.path, contentType: file.contentType)
        }

        /// `loadTransferable(type:completionHandler:)`, the form that returns a `Progress`: its
        /// fraction is read four times a second (iCloud downloads), and cancelling the task
        /// cancels it and ends the wait at once (a result that comes later goes to `late`).
        func load<T: Transferable, R: Sendable>(
            _ type: T.Type, progress: @escaping @Sendable (Double) -> Void,
            late: @escaping @Sendable (R) -> Void = { _ in }, map: @escaping @Sendable (T) -> R
        ) async throws -> R {
            let handle = ProgressHandle()
            let watcher = handle.report(to: progress)
            defer { watcher.cancel() }
            let once = OnceContinuation<R>(late: late)
            let item = self.item
            return try await withTaskCancellationHandler {
                try await once.wait { once in
                    let loading = item.loadTransferable(type: T.self) { result in
                        switch result {
                        case .success(let value?): once.resume(with: .success(map(value)))
                        case .success(nil): once.resume(with: .failure(PhotosLoadError.nothingHandedOver))
                        case .failure(let error): once.resume(with: .failure(PhotosLoadError(error)))
                        }
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
            let live = try await load(PHLivePhoto.self, progress: { _ in }) { LivePhotoBox(photo: $0) }
            return resources.keep(PHAssetResource.assetResources(for: live.photo), of: live)
        }

        /// Writes one Live Photo resource into `inbox`, from iCloud when needed.
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

        /// Reads the fraction four times a second into `progress`, until the task is cancelled.
        func report(to progress: @escaping @Sendable (Double) -> Void) -> Task<Void, Never> {
            Task {
                while !Task.isCancelled {
                    if let fraction = self.fraction { progress(fraction) }
                    try? await Task.sleep(nanoseconds: 250_000_000)
                }
            }
        }

        var fraction: Double? {
            lock.lock()
            defer { lock.unlock() }
            // NSProgress.h: indeterminate when either count is below zero; its fraction means nothing then.
            guard let progress, progress.totalUnitCount > 0, !progress.isIndeterminate else { return nil }
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
            if let same = error as? PhotosLoadError {
                description = same.description
            } else if let imported = error as? ImportError {
                description = imported.message + ". " + imported.hint
            } else {
                // The error and those under it (a load's failure often wraps Photos' own), Photos'
                // domain by its constant (`PHError.h`), the others by name.
                var chain: [(domain: String, code: Int)] = []
                var next: NSError? = nsError
                while let current = next, chain.count < 4 {
                    chain.append(
                        (current.domain == PHPhotosErrorDomain ? "PHPhotosErrorDomain" : current.domain, current.code))
                    next = current.userInfo[NSUnderlyingErrorKey] as? NSError
                }
                switch PhotosLoadProblem(chain: chain) {
                case .network:
                    description = Localized.string(
                        "This item is in iCloud and could not be downloaded. Check the connection and try again.")
                case .space:
                    description = Localized.string(
                        "There is not enough space on this device to load this item. Free some space and try again.")
                case .cancelled:
                    description = Localized.string("The item was deselected before it loaded.")
                case nil:
                    description = nsError.localizedDescription
                }
            }
        }
    }
#endif
