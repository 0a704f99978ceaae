import CFFmpeg
import Pickup

/// One export from an input file to an output file, as planned: packets copied
/// or streams converted, the time range kept, metadata copied or stripped. One
/// owner for each C pointer, freed in `deinit`.
final class ExportSession {
    private var input: UnsafeMutablePointer<AVFormatContext>?
    private var output: UnsafeMutablePointer<AVFormatContext>?
    private let plan: ExportPlan
    private let options: ExportOptions
    private let limits: RenderLimits
    private let inputPath: String
    private let outputPath: String
    /// A target bit rate (a size limit), instead of quality with a cap.
    private let bitRate: Int?

    init(
        input: String, output: String, plan: ExportPlan, options: ExportOptions, limits: RenderLimits, bitRate: Int?
    ) {
        _ = quietFFmpeg
        inputPath = input
        outputPath = output
        self.plan = plan
        self.options = options
        self.limits = limits
        self.bitRate = bitRate
    }

    deinit {
        if let output {
            if output.pointee.pb != nil { avio_closep(&output.pointee.pb) }
            avformat_free_context(output)
        }
        avformat_close_input(&input)
    }

    /// A stream of the output and where its packets come from.
    private struct Route {
        let inputIndex: Int32
        let outputIndex: Int32
        let video: Bool
        let inputTimeBase: AVRational
        /// Decodes and encodes the stream again (nil: packets are copied).
        var converter: (any StreamConverter)?
        var done = false
        /// The time range kept, in the input's time base (set once known).
        var offset: Int64 = 0
        var end: Int64?
    }

