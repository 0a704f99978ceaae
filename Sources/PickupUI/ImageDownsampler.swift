#if canImport(ImageIO) && canImport(UIKit)
    import Foundation
    import ImageIO
    import UIKit

    /// Decodes a photo no larger than needed, upright: ImageIO's thumbnail path
    /// (`CGImageSourceCreateThumbnailAtIndex`, `CGImageSource.h`) with the maximum pixel size and
    /// the orientation transform applied, and without caching the full image. A 48 MP photo for a
    /// grid tile costs a few hundred kilobytes, not 190 MB.
    enum ImageDownsampler {
        /// The picture at `path`, its longest side at most `maxPixels`, turned upright.
        static func cgImage(at path: String, maxPixels: Int) -> CGImage? {
            let sourceOptions = [kCGImageSourceShouldCache: false] as CFDictionary
            guard let source = CGImageSourceCreateWithURL(URL(fileURLWithPath: path) as CFURL, sourceOptions) else {
                return nil
            }
            let options =
                [
                    kCGImageSourceCreateThumbnailFromImageAlways: true,
                    kCGImageSourceCreateThumbnailWithTransform: true,
                    kCGImageSourceShouldCacheImmediately: true,
                    kCGImageSourceThumbnailMaxPixelSize: max(1, maxPixels),
                ] as CFDictionary
            // The primary image: in a HEIF file it need not be the first (CGImageSource.h,
            // `CGImageSourceGetPrimaryImageIndex`).
            return CGImageSourceCreateThumbnailAtIndex(source, CGImageSourceGetPrimaryImageIndex(source), options)
        }

        /// The same, as a `UIImage`.
        static func image(at path: String, maxPixels: Int) -> UIImage? {
            cgImage(at: path, maxPixels: maxPixels).map { UIImage(cgImage: $0) }
        }
    }
#endif
