#if canImport(AVFoundation) && canImport(UIKit)
    import AVFoundation
    import Foundation
    import Pickup
    import UIKit

    /// The core's `ThumbnailRenderer` with AVFoundation: `AVAssetImageGenerator` with
    /// `appliesPreferredTrackTransform` (upright) and the request's tolerance; stills
    /// through UIImage (which applies EXIF orientation). JPEG and PNG out.
    @available(iOS 16.0, *)
    public struct AVFoundationThumbnailer: ThumbnailRenderer {
        public init() {}

        public func thumbnail(of path: String, _ request: ThumbnailRequest) async throws(RenderError) -> RenderedImage {
            let info: MediaInfo
            do {
                info = try MediaProbe().probe(path: path)
            } catch {
                throw RenderError(probeError: error, path: path)
            }
            if info.kind == .image {
                guard let image = UIImage(contentsOfFile: path) else {
                    throw RenderError(.unsupported, "UIKit cannot decode this image", path: path)
                }
                return try encode(image, request, time: nil)
            }
            guard info.kind == .video else { throw RenderError(.noPicture, "the file has no picture", path: path) }
            let seconds =
                request.time == .poster ? min(1, (info.duration ?? 0) / 10) : request.time.seconds(in: info.duration)
            return try await frame(path, at: seconds, request)
        }

        public func strip(
            of path: String, count: Int, _ request: ThumbnailRequest
        ) async throws(RenderError) -> [RenderedImage] {
            let duration = (try? MediaProbe().probe(path: path).duration) ?? 0
            var images: [RenderedImage] = []
            for index in 0..<max(1, count) {
                images.append(try await frame(path, at: duration * (Double(index) + 0.5) / Double(count), request))
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

    /// The core's `MediaExporter` with `AVAssetExportSession`: Pickup's preset picks
    /// Apple's, passthrough when the plan says the source fits; trim, a size limit,
    /// metadata filtered for sharing when location must go. `export(to:as:)` (back-deployed
    /// by Apple); progress from `states` on iOS 18, from polling `progress` before;
    /// written to a temporary and moved into place.
    @available(iOS 16.0, *)
    public struct AVFoundationExporter: MediaExporter {
        public init() {}

        static func presetName(_ plan: ExportPlan, _ preset: ExportPreset) -> String {
            if plan.video == .copy { return AVAssetExportPresetPassthrough }
            switch preset {
            case .passthrough: return AVAssetExportPresetPassthrough
            case .low: return AVAssetExportPresetLowQuality
            case .medium: return AVAssetExportPresetMediumQuality
            case .highest: return AVAssetExportPresetHighestQuality
            case .p640x480: return AVAssetExportPreset640x480
            case .p960x540: return AVAssetExportPreset960x540
            case .p1280x720: return AVAssetExportPreset1280x720
            case .p1920x1080: return AVAssetExportPreset1920x1080
            case .p3840x2160: return AVAssetExportPreset3840x2160
            case .hevc1920x1080: return AVAssetExportPresetHEVC1920x1080
            case .hevc3840x2160: return AVAssetExportPresetHEVC3840x2160
            case .hevcHighest: return AVAssetExportPresetHEVCHighestQuality
            }
        }

        public func export(
            _ path: String, to output: String, _ options: ExportOptions, events: AsyncStream<ExportEvent>.Continuation?
        ) async throws(RenderError) -> ExportResult {
            let began = Date()
            let info: MediaInfo
            do {
                info = try MediaProbe().probe(path: path)
            } catch {
                throw RenderError(probeError: error, path: path)
            }
            let plan = try ExportPlan.make(for: info, options)
            events?.yield(.planned(plan))
            let asset = AVURLAsset(url: URL(fileURLWithPath: path))
            guard
                let session = AVAssetExportSession(
                    asset: asset, presetName: AVFoundationExporter.presetName(plan, options.preset))
            else { throw RenderError(.unsupported, "AVFoundation has no export session for this file", path: path) }
            if let trim = options.trim {
                session.timeRange = CMTimeRange(
                    start: CMTime(seconds: trim.lowerBound, preferredTimescale: 600),
                    end: CMTime(seconds: trim.upperBound, preferredTimescale: 600))
            }
            if let maxBytes = options.maxBytes { session.fileLengthLimit = maxBytes }
            if options.stripLocation { session.metadataItemFilter = .forSharing() }
            session.shouldOptimizeForNetworkUse = true
            let type: AVFileType = options.container == .mov ? .mov : .mp4
            let folder = (output as NSString).deletingLastPathComponent
            let temporary = URL(fileURLWithPath: folder.isEmpty ? "." : folder)
                .appendingPathComponent(".pickup-export-\(UUID().uuidString).\(options.container.fileExtension)")
            defer { try? FileManager.default.removeItem(at: temporary) }
            // Progress: the states sequence from iOS 18, the polled `progress` before.
            let watcher = Task {
                if #available(iOS 18.0, macOS 15.0, *) {
                    for await state in session.states(updateInterval: 0.25) {
                        if case .exporting(let progress) = state {
                            events?.yield(.progress(progress.fractionCompleted))
                        }
                    }
                } else {
                    while !Task.isCancelled {
                        events?.yield(.progress(Double(session.progress)))
                        try? await Task.sleep(nanoseconds: 250_000_000)
                    }
                }
            }
            defer { watcher.cancel() }
            do {
                try await session.export(to: temporary, as: type)
                _ = try FileManager.default.replaceItemAt(URL(fileURLWithPath: output), withItemAt: temporary)
            } catch {
                if Task.isCancelled { throw RenderError(.cancelled, "the export was cancelled", path: path) }
                throw RenderError(.writeFailed, error.localizedDescription, path: path)
            }
            events?.yield(.progress(1))
            let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int64) ?? 0
            let result = ExportResult(path: output, plan: plan, bytes: bytes, seconds: Date().timeIntervalSince(began))
            events?.yield(.finished(result))
            return result
        }
    }
#endif
