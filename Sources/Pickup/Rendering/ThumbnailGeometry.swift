/// Where a picture goes in a thumbnail: the size to scale the stored picture to
/// (before turning it upright), and the part of the upright result to keep.
public struct ThumbnailGeometry: Sendable, Hashable {
    /// The stored picture scaled to this (its own orientation, before rotation).
    public var scaled: PixelSize
    /// The crop of the upright scaled picture: its left edge (with `cropY` and `output`, the crop).
    public var cropX: Int
    /// The crop's top edge in the upright scaled picture.
    public var cropY: Int
    /// The crop's size: the thumbnail's pixel size.
    public var output: PixelSize

    /// For a stored picture of `source` pixels that must be turned by `orientation`,
    /// shown in `target` with `mode`. Never scales up past the source; sizes are at least 1.
    public init(source: PixelSize, orientation: Orientation, target: PixelSize, mode: ContentMode) {
        let swaps = orientation.rotation.swapsDimensions
        let uprightWidth = Double(swaps ? source.height : source.width)
        let uprightHeight = Double(swaps ? source.width : source.height)
        let scaleX = Double(target.width) / uprightWidth
        let scaleY = Double(target.height) / uprightHeight
        let scale = min(1, mode == .fill ? max(scaleX, scaleY) : min(scaleX, scaleY))
        let width = max(1, Int((uprightWidth * scale).rounded()))
        let height = max(1, Int((uprightHeight * scale).rounded()))
        scaled = swaps ? PixelSize(width: height, height: width) : PixelSize(width: width, height: height)
        if mode == .fill {
            let outWidth = min(width, target.width)
            let outHeight = min(height, target.height)
            output = PixelSize(width: outWidth, height: outHeight)
            cropX = (width - outWidth) / 2
            cropY = (height - outHeight) / 2
        } else {
            output = PixelSize(width: width, height: height)
            cropX = 0
            cropY = 0
        }
    }

    /// The longest side a decoder must give for this thumbnail, and no more: what ImageIO's
    /// `kCGImageSourceThumbnailMaxPixelSize` is set to, so a 48 MP photo is never decoded whole
    /// for a grid tile.
    public var decodeMaxPixels: Int { max(scaled.width, scaled.height) }

    /// How much a decoder may shrink while decoding (JPEG's 1/2, 1/4, 1/8 scales) and
    /// still give at least `scaled`: the exponent n of 1/2ⁿ, up to `maximum`.
    public static func reductionExponent(source: PixelSize, scaled: PixelSize, maximum: Int = 3) -> Int {
        var exponent = 0
        while exponent < maximum, source.width >> (exponent + 1) >= scaled.width,
            source.height >> (exponent + 1) >= scaled.height
        {
            exponent += 1
        }
        return exponent
    }
}

/// An RGB picture in memory, 3 bytes a pixel, rows packed.
public struct RGBImage: Sendable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The pixels, row by row, red, green and blue bytes.
    public var pixels: [UInt8]

    /// A picture from its size and packed pixels.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The picture turned upright: mirrored left to right first if asked, then turned clockwise.
    public func oriented(_ orientation: Orientation) -> RGBImage {
        if orientation == .upright { return self }
        let swaps = orientation.rotation.swapsDimensions
        let outWidth = swaps ? height : width
        let outHeight = swaps ? width : height
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        for y in 0..<height {
            for x in 0..<width {
                let sx = orientation.mirrored ? width - 1 - x : x
                let (ox, oy): (Int, Int)
                switch orientation.rotation {
                case .none: (ox, oy) = (x, y)
                case .clockwise90: (ox, oy) = (height - 1 - y, x)
                case .upsideDown: (ox, oy) = (width - 1 - x, height - 1 - y)
                case .clockwise270: (ox, oy) = (y, width - 1 - x)
                }
                let from = (y * width + sx) * 3
                let to = (oy * outWidth + ox) * 3
                out[to] = pixels[from]
                out[to + 1] = pixels[from + 1]
                out[to + 2] = pixels[from + 2]
            }
        }
        return RGBImage(width: outWidth, height: outHeight, pixels: out)
    }

    /// A rectangle of the picture (clamped to it).
    public func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int) -> RGBImage {
        let x0 = max(0, min(x, width - 1))
        let y0 = max(0, min(y, height - 1))
        let w = max(1, min(cropWidth, width - x0))
        let h = max(1, min(cropHeight, height - y0))
        if x0 == 0, y0 == 0, w == width, h == height { return self }
        var out = [UInt8]()
        out.reserveCapacity(w * h * 3)
        for row in y0..<(y0 + h) {
            let start = (row * width + x0) * 3
            out.append(contentsOf: pixels[start..<(start + w * 3)])
        }
        return RGBImage(width: w, height: h, pixels: out)
    }

    /// Mean brightness (0...255) and its spread (standard deviation): how a poster frame
    /// is told from a black or blank one.
    public var brightness: (mean: Double, spread: Double) {
        var sum = 0.0
        var squares = 0.0
        var count = 0.0
        var index = 0
        let step = max(1, (width * height) / 4096) * 3  // a sample of about 4,000 pixels
        while index + 2 < pixels.count {
            let luma =
                0.299 * Double(pixels[index]) + 0.587 * Double(pixels[index + 1]) + 0.114 * Double(pixels[index + 2])
            sum += luma
            squares += luma * luma
            count += 1
            index += step
        }
        guard count > 0 else { return (0, 0) }
        let mean = sum / count
        return (mean, max(0, squares / count - mean * mean).squareRoot())
    }

    /// Whether it looks like a real picture: not black, not washed out, not one flat color.
    public var looksMeaningful: Bool {
        let (mean, spread) = brightness
        return mean > 16 && mean < 245 && spread > 8
    }
}
