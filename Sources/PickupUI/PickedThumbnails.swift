#if canImport(SwiftUI) && canImport(UIKit) && canImport(AVFoundation)
    import Foundation
    import Observation
    import Pickup
    import UIKit

    /// The thumbnails of a selection grid: each made once a tile's item is loaded, off the main
    /// thread, upright, no larger than the tile needs (``AVFoundationThumbnailer``: ImageIO's
    /// thumbnail path for photos, a poster frame for videos), two at a time in the order the
    /// tiles appeared, and kept for the last `capacity` files shown (``/Pickup/ThumbnailMemo``,
    /// where these decisions are made and tested).
    /// ``SelectionGridView/init(loader:thumbnails:onRemove:onRetry:onOpen:)`` asks it for each
    /// tile; a view of your own calls ``make(ofFile:)`` from a tile's `task` and shows
    /// ``image(ofFile:)``.
    ///
    /// ```swift
    /// @State private var thumbnails = PickedThumbnails()
    /// ...
    /// SelectionGridView(loader: loader, thumbnails: thumbnails, onRemove: { key in
    ///     picked.removeAll { loader.key(of: $0) == key }
    /// })
    /// ```
    @available(iOS 17.0, *)
    @MainActor
    @Observable
    public final class PickedThumbnails {
        /// The decisions; not observed itself, so that a tile appearing does not redraw the grid.
        @ObservationIgnored private var memo: ThumbnailMemo<UIImage>
        /// Observed: changes when an image is kept or let go, which redraws the tiles that show one.
        private var imagesChanged = 0
        /// How many times ``removeAll()`` let every image go: part of each tile's task's identity
        /// in ``SelectionGridView``, so that the tiles on screen make theirs again at once.
        public private(set) var generation = 0
        /// The size, mode and format each thumbnail is made at.
        public let request: ThumbnailRequest
        @ObservationIgnored private let renderer: any ThumbnailRenderer
        /// The tiles waiting for a turn (`ThumbnailMemo.Start.later`), by file.
        @ObservationIgnored private var turns: [String: CheckedContinuation<Void, Never>] = [:]

        /// Thumbnails `pixels` on a side (a 100-point tile on a 3x screen takes 300; a wider
        /// tile, on iPad, more), filling the square, made by `renderer`, the last `capacity`
        /// kept (each of 300 pixels takes 360 KB decoded: 100 take 36 MB).
        public init(
            pixels: Int = 300, renderer: any ThumbnailRenderer = AVFoundationThumbnailer(), capacity: Int = 100
        ) {
            memo = ThumbnailMemo(capacity: capacity)
            request = ThumbnailRequest(size: PixelSize(width: pixels, height: pixels), mode: .fill, format: .jpeg)
            self.renderer = renderer
        }

        /// The thumbnail of the file at `path`, once made.
        public func image(ofFile path: String) -> UIImage? {
            _ = imagesChanged
            return memo.image(path)
        }

        /// Makes the thumbnail of the file at `path` unless it is kept, being made, waiting, or
        /// could not be made before: two at once, the others in the order their tiles appeared;
        /// returns when it is there (or is not to be). Call it from the tile's `task`. Once
        /// asked, it is made even if the tile goes (its task cancelled): a tile that comes back
        /// meanwhile finds it being made, and shows it when it is there.
        public func make(ofFile path: String) async {
            switch memo.begin(path) {
            case .no: return
            case .later: await withCheckedContinuation { turns[path] = $0 }
            case .now: break
            }
            let renderer = self.renderer
            let request = self.request
            // Not cancelled with the tile's task: a cancelled render would read as a failure.
            let image = await Task { await Self.render(path, renderer, request) }.value
            let next = memo.end(path, image)
            if image != nil { imagesChanged &+= 1 }
            pass(next)
        }

        /// Renders and decodes off the main actor (a nonisolated async function runs on the
        /// global executor): upright, scaled, and decoded ahead of display (`preparingForDisplay`).
        private nonisolated static func render(
            _ path: String, _ renderer: any ThumbnailRenderer, _ request: ThumbnailRequest
        ) async -> UIImage? {
            guard let rendered = try? await renderer.thumbnail(of: path, request),
                let image = UIImage(data: Data(rendered.data))
            else { return nil }
            return image.preparingForDisplay() ?? image
        }

        /// Wakes the tile whose turn it is.
        private func pass(_ next: String?) {
            if let next { turns.removeValue(forKey: next)?.resume() }
        }

        /// Lets every thumbnail go, and forgets the files that could not be made (call it on a
        /// memory warning); the tiles on screen make theirs again.
        public func removeAll() {
            memo.removeAll()
            imagesChanged &+= 1
            generation &+= 1
        }
    }
#endif
