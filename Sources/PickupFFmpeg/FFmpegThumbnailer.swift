import CFFmpeg
import Foundation
import Pickup

/// Thumbnails and poster frames through FFmpeg's libraries (video, JPEG, PNG,
/// WebP, GIF) and libheif (HEIC, AVIF), always upright.
public struct FFmpegThumbnailer: ThumbnailRenderer {
    /// The bounds on the pictures it decodes.
    public var limits: RenderLimits
    /// The threads each video's decoder uses: 0, every core (frame threads); 1, one, for a
    /// caller that renders as many videos at once as there are cores (frame threads would
    /// only add the frames they decode past the one kept).
    public var decoderThreads: Int

    /// A thumbnailer that refuses pictures past `limits`, each video decoded on
    /// `decoderThreads` threads (0: every core).
    public init(limits: RenderLimits = RenderLimits(), decoderThreads: Int = 0) {
        self.limits = limits
        self.decoderThreads = max(0, decoderThreads)
    }

    public func thumbnail(of path: String, _ request: ThumbnailRequest) async throws(RenderError) -> RenderedImage {
        let info = try facts(path)
        if info.kind == .image {
            return try still(path, info, request)
        }
        let decoder = try PictureDecoder(
            path: path, limits: limits, describedByContainer: FFmpegThumbnailer.describes(info.container),
            threads: decoderThreads)
        let orientation = info.orientation
        let geometry = ThumbnailGeometry(
            source: decoder.size, orientation: orientation, target: request.size, mode: request.mode)
        let duration = (decoder.duration ?? info.duration).flatMap { $0 > 0 ? $0 : nil }
        try request.time.check(inside: duration, path: path)
        if request.time == .poster {
            return try poster(decoder, geometry, orientation, duration, request)
        }
        // A share of a length no header states would be a share of nothing: the first frame.
        if case .fraction(let fraction) = request.time, duration == nil {
            throw RenderError(
                .impossible,
                "the video states no duration, so \(Int((fraction * 100).rounded()))% of it cannot be found",
                path: path, hint: "Give a time in seconds (--at 2), or leave --at out for a poster frame.")
        }
        let seconds = request.time.seconds(in: duration)
        decoder.onlyOneTime = true
        // The nearest keyframe is close enough within a second; farther (a long GOP: --at 5 gave
        // 0:00), the frame at that time is decoded forward from it.
        var frame = try decoder.frame(at: seconds, tolerance: request.tolerance, keyframeWithin: 1)
        // No keyframe decoded alone (the first frame after the seek came instead): the same rule.
        if request.tolerance == .keyframe, let found = decoder.seconds(of: frame), abs(found - seconds) > 1 {
            frame = try decoder.frame(at: seconds, tolerance: .exact)
        }
        // Without a stated duration, a time past the end is found only now: the frame the
        // decoder ended on is well before it.
        if duration == nil, let found = decoder.seconds(of: frame), found < seconds - 1 {
            let last = String(format: "%.2f s", found)
            throw RenderError(
                .impossible,
                "the video states no duration and its last frame is at \(last); there is no frame at "
                    + DurationLabel.string(seconds: seconds.rounded(.down)),
                path: path, hint: "Ask for a time inside the video, up to \(last).")
        }
        let image = try RGBImage(frame: frame, size: geometry.scaled)
        return try finish(image, geometry, orientation, request, time: decoder.seconds(of: frame))
    }

    public func strip(
        of path: String, count: Int, _ request: ThumbnailRequest
    ) async throws(RenderError)
        -> [RenderedImage]
    {
        guard (1...200).contains(count) else {
            throw RenderError(.impossible, "a strip has 1 to 200 frames, not \(count)")
        }
        let info = try facts(path)
        guard info.kind == .video else {
            throw RenderError(
                .noPicture, "a strip is made of a video's frames, and this is not a video", path: path,
                hint: "Make one thumbnail of a photo instead.")
        }
        let decoder = try PictureDecoder(
            path: path, limits: limits, describedByContainer: FFmpegThumbnailer.describes(info.container),
            threads: decoderThreads)
        let geometry = ThumbnailGeometry(
            source: decoder.size, orientation: info.orientation, target: request.size, mode: request.mode)
        let duration = decoder.duration ?? info.duration ?? 0
        // Frames spread over a length no header states would all be the first.
        guard duration > 0 else {
            throw RenderError(
                .impossible, "the video states no duration, so a strip cannot spread its frames over it", path: path,
                hint:
                    "Copy it into a file that states one (ffmpeg -i IN -c copy OUT.mp4), or make one thumbnail with --at."
            )
        }
        var images: [RenderedImage] = []
        var tolerance = request.tolerance
        // In time order, each going on from the last (or seeking forward past it): one pass
        // through the file.
        for index in 0..<count {
            if Task.isCancelled { throw RenderError(.cancelled, "the strip was cancelled") }
            let seconds = duration * (Double(index) + 0.5) / Double(count)
            // Keyframes sparser than the strip's steps (a long GOP) would give the same picture
            // several times, or frames unevenly spaced (a 4 s clip's strip of 4 at 0, 1.5, 2.5
            // and 3.5 s): a keyframe farther than a quarter step from the time asked gives way to
            // the frame at that time, decoded forward from it, and so do the frames after it.
            let frame = try decoder.frame(
                at: seconds, tolerance: tolerance, keyframeWithin: duration / Double(count) / 4)
            if decoder.wentForward { tolerance = .exact }
            let time = decoder.seconds(of: frame)
            let image = try RGBImage(frame: frame, size: geometry.scaled)
            images.append(try finish(image, geometry, info.orientation, request, time: time))
        }
        return images
    }

