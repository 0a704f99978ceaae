#if canImport(CoreTransferable) && canImport(UniformTypeIdentifiers)
    import CoreTransferable
    import Foundation
    import Pickup
    import PickupImport
    import UniformTypeIdentifiers

    /// Where picked files go the moment Photos hands them over: the app's
    /// `ImportSession`. Set it once at launch (`PickedMediaStore.shared.use(session)`).
    ///
    /// `@unchecked Sendable` is safe: `session` is only read and written under `lock`.
    public final class PickedMediaStore: @unchecked Sendable {
        /// The one store, used by the transfer types.
        public static let shared = PickedMediaStore()
        private let lock = NSLock()
        private var session: ImportSession?

        /// Sets the session picked files are imported into.
        public func use(_ session: ImportSession) {
            lock.lock()
            self.session = session
            lock.unlock()
        }

        var current: ImportSession? {
            lock.lock()
            defer { lock.unlock() }
            return session
        }

        /// Imports a received file (and a Live Photo's movie) before the transfer closure
        /// returns — after it returns, the received file is gone.
        func keep(_ file: URL, livePhotoMovie: URL? = nil) async throws -> ImportedItem {
            guard let session = current else {
                throw ImportError(
                    .destinationUnwritable, "no import session: call PickedMediaStore.shared.use(session) at launch")
            }
            let info: MediaInfo
            do {
                info = try MediaProbe().probe(path: file.path)
            } catch {
                throw ImportError(probeError: error, path: file.path)
            }
            let request = ImportRequest(path: file.path, info: info, livePhotoMovie: livePhotoMovie?.path)
            guard let result = await session.run([request]).first else {
                throw ImportError(.cancelled, "the import did not run", path: file.path)
            }
            switch result {
            case .imported(let item), .reused(let item), .restored(let item): return item
            case .failed(let error): throw error
            }
        }
    }

    /// A picked movie, imported into the app's library as Photos hands it over
    /// (`FileRepresentation`: no whole video in memory, no vanished temporary file).
    public struct PickedMovie: Transferable, Sendable {
        /// The imported movie.
        public let item: ImportedItem

        /// A movie file, imported as it is received.
        public static var transferRepresentation: some TransferRepresentation {
            FileRepresentation(importedContentType: .movie) { received in
                PickedMovie(item: try await PickedMediaStore.shared.keep(received.file))
            }
        }
    }

    /// A picked photo (HEIC, JPEG, PNG...), imported the same way, in its own encoding.
    public struct PickedPhoto: Transferable, Sendable {
        /// The imported photo (a Live Photo's still, when only the still is handed over).
        public let item: ImportedItem

        /// An image file, imported as it is received.
        public static var transferRepresentation: some TransferRepresentation {
            FileRepresentation(importedContentType: .image) { received in
                PickedPhoto(item: try await PickedMediaStore.shared.keep(received.file))
            }
        }
    }
#endif
