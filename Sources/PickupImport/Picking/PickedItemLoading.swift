import Pickup

/// How one picked item is loaded, decided here and nowhere else: a Live Photo as its pair
/// without asking for photo-library access, a movie or photo as a file copied out of the
/// picker in time, a preselected item never, and every failure said in words a person can act on.
public struct PickedItemLoading: Sendable {
    /// Where loaded files go.
    public var importer: PickedItemImporter
    /// Whether Live Photos bring their movie.
    public var motion: LivePhotoMotion
    /// Where each load gets time to finish when the app leaves the screen.
    public var background: any BackgroundTimeGranting

    /// Loading into `importer`'s library, Live Photos as `motion` says, each load inside
    /// `background` time (on iPhone `UIKitBackgroundTime`).
    public init(
        importer: PickedItemImporter, motion: LivePhotoMotion = .pair,
        background: any BackgroundTimeGranting = NoBackgroundTime()
    ) {
        self.importer = importer
        self.motion = motion
        self.background = background
    }

    /// Loads one item as `key`, reporting fractions from 0 to 1.
    ///
    /// A Live Photo's movie comes from `PHAssetResource.assetResources(for: PHLivePhoto)`, with no
    /// `PHPhotoLibrary.requestAuthorization`: the picker already gives the app what the person
    /// picked. When the movie cannot be had, the still is kept and the item says why; the still
    /// never fails because of its motion.
    public func load<Source: PickedItemSource>(
        _ source: Source, key: String, progress: @escaping @Sendable (Double) -> Void
    ) async -> Result<PickedItem, PickFailure> {
        let loading = self
        do {
            return try await BackgroundTime.run("Pickup: loading a picked item", granting: background) {
                await loading.loadNow(source, key: key, progress: progress)
            }
        } catch {
            return .failure(PickFailure(.cancelled, PickFailure.stopped))
        }
    }

    func loadNow<Source: PickedItemSource>(
        _ source: Source, key: String, progress: @escaping @Sendable (Double) -> Void
    ) async -> Result<PickedItem, PickFailure> {
        do {
            switch source.kind {
            case .empty:
                return .failure(PickFailure(.preselected, "Photos gave nothing for this item: it was preselected."))
            case .livePhoto where motion == .pair:
                return .success(try await livePhoto(source, key: key, progress: progress))
            case .livePhoto, .movie, .image, .other:
                let file = try await source.loadFile(into: importer.inbox, progress: progress)
                try Task.checkCancellation()
                return .success(try await importer.keep(file, key: key))
            }
        } catch let error as ImportError {
            return .failure(PickFailure(.importFailed, error.message + ". " + error.hint))
        } catch {
            if error is CancellationError || Task.isCancelled {
                return .failure(PickFailure(.cancelled, PickFailure.stopped))
            }
            return .failure(PickFailure(.loadFailed, PickFailure.explain(error)))
        }
    }

    /// The still and its movie; the still alone, with a note, when the movie cannot be had.
    func livePhoto<Source: PickedItemSource>(
        _ source: Source, key: String, progress: @escaping @Sendable (Double) -> Void
    ) async throws -> PickedItem {
        var reason = "was not handed over by Photos"
        do {
            if let plan = LivePhotoResourcePlan(try await source.livePhotoResources()) {
                let still = try await source.write(plan.still, into: importer.inbox) { progress($0 * 0.3) }
                let movie: PickedFile
                do {
                    movie = try await source.write(plan.movie, into: importer.inbox) { progress(0.3 + $0 * 0.7) }
                } catch {
                    // The still is written already: keep it, rather than load it a second time.
                    guard !(error is CancellationError), !Task.isCancelled else {
                        importer.inbox.discard(still)
                        throw CancellationError()
                    }
                    let why = "could not be loaded (\(PickFailure.explain(error)))"
                    return try await importer.keep(still, key: key, note: .livePhotoWithoutMotion(reason: why))
                }
                try Task.checkCancellation()
                return try await importer.keep(still, movie: movie, key: key)
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as ImportError {
            reason = "could not be kept (\(error.message))"
        } catch {
            reason = "could not be loaded (\(PickFailure.explain(error)))"
        }
        try Task.checkCancellation()
        let file = try await source.loadFile(into: importer.inbox, progress: progress)
        try Task.checkCancellation()
        return try await importer.keep(file, key: key, note: .livePhotoWithoutMotion(reason: reason))
    }
}

/// Why one picked item could not be loaded, for a program (``code``) and a person (``message``).
public struct PickFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Code: String, Sendable, Hashable, Codable {
        /// A preselected item: Photos hands nothing over for it (never shown as a failure).
        case preselected
        /// The person deselected it, or the loader was told to stop.
        case cancelled
        /// Photos could not give the file (an iCloud download failed, the item vanished).
        case loadFailed
        /// The file arrived, and the library could not keep it.
        case importFailed
    }

    /// What kind of failure.
    public var code: Code
    /// What happened, and what to do.
    public var message: String

    /// A failure of `code` with its message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The failure, as a sentence for the person.
    public var description: String { message }

    /// What a load stopped before its end says (deselected, the screen closed, background time over).
    public static let stopped = "The item stopped loading before it finished. Try again."

    /// What an error from Photos means for the person: iCloud and network errors by their
    /// domain; otherwise the error's own words (the adapters' errors are sentences).
    public static func explain(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("NSURLErrorDomain") || text.contains("CloudPhotoLibraryErrorDomain") {
            return "This item is in iCloud and could not be downloaded. Check the connection and try again."
        }
        // Pickup's adapters throw errors whose description is the sentence to show.
        return text
    }
}