    /// A poster frame: the first of a few candidates (the start, 1 s, then 10%, 25%, 33%, 50%
    /// and 75% of the duration) that is neither black nor blank; failing that, the one with
    /// the most detail.
    private func poster(
        _ decoder: PictureDecoder, _ geometry: ThumbnailGeometry, _ orientation: Orientation, _ duration: Double?,
        _ request: ThumbnailRequest
    ) throws(RenderError) -> RenderedImage {
        let length = duration ?? 0
        var candidates: [Double] = [0]
        for time in [1.0, length * 0.1, length * 0.25, length / 3, length * 0.5, length * 0.75]
        where time < length && time > candidates.last ?? 0 {
            candidates.append(time)
        }
        var best: (image: RGBImage, time: Double?, spread: Double)?
        for seconds in candidates {
            guard let frame = try? decoder.frame(at: seconds, tolerance: .keyframe) else { continue }
            let time = decoder.seconds(of: frame)
            let image = try RGBImage(frame: frame, size: geometry.scaled)
            if image.looksMeaningful { return try finish(image, geometry, orientation, request, time: time) }
            let spread = image.brightness.spread
            if best == nil || spread > (best?.spread ?? 0) { best = (image, time, spread) }
        }
        guard let best else { throw RenderError(.damaged, "no frame could be decoded", path: decoder.path) }
        return try finish(best.image, geometry, orientation, request, time: best.time)
    }

    private func still(
        _ path: String, _ info: MediaInfo, _ request: ThumbnailRequest
    ) throws(RenderError)
        -> RenderedImage
    {
        if [.heic, .heif, .avif].contains(info.container) {
            // libheif hands the picture back upright.
            let upright = try HEIFDecoder.decode(path: path, target: (request.size, request.mode), limits: limits)
            let geometry = ThumbnailGeometry(
                source: PixelSize(width: upright.width, height: upright.height), orientation: .upright,
                target: request.size, mode: request.mode)
            return try finish(try upright.scaled(to: geometry.scaled), geometry, .upright, request, time: nil)
        }
        if info.container == .webp, info.animated {
            return try animatedWebP(path, info, request)
        }
        if info.container.isCameraRaw {
            return try rawPreview(path, info, request)
        }
        // JPEG decodes at 1/2, 1/4 or 1/8 scale when the target is that much smaller.
        var planned: ThumbnailGeometry?
        let known = info.width.flatMap { width in info.height.map { PixelSize(width: width, height: $0) } }
        let decoder = try PictureDecoder(path: path, limits: limits, knownSize: known) { stored in
            let geometry = ThumbnailGeometry(
                source: stored, orientation: info.orientation, target: request.size, mode: request.mode)
            planned = geometry
            return info.container == .jpeg
                ? ThumbnailGeometry.reductionExponent(source: stored, scaled: geometry.scaled) : 0
        }
        let geometry =
            planned
            ?? ThumbnailGeometry(
                source: decoder.size, orientation: info.orientation, target: request.size, mode: request.mode)
        let frame = try decoder.frame(at: 0, tolerance: .keyframe)
        let image = try RGBImage(frame: frame, size: geometry.scaled)
        return try finish(image, geometry, info.orientation, request, time: nil)
    }

