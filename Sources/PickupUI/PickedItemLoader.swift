#if canImport(PhotosUI) && canImport(Photos) && canImport(SwiftUI)
    import Foundation
    import Observation
    import Photos
    import PhotosUI
    import Pickup
    import PickupImport
    import SwiftUI
    import UniformTypeIdentifiers

    /// Loads what the library picker picked: a few items at a time, delivered in
    /// selection order, each imported into the app's library as it arrives; Live
    /// Photos as still + movie; iCloud items downloaded with progress when the app
    /// has library access. Every item ends loaded or failed — never a stuck spinner.
    @available(iOS 17.0, macOS 14.0, *)
    @MainActor
    @Observable
    public final class PickedItemLoader {
        /// Each picked item's state, by the picker's item identifier (or its index).
        public private(set) var states: [String: PickedItemTile<String>.State] = [:]
        /// The items loaded, by the same keys: their facts and stored files.
        public private(set) var items: [String: ImportedItem] = [:]
        @ObservationIgnored private var loaded: Set<String> = []
        @ObservationIgnored private var running: Task<Void, Never>?
        let concurrency: Int

        /// A loader that loads `concurrency` items at once.
        public init(concurrency: Int = 3) { self.concurrency = concurrency }

        /// Loads the items not loaded yet (items kept from an earlier pick are not loaded again).
        public func load(_ picked: [PhotosPickerItem]) {
            let keys = picked.enumerated().map { PickedItemLoader.key($1, $0) }
            let fresh = zip(picked, keys).filter { !loaded.contains($0.1) }
            for (_, key) in fresh { states[key] = .loading(fraction: nil) }
            let inputs = fresh.map { Pick(item: $0.0, key: $0.1) }
            let loader = OrderedLoader<Pick, ImportedItem>(concurrency: concurrency) { pick in
                await PickedItemLoader.load(pick) { fraction in
                    Task { @MainActor in self.progress(pick.key, fraction) }
                }
            }
            running = Task {
                for await (index, result) in loader.results(for: inputs) {
                    let key = inputs[index].key
                    switch result {
                    case .success(let item):
                        items[key] = item
                        states[key] = .ready
                        loaded.insert(key)
                    case .failure(let failure):
                        states[key] = .failed(message: failure.message)
                    }
                }
            }
        }

        /// Forgets an item the person removed (its imported files stay in the library).
        public func remove(_ key: String) {
            states[key] = nil
            items[key] = nil
            loaded.remove(key)
        }

        private func progress(_ key: String, _ fraction: Double) {
            if case .loading = states[key] { states[key] = .loading(fraction: fraction) }
        }

        typealias Pick = HandedOverPickerItem

        static func key(_ item: PhotosPickerItem, _ index: Int) -> String { item.itemIdentifier ?? "#\(index)" }

        nonisolated static func load(
            _ pick: Pick, progress: @escaping @Sendable (Double) -> Void
        ) async -> Result<ImportedItem, OrderedLoader<Pick, ImportedItem>.LoadFailure> {
            do {
                let types = pick.item.supportedContentTypes
                if types.contains(where: { $0.conforms(to: .livePhoto) }), let identifier = pick.item.itemIdentifier,
                    let pair = try await LibraryResources.livePhoto(identifier, progress: progress)
                {
                    return .success(pair)
                }
                if types.contains(where: { $0.conforms(to: .movie) }) {
                    guard let movie = try await pick.item.loadTransferable(type: PickedMovie.self) else {
                        throw PickError("Photos gave no movie for this item")
                    }
                    return .success(movie.item)
                }
                guard let photo = try await pick.item.loadTransferable(type: PickedPhoto.self) else {
                    throw PickError("Photos gave no photo for this item")
                }
                return .success(photo.item)
            } catch let error as ImportError {
                return .failure(.init(error.message + ". " + error.hint))
            } catch let error as PickError {
                return .failure(.init(error.message))
            } catch {
                return .failure(.init(LibraryResources.explain(error)))
            }
        }
    }

    struct PickError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// Reads resources straight from the photo library (needs library access): a Live
    /// Photo's still and paired movie, downloaded from iCloud when they are not on the device.
    enum LibraryResources {
        static func livePhoto(
            _ identifier: String, progress: @escaping @Sendable (Double) -> Void
        ) async throws -> ImportedItem? {
            switch LivePhotoAccess(accessStatus(PHPhotoLibrary.authorizationStatus(for: .readWrite))) {
            case .read: break
            case .ask:
                let answer = accessStatus(await PHPhotoLibrary.requestAuthorization(for: .readWrite))
                guard LivePhotoAccess(answer) == .read else {
                    throw PickError(PickProblem.livePhotoNeedsLibraryAccess.description)
                }
            case .refused(let problem): throw PickError(problem.description)
            }
            guard let asset = PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil).firstObject else {
                return nil
            }
            let resources = PHAssetResource.assetResources(for: asset)
            guard let still = resources.first(where: { $0.type == .photo }),
                let movie = resources.first(where: { $0.type == .pairedVideo })
            else { return nil }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "pickup-live-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let stillURL = folder.appendingPathComponent(still.originalFilename)
            let movieURL = folder.appendingPathComponent(movie.originalFilename)
            try await write(still, to: stillURL) { progress($0 * 0.3) }
            try await write(movie, to: movieURL) { progress(0.3 + $0 * 0.7) }
            return try await PickedMediaStore.shared.keep(stillURL, livePhotoMovie: movieURL)
        }

        static func accessStatus(_ status: PHAuthorizationStatus) -> LivePhotoAccess.Status {
            switch status {
            case .authorized: return .authorized
            case .limited: return .limited
            case .denied: return .denied
            case .restricted: return .restricted
            case .notDetermined: return .notDetermined
            @unknown default: return .denied
            }
        }

        /// Writes one resource to a file; iCloud downloads allowed, with progress.
        static func write(
            _ resource: PHAssetResource, to url: URL, progress: @escaping @Sendable (Double) -> Void
        ) async throws {
            let options = PHAssetResourceRequestOptions()
            options.isNetworkAccessAllowed = true
            options.progressHandler = { progress($0) }
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                PHAssetResourceManager.default().writeData(for: resource, toFile: url, options: options) { error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
        }

        /// What a loading failure means for the person.
        static func explain(_ error: Error) -> String {
            let nsError = error as NSError
            if nsError.domain == NSURLErrorDomain || nsError.domain == "CloudPhotoLibraryErrorDomain" {
                return "This item is in iCloud and could not be downloaded. Check the connection and try again."
            }
            return nsError.localizedDescription
        }
    }
#endif
