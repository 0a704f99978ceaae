import Observation

/// Makes the thumbnails a grid shows, on every platform: ``ThumbnailMemo`` decides which file
/// to make when, this runs it. `make` turns a file into an image off the main actor; a tile's
/// `task` calls ``make(ofFile:)`` and the tile shows ``image(ofFile:)``, which redraws that tile
/// alone when its image arrives (each file is observed on its own: a grid of hundreds does not
/// redraw every tile for each thumbnail). PickupUI's `PickedThumbnails` is this over `UIImage`, made by
/// `AVFoundationThumbnailer`; the Linux tests run it over FFmpeg's thumbnailer.
@available(iOS 17.0, macOS 14.0, *)
@MainActor
@Observable
public final class ThumbnailMaker<Image: Sendable> {
    /// The decisions; not observed itself, so that a tile appearing does not redraw the grid.
    @ObservationIgnored private var memo: ThumbnailMemo<Image>
    /// Each file's arrivals, observed on their own: a tile reads its file's alone.
    @ObservationIgnored private var arrivals: [String: Arrivals] = [:]
    /// Observed by every tile: changes when every image is let go.
    private var cleared = 0
    /// How many times ``removeAll()`` let every image go: part of each tile's task's identity
    /// in a grid, so that the tiles on screen make theirs again at once.
    public private(set) var generation = 0
    @ObservationIgnored private let render: @Sendable (String) async -> Image?
    /// The tiles waiting for a turn (``ThumbnailMemo/Start/later``), by file.
    @ObservationIgnored private var turns: [String: CheckedContinuation<Void, Never>] = [:]

    /// A maker keeping the last `capacity` images, making `concurrency` at once with `render`
    /// (nil: the file could not be made into one). `render` runs off the main actor.
    public init(capacity: Int = 100, concurrency: Int = 2, render: @escaping @Sendable (String) async -> Image?) {
        memo = ThumbnailMemo(capacity: capacity, concurrency: concurrency)
        self.render = render
    }

    /// The thumbnail of the file at `path`, once made.
    public func image(ofFile path: String) -> Image? {
        _ = cleared
        _ = arrivals(path).count
        return memo.image(path)
    }

    private func arrivals(_ path: String) -> Arrivals {
        if let known = arrivals[path] { return known }
        let new = Arrivals()
        arrivals[path] = new
        return new
    }

    /// Makes the thumbnail of the file at `path` unless it is kept, being made, waiting, or
    /// could not be made before: a few at once, the others in the order their tiles appeared;
    /// returns when it is there (or is not to be). Call it from the tile's `task`. Once asked,
    /// it is made even if the tile goes (its task cancelled): a tile that comes back meanwhile
    /// finds it being made, and shows it when it is there.
    public func make(ofFile path: String) async {
        switch memo.begin(path) {
        case .no: return
        case .later: await withCheckedContinuation { turns[path] = $0 }
        case .now: break
        }
        let render = self.render
        // Not cancelled with the tile's task: a cancelled render would read as a failure. The
        // closure is not the main actor's, so the render runs on the global executor.
        let image = await Task.detached { await render(path) }.value
        let next = memo.end(path, image)
        if image != nil { arrivals(path).count &+= 1 }
        if let next { turns.removeValue(forKey: next)?.resume() }
    }

    /// Lets every thumbnail go, and forgets the files that could not be made (call it on a
    /// memory warning); the tiles on screen make theirs again.
    public func removeAll() {
        memo.removeAll()
        arrivals.removeAll()
        cleared &+= 1
        generation &+= 1
    }

    /// How many images are kept.
    public var count: Int { memo.count }
}

/// How many times a file's thumbnail arrived: what a tile showing it observes.
@available(iOS 17.0, macOS 14.0, *)
@MainActor
@Observable
final class Arrivals {
    var count = 0
}
