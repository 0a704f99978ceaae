#if canImport(AVFoundation) && canImport(UIKit)
    import AVFoundation
    import Foundation
    import Pickup
    import UIKit

    /// The core's `ThumbnailRenderer` with AVFoundation: `AVAssetImageGenerator` with
    /// `appliesPreferredTrackTransform` (upright) and the request's tolerance; stills through
    /// ImageIO's thumbnail path, decoded no larger than the thumbnail needs and turned upright
    /// (`ImageDownsampler`). JPEG and PNG out.
    @available(iOS 16.0, *)
    public struct AVFoundationThumbnailer: ThumbnailRenderer {
        /// A thumbnailer on AVAssetImageGenerator and ImageIO.
        public init() {}

        /// An upright image of a photo, or of a video's frame, as `request` says.
        public func thumbnail(of path: String, _ request: ThumbnailRequest) async throws(RenderError) -> RenderedImage {
            let info: MediaInfo
            do {
                info = try MediaProbe().probe(path: path)
            } catch {
                throw RenderError(probeError: error, path: path)
            }
            if info.kind == .image {
                let geometry = ThumbnailGeometry(
                    source: PixelSize(width: info.width ?? 0, height: info.height ?? 0), orientation: info.orientation,
                    target: request.size, mode: request.mode)
                let longest =
                    info.width == nil ? max(request.size.width, request.size.height) : geometry.decodeMaxPixels
                guard let image = ImageDownsampler.image(at: path, maxPixels: longest) else {
                    throw RenderError(.unsupported, "ImageIO cannot decode this image", path: path)
                }
                return try encode(image, request, time: nil)
            }
            guard info.kind == .video else { throw RenderError(.noPicture, "the file has no picture", path: path) }
            try request.time.check(inside: info.duration, path: path)
            let seconds =
                request.time == .poster ? min(1, (info.duration ?? 0) / 10) : request.time.seconds(in: info.duration)
            return try await frame(path, at: seconds, request)
        }

        /// `count` frames spread over a video, for scrubbing.
        public func strip(
            of path: String, count: Int, _ request: ThumbnailRequest
        ) async throws(RenderError) -> [RenderedImage] {
            let duration = (try? MediaProbe().probe(path: path).duration) ?? 0
            var images: [RenderedImage] = []
            let frames = max(1, count)
            for index in 0..<frames {
                images.append(try await frame(path, at: duration * (Double(index) + 0.5) / Double(frames), request))
            }
            return images
        }

        private func frame(
            _ path: String, at seconds: Double, _ request: ThumbnailRequest
        ) async throws(RenderError) -> RenderedImage {
            let generator = AVAssetImageGenerator(asset: AVURLAsset(url: URL(fileURLWithPath: path)))
            generator.appliesPreferredTrackTransform = true
            generator.maximumSize = CGSize(width: request.size.width * 2, height: request.size.height * 2)
            let tolerance: CMTime = request.tolerance == .exact ? .zero : .positiveInfinity
            generator.requestedTimeToleranceBefore = tolerance
            generator.requestedTimeToleranceAfter = tolerance
            do {
                let (image, actual) = try await generator.image(at: CMTime(seconds: seconds, preferredTimescale: 600))
                return try encode(UIImage(cgImage: image), request, time: actual.seconds)
            } catch let error as RenderError {
                throw error
            } catch {
                throw RenderError(.damaged, error.localizedDescription, path: path)
            }
        }

        /// Scales to the request's geometry (fill crops around the center) and encodes.
        private func encode(
            _ image: UIImage, _ request: ThumbnailRequest, time: Double?
        ) throws(RenderError) -> RenderedImage {
            let source = PixelSize(
                width: Int(image.size.width * image.scale), height: Int(image.size.height * image.scale))
            let geometry = ThumbnailGeometry(
                source: source, orientation: .upright, target: request.size, mode: request.mode)
            let format = UIGraphicsImageRendererFormat()
            format.scale = 1
            let renderer = UIGraphicsImageRenderer(
                size: CGSize(width: geometry.output.width, height: geometry.output.height), format: format)
            let drawn = renderer.image { _ in
                image.draw(
                    in: CGRect(
                        x: -geometry.cropX, y: -geometry.cropY, width: geometry.scaled.width,
                        height: geometry.scaled.height))
            }
            let data: Data?
            switch request.format {
            case .jpeg: data = drawn.jpegData(compressionQuality: request.quality)
            case .png: data = drawn.pngData()
            case .webp: throw RenderError(.unsupported, "UIKit cannot write WebP; ask for JPEG or PNG")
            }
            guard let data else { throw RenderError(.unsupported, "the image could not be encoded") }
            return RenderedImage(data: [UInt8](data), size: geometry.output, format: request.format, time: time)
        }
    }
#endif