    /// An animated WebP's first frame: FFmpeg's WebP decoder reads only stills, so the frame is
    /// written out as one (`AnimatedWebP`) and decoded from there.
    private func animatedWebP(
        _ path: String, _ info: MediaInfo, _ request: ThumbnailRequest
    ) throws(RenderError) -> RenderedImage {
        guard info.fileSize <= 256 << 20 else {
            throw RenderError(.tooLarge, "the animated WebP is larger than 256 MB", path: path)
        }
        let data: [UInt8]
        do {
            let source = try FileByteSource(path: path)
            data = try source.read(at: 0, count: Int(source.size))
        } catch {
            throw RenderError(.unreadable, "cannot read the file", path: path)
        }
        guard let (still, size) = AnimatedWebP.firstFrame(of: data) else {
            throw RenderError(.damaged, "the animated WebP holds no frame that can be read", path: path)
        }
        return try decodeApart(
            still, named: "webp-frame.webp", knownSize: size, orientation: .upright, of: path, request)
    }

    /// A camera's raw photo: its JPEG preview, which the probe found, turned upright by the
    /// photo's own orientation (the camera stores the preview as the sensor saw it). Nothing here
    /// decodes a sensor's data: a raw file without a preview is refused, saying so.
    private func rawPreview(
        _ path: String, _ info: MediaInfo, _ request: ThumbnailRequest
    ) throws(RenderError) -> RenderedImage {
        let format = info.container.rawValue.uppercased()
        guard let preview = info.preview else { throw RenderError.rawWithoutPreview(info.container, path: path) }
        guard preview.length <= 64 << 20 else {
            throw RenderError(.tooLarge, "the \(format)'s JPEG preview is larger than 64 MB", path: path)
        }
        let bytes: [UInt8]
        do {
            bytes = try FileByteSource(path: path).read(at: preview.offset, count: Int(preview.length))
        } catch {
            throw RenderError(probeError: error, path: path)
        }
        // Probed first, as a JPEG of its own: its size spares FFmpeg's analysis, and a preview that
        // is not a JPEG is named as such.
        let facts = try? MediaProbe().probe(bytes: bytes)
        guard let facts, facts.container == .jpeg, let width = facts.width, let height = facts.height else {
            throw RenderError(
                .damaged, "the \(format)'s JPEG preview does not read as a JPEG", path: path, hint: RenderError.rawHint)
        }
        let size = PixelSize(width: width, height: height)
        return try decodeApart(
            bytes, named: "raw-preview.jpg", knownSize: size, orientation: info.orientation, of: path, request)
    }

    /// A picture held inside another file (an animated WebP's frame, a raw photo's preview),
    /// written to a temporary file of its own and decoded from there.
    private func decodeApart(
        _ bytes: [UInt8], named name: String, knownSize: PixelSize?, orientation: Orientation, of path: String,
        _ request: ThumbnailRequest
    ) throws(RenderError) -> RenderedImage {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pickup-\(UUID().uuidString)-\(name)")
        do {
            try Data(bytes).write(to: temporary)
        } catch {
            throw RenderError(.writeFailed, "cannot write a temporary file at \(temporary.path)", path: path)
        }
        defer { try? FileManager.default.removeItem(at: temporary) }
        var planned: ThumbnailGeometry?
        let decoder = try PictureDecoder(path: temporary.path, limits: limits, knownSize: knownSize) { stored in
            let geometry = ThumbnailGeometry(
                source: stored, orientation: orientation, target: request.size, mode: request.mode)
            planned = geometry
            // A JPEG decodes at 1/2, 1/4 or 1/8 scale when the target is that much smaller.
            return name.hasSuffix(".jpg")
                ? ThumbnailGeometry.reductionExponent(source: stored, scaled: geometry.scaled) : 0
        }
        let geometry =
            planned
            ?? ThumbnailGeometry(
                source: decoder.size, orientation: orientation, target: request.size, mode: request.mode)
        let frame = try decoder.frame(at: 0, tolerance: .keyframe)
        let image = try RGBImage(frame: frame, size: geometry.scaled)
        return try finish(image, geometry, orientation, request, time: nil)
    }

    private func finish(
        _ image: RGBImage, _ geometry: ThumbnailGeometry, _ orientation: Orientation, _ request: ThumbnailRequest,
        time: Double?
    ) throws(RenderError) -> RenderedImage {
        let upright = image.oriented(orientation).cropped(
            x: geometry.cropX, y: geometry.cropY, width: geometry.output.width, height: geometry.output.height)
        let data = try ImageEncoder.encode(upright, as: request.format, quality: request.quality)
        return RenderedImage(
            data: data, size: PixelSize(width: upright.width, height: upright.height), format: request.format,
            time: time)
    }

    /// Containers whose headers fully describe their streams.
    static func describes(_ container: Container) -> Bool {
        [.mp4, .mov, .m4v, .threeGP, .threeG2, .mkv, .webm].contains(container)
    }

    private func facts(_ path: String) throws(RenderError) -> MediaInfo {
        do {
            return try MediaProbe().probe(path: path)
        } catch {
            throw RenderError(probeError: error, path: path)
        }
    }
}
