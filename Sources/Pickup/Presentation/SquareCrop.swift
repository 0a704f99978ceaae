/// The square an avatar editor cuts from a photo: the person zooms (at least enough to fill
/// the square) and drags, and the square never leaves the picture.
public struct SquareCrop: Sendable, Hashable {
    /// The photo's upright size in pixels.
    public var image: PixelSize
    /// The zoom, 1 = the photo's shorter side fills the square.
    public private(set) var zoom: Double = 1
    /// The square's centre, in the photo's pixels.
    public private(set) var center: (x: Double, y: Double)

    /// A crop of `image` zoomed to fill, centred.
    public init(image: PixelSize) {
        self.image = image
        center = (Double(image.width) / 2, Double(image.height) / 2)
    }

    /// The side of the square in the photo's pixels.
    public var side: Double { Double(min(image.width, image.height)) / zoom }

    /// Zooms to `zoom` (from 1 to 8), the square kept inside the photo.
    public mutating func zoom(to zoom: Double) {
        self.zoom = min(8, max(1, zoom.isFinite ? zoom : 1))
        clamp()
    }

    /// Moves the square by a drag of `dx`, `dy` points on a square view of `viewSide` points
    /// (dragging the picture right moves the square left).
    public mutating func drag(dx: Double, dy: Double, viewSide: Double) {
        guard viewSide > 0, dx.isFinite, dy.isFinite else { return }
        let scale = side / viewSide
        center = (center.x - dx * scale, center.y - dy * scale)
        clamp()
    }

    /// The pixels to keep: x, y, and the side, whole pixels inside the photo.
    public var rect: (x: Int, y: Int, side: Int) {
        let whole = max(1, Int(side.rounded(.down)))
        let x = min(max(0, Int((center.x - side / 2).rounded())), max(0, image.width - whole))
        let y = min(max(0, Int((center.y - side / 2).rounded())), max(0, image.height - whole))
        return (x, y, whole)
    }

    private mutating func clamp() {
        let half = side / 2
        center.x = min(max(center.x, half), Double(image.width) - half)
        center.y = min(max(center.y, half), Double(image.height) - half)
    }

    /// Whether two crops are the same.
    public static func == (a: SquareCrop, b: SquareCrop) -> Bool {
        a.image == b.image && a.zoom == b.zoom && a.center == b.center
    }

    /// Hashes the crop.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(image)
        hasher.combine(zoom)
        hasher.combine(center.x)
        hasher.combine(center.y)
    }
}
