#if canImport(SwiftUI) && canImport(UIKit) && canImport(AVFoundation)
    import Foundation
    import Pickup
    import UIKit

    /// The thumbnails of a selection grid: each made once a tile's item is loaded, off the main
    /// thread, upright, no larger than the tile needs (``AVFoundationThumbnailer``: ImageIO's
    /// thumbnail path for photos, a poster frame for videos), two at a time in the order the
    /// tiles appeared, and kept for the last `capacity` files shown (``/Pickup/ThumbnailMaker``
    /// runs it and ``/Pickup/ThumbnailMemo`` decides, both tested on Linux).
    /// ``SelectionGridView/init(loader:thumbnails:onRemove:onRetry:onOpen:)`` asks it for each
    /// tile; a view of your own calls `make(ofFile:)` from a tile's `task` and shows
    /// `image(ofFile:)`.
    ///
    /// ```swift
    /// @State private var thumbnails = PickedThumbnails()
    /// ...
    /// SelectionGridView(loader: loader, thumbnails: thumbnails, onRemove: { key in
    ///     picked.removeAll { loader.key(of: $0) == key }
    /// })
    /// ```
    @available(iOS 17.0, *)
    public typealias PickedThumbnails = ThumbnailMaker<UIImage>

    @available(iOS 17.0, *)
    extension ThumbnailMaker where Image == UIImage {
        /// Thumbnails `pixels` on a side (a 100-point tile on a 3x screen takes 300; a wider
        /// tile, on iPad, more), filling the square, made by `renderer`, the last `capacity`
        /// kept (each of 300 pixels takes 360 KB decoded: 100 take 36 MB). Keep `capacity` above
        /// the tiles on screen and those the grid prepares around them (an iPad grid of small
        /// tiles shows more than 100): fewer, and tiles on screen take each other's place.
        public convenience init(
            pixels: Int = 300, renderer: any ThumbnailRenderer = AVFoundationThumbnailer(), capacity: Int = 100
        ) {
            let request = ThumbnailRequest(size: PixelSize(width: pixels, height: pixels), mode: .fill, format: .jpeg)
            self.init(capacity: capacity) { path in
                // Decoded here, ahead of display, not at first draw on the main thread.
                guard let rendered = try? await renderer.thumbnail(of: path, request),
                    let image = UIImage(data: Data(rendered.data))
                else { return nil }
                return image.preparingForDisplay() ?? image
            }
        }
    }
#endif