    func run(progress: (Double) -> Void) throws(RenderError) {
        var context: UnsafeMutablePointer<AVFormatContext>?
        let opened = SystemPath.withCString(inputPath) { avformat_open_input(&context, $0, nil, nil) }
        guard opened == 0, let context else {
            throw RenderError(.unreadable, "cannot open: \(ffmpegText(opened))", path: inputPath)
        }
        input = context
        guard avformat_find_stream_info(context, nil) >= 0 else {
            throw RenderError(.damaged, "cannot read the streams", path: inputPath)
        }
        var out: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&out, nil, options.container.rawValue, outputPath) >= 0, let out else {
            throw RenderError(.unsupported, "FFmpeg cannot write \(options.container.rawValue)")
        }
        output = out
        let globalHeader = (out.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER) != 0
        var routes: [Route] = []
        let videoIndex = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        if videoIndex >= 0, let stream = context.pointee.streams[Int(videoIndex)],
            pickup_is_attached_picture(stream) == 0
        {
            routes.append(try addStream(stream, index: videoIndex, video: true, globalHeader: globalHeader))
        } else {
            throw RenderError(.noPicture, "the file has no video", path: inputPath)
        }
        let audioIndex = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        if audioIndex >= 0, let stream = context.pointee.streams[Int(audioIndex)], plan.audio != nil {
            routes.append(try addStream(stream, index: audioIndex, video: false, globalHeader: globalHeader))
        }
        copyMetadata(from: context.pointee.metadata, to: &out.pointee.metadata)
        // Times below zero stay so: a copied video cut inside a GOP keeps the packets from the
        // keyframe before the cut, and an encoder with B-frames decodes its first frames before
        // they show. The muxer then writes an edit list that starts the picture at zero; shifted
        // instead, every stream would start late (two frames for x264) and the export would last
        // longer than its source.
        out.pointee.avoid_negative_ts = AVFMT_AVOID_NEG_TS_AUTO
        guard avio_open(&out.pointee.pb, outputPath, AVIO_FLAG_WRITE) >= 0 else {
            throw RenderError(.writeFailed, "cannot write \(outputPath)")
        }
        var muxerOptions: OpaquePointer?
        defer { av_dict_free(&muxerOptions) }
        av_dict_set(&muxerOptions, "movflags", "+faststart+use_metadata_tags", 0)
        let header = avformat_write_header(out, &muxerOptions)
        guard header >= 0 else { throw RenderError(.writeFailed, "cannot start the output: \(ffmpegText(header))") }
        try pump(context, out, &routes, progress: progress)
        let trailer = av_write_trailer(out)
        guard trailer >= 0 else { throw RenderError(.writeFailed, "cannot finish the output: \(ffmpegText(trailer))") }
        avio_closep(&out.pointee.pb)
    }

    // MARK: Streams

    /// Adds the output stream that `stream` (video when `video`) goes to: encoded again when the
    /// plan says so, its packets copied otherwise.
    private func addStream(
        _ stream: UnsafeMutablePointer<AVStream>, index: Int32, video: Bool, globalHeader: Bool
    ) throws(RenderError) -> Route {
        guard let output, let created = avformat_new_stream(output, nil) else {
            throw RenderError(.unsupported, "cannot add \(video ? "a video" : "an audio") stream")
        }
        var route = Route(
            inputIndex: index, outputIndex: created.pointee.index, video: video, inputTimeBase: stream.pointee.time_base
        )
        let parameters = created.pointee.codecpar
        if let converter = try makeConverter(for: stream, video: video, globalHeader: globalHeader) {
            guard let encoder = converter.encoder else {
                throw RenderError(.unsupported, "no \(video ? "video" : "audio") encoder")
            }
            avcodec_parameters_from_context(parameters, encoder)
            created.pointee.time_base = encoder.pointee.time_base
            if video, parameters?.pointee.codec_id == AV_CODEC_ID_HEVC {
                parameters?.pointee.codec_tag = ExportSession.hvc1
            }
            route.converter = converter
        } else {
            avcodec_parameters_copy(parameters, stream.pointee.codecpar)
            let isHEVC = stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_HEVC
            parameters?.pointee.codec_tag = video && isHEVC ? ExportSession.hvc1 : 0
            created.pointee.time_base = stream.pointee.time_base
        }
        if video {
            created.pointee.avg_frame_rate = stream.pointee.avg_frame_rate
            // The rotation stays as the source has it (AVFoundation's preferredTransform).
            pickup_copy_display_matrix(stream, created)
        }
        copyMetadata(from: stream.pointee.metadata, to: &created.pointee.metadata)
        return route
    }

    /// The converter the plan asks for `stream`, or nil when its packets are copied.
    private func makeConverter(
        for stream: UnsafeMutablePointer<AVStream>, video: Bool, globalHeader: Bool
    ) throws(RenderError) -> (any StreamConverter)? {
        if video {
            guard case .encode(let codec, let size, let quality, let maxBitRate) = plan.video else { return nil }
            return try VideoConverter(
                stream: stream, codec: codec, size: size, quality: quality, maxBitRate: maxBitRate,
                bitRate: self.bitRate,
                globalHeader: globalHeader, limits: limits)
        }
        guard case .encode(let audioBitRate) = plan.audio else { return nil }
        return try AudioConverter(stream: stream, bitRate: audioBitRate, globalHeader: globalHeader)
    }

    static let hvc1: UInt32 = 0x68 | 0x76 << 8 | 0x63 << 16 | 0x31 << 24  // "hvc1": what Apple's players want

    /// Copies metadata; with `stripLocation`, only the entries of `keptWhenStripped` go along
    /// (an allow-list: the place, the camera, the author, titles, comments and every tag not
    /// named stay behind).
    private func copyMetadata(from source: OpaquePointer?, to target: inout OpaquePointer?) {
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while true {
            entry = av_dict_get(source, "", entry, AV_DICT_IGNORE_SUFFIX)
            guard let current = entry, let key = current.pointee.key, let value = current.pointee.value else { break }
            let name = String(cString: key).lowercased()
            if options.stripLocation, !ExportSession.keptWhenStripped.contains(name) { continue }
            if name == "encoder" || name == "major_brand" || name == "minor_version" || name == "compatible_brands" {
                continue
            }
            av_dict_set(&target, key, value, 0)
        }
    }

    /// What `--strip-location` keeps of a video's metadata, as the photo formats keep only
    /// their orientation and date (SECURITY.md): the capture date (QuickTime's with its zone),
    /// the rotation, and each track's language and handler name.
    static let keptWhenStripped: Set<String> = [
        "creation_time", "com.apple.quicktime.creationdate", "date", "rotate", "language", "handler_name",
    ]

    // MARK: Packets

    private func pump(
        _ input: UnsafeMutablePointer<AVFormatContext>, _ output: UnsafeMutablePointer<AVFormatContext>,
        _ routes: inout [Route], progress: (Double) -> Void
    ) throws(RenderError) {
        let start = options.trim?.lowerBound ?? 0
        // An open range (`START-`) ends where the video does.
        let end = options.trim.flatMap { $0.upperBound.isFinite ? $0.upperBound : nil }
        if start > 0 {
            av_seek_frame(input, -1, ticks(start, in: AVRational(num: 1, den: AV_TIME_BASE)), AVSEEK_FLAG_BACKWARD)
        }
        // Everything is timed from `start`, the cut asked for. Copied video is read from the
        // keyframe before it: those packets keep times below zero (see `avoid_negative_ts`), so
        // that the output starts at the very time asked, as `ffmpeg -ss START -c copy` does.
        let copiesVideo = plan.video == .copy
        let offsetSeconds = start
        var waitingForKeyframe = copiesVideo && start > 0
        let packet = try Packet()
        var reported = -1.0
        // The latest time read: with a start past it, nothing of the video was in the range.
        var latest = -Double.infinity
        while true {
            if Task.isCancelled { throw RenderError(.cancelled, "the export was cancelled") }
            let read = av_read_frame(input, packet.pointer)
            if read == pickup_averror_eof() { break }
            guard read >= 0 else { throw RenderError(.damaged, "reading failed: \(ffmpegText(read))", path: inputPath) }
            defer { av_packet_unref(packet.pointer) }
            guard let at = routes.firstIndex(where: { $0.inputIndex == packet.pointer.pointee.stream_index }),
                !routes[at].done
            else { continue }
            let timeBase = routes[at].inputTimeBase
            let stamp =
                packet.pointer.pointee.pts != pickup_nopts() ? packet.pointer.pointee.pts : packet.pointer.pointee.dts
            let seconds = stamp == pickup_nopts() ? nil : Double(stamp) * av_q2d(timeBase)
            if let seconds { latest = max(latest, seconds) }
            if waitingForKeyframe, routes[at].video {
                // Nothing of the video before its first keyframe: it could not be decoded.
                guard packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 else { continue }
                waitingForKeyframe = false
            }
            if let end, let seconds, seconds > end {
                routes[at].done = true
                if routes.allSatisfy(\.done) { break }
                continue
            }
            let offset = ticks(offsetSeconds, in: timeBase)
            let last = end.map { ticks($0, in: timeBase) }
            routes[at].offset = offset
            routes[at].end = last
            let outputIndex = routes[at].outputIndex
            if let converter = routes[at].converter {
                try converter.convert(packet.pointer, offset: offset, end: last) { (encoded) throws(RenderError) in
                    try ExportSession.write(encoded, from: converter.timeBase, to: output, stream: outputIndex)
                }
            } else {
                if let seconds, seconds + 0.0001 < offsetSeconds, !routes[at].video { continue }
                if packet.pointer.pointee.pts != pickup_nopts() { packet.pointer.pointee.pts -= offset }
                if packet.pointer.pointee.dts != pickup_nopts() { packet.pointer.pointee.dts -= offset }
                try ExportSession.write(packet.pointer, from: timeBase, to: output, stream: outputIndex)
            }
            if let seconds, plan.duration > 0 {
                let fraction = min(1, max(0, (seconds - offsetSeconds) / plan.duration))
                if fraction - reported >= 0.01 {
                    reported = fraction
                    progress(fraction)
                }
            }
        }
        // A video that states its duration was checked by the plan (and may have frames sparser
        // than a second at its end); one that does not is checked against what was read.
        if input.pointee.duration == pickup_nopts() || input.pointee.duration <= 0 {
            try ExportSession.checkRange(start: start, end: end, readUntil: latest, path: inputPath)
        }
        // What the converters still hold: the encoders' delayed frames.
        for route in routes {
            guard let converter = route.converter else { continue }
            try converter.convert(nil, offset: route.offset, end: route.end) { (encoded) throws(RenderError) in
                try ExportSession.write(encoded, from: converter.timeBase, to: output, stream: route.outputIndex)
            }
        }
        progress(1)
    }

    /// The range `start`-`end` of a video whose header states no duration, against `latest`, the
    /// latest time read: a start past it would be written as an empty file, an end past it as a
    /// shorter one. Refused instead, as for a video that states its duration (a second of slack
    /// at the end: the last packet's time is where its frame begins).
    private static func checkRange(
        start: Double, end: Double?, readUntil latest: Double, path: String
    )
        throws(RenderError)
    {
        guard latest.isFinite else {
            guard start > 0 else { return }
            throw RenderError(
                .impossible, "the video's packets carry no times, so it cannot be cut from a time", path: path,
                hint: "Export it whole, without --trim.")
        }
        let ends = "the video, which ends at \(String(format: "%.3f", latest)) s (its header states no duration)"
        if start > 0, latest < start {
            throw RenderError(
                .impossible, "the time range starts after \(ends)", path: path, hint: "Give a START inside the video.")
        }
        if let end, latest + 1 < end {
            throw RenderError(
                .impossible, "the time range ends after \(ends)", path: path,
                hint: "Give an END inside the video, or START- for the rest of it.")
        }
    }

    /// Writes a packet to an output stream, its timestamps moved into the stream's time base.
    private static func write(
        _ packet: UnsafeMutablePointer<AVPacket>, from timeBase: AVRational,
        to output: UnsafeMutablePointer<AVFormatContext>, stream index: Int32
    ) throws(RenderError) {
        guard let stream = output.pointee.streams[Int(index)] else { return }
        packet.pointee.stream_index = index
        av_packet_rescale_ts(packet, timeBase, stream.pointee.time_base)
        packet.pointee.pos = -1
        let written = av_interleaved_write_frame(output, packet)
        guard written >= 0 else { throw RenderError(.writeFailed, "writing failed: \(ffmpegText(written))") }
    }
}

