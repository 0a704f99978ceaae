#if canImport(SwiftUI) && canImport(UIKit) && canImport(AVFoundation)
    import Foundation
    import Observation
    import Pickup
    import UIKit

    /// The thumbnails of a selection grid: each made once a tile's item is loaded, off the main
    /// thread, upright, no larger than the tile needs (``AVFoundationThumbnailer``: ImageIO's
    /// thumbnail path for photos, a poster frame for videos), and kept for the last `capacity`
    /// files shown (``/Pickup/ThumbnailMemo``, where these decisions are made and tested).
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
        private var memo: ThumbnailMemo<UIImage>
        /// The size, mode and format each thumbnail is made at.
        public let request: ThumbnailRequest
        @ObservationIgnored private let renderer: any ThumbnailRenderer

        /// Thumbnails `pixels` on a side (a 100-point tile on a 3x screen takes 300), filling
        /// the square, made by `renderer`, the last `capacity` kept.
        public init(
            pixels: Int = 300, renderer: any ThumbnailRenderer = AVFoundationThumbnailer(), capacity: Int = 300
        ) {
            memo = ThumbnailMemo(capacity: capacity)
            request = ThumbnailRequest(size: PixelSize(width: pixels, height: pixels), mode: .fill, format: .jpeg)
            self.renderer = renderer
        }

        /// The thumbnail of the file at `path`, once made.
        public func image(ofFile path: String) -> UIImage? { memo.image(path) }

        /// Makes the thumbnail of the file at `path` unless it is kept, being made, or could not
        /// be made before; returns when it is there (or is not to be).
        public func make(ofFile path: String) async {
            guard memo.begin(path) else { return }
            let renderer = self.renderer
            let request = self.request
            // Off the main actor: the renderer decodes and scales.
            let rendered = await Task.detached { try? await renderer.thumbnail(of: path, request) }.value
            memo.end(path, rendered.flatMap { UIImage(data: Data($0.data)) })
        }

        /// Lets every thumbnail go (call it on a memory warning); tiles make theirs again as they appear.
        public func removeAll() { memo.removeAll() }
    }
#endif