/// A stream decoded and encoded again on its way out: video (`VideoConverter`) or audio (`AudioConverter`).
protocol StreamConverter: AnyObject {
    /// The input's decoder (nil only once it is closed).
    var decoder: UnsafeMutablePointer<AVCodecContext>? { get }
    /// The encoder whose packets it hands out (nil only once it is closed).
    var encoder: UnsafeMutablePointer<AVCodecContext>? { get }
    /// Where each decoded frame is put.
    var frame: Frame { get }
    /// The encoder's packets, one at a time.
    var encoded: Packet { get }
    /// Takes the decoded `frame`, stamped `stamp` (the input's time base; `offset` is where
    /// the kept range starts), on its way to the encoder.
    func encode(stamp: Int64, offset: Int64, write: PacketWriter) throws(RenderError)
    /// At the end of the input: sends on what waits between the decoder and the encoder.
    func flushBeforeEncoder(write: PacketWriter) throws(RenderError)
}

extension StreamConverter {
    /// The time base of the packets it hands out (its encoder's).
    var timeBase: AVRational { encoder?.pointee.time_base ?? AVRational(num: 1, den: 1) }

    /// Decodes `packet` (nil: the end), keeps what lies in `offset..<end` (input time base),
    /// and hands each encoded packet to `write`; at the end, flushes the encoder.
    func convert(
        _ packet: UnsafeMutablePointer<AVPacket>?, offset: Int64, end: Int64? = nil, write: PacketWriter
    ) throws(RenderError) {
        guard let decoder, let encoder else { return }
        try receiveFrames(decoding: packet, with: decoder, into: frame, from: offset, to: end) {
            (stamp: Int64) throws(RenderError) in
            try encode(stamp: stamp, offset: offset, write: write)
        }
        guard packet == nil else { return }
        try flushBeforeEncoder(write: write)
        avcodec_send_frame(encoder, nil)
        try receivePackets(from: encoder, into: encoded, write: write)
    }
}

extension VideoConverter: StreamConverter {}

extension AudioConverter: StreamConverter {}
