import CFFmpeg
import Pickup

/// An opened media file and the decoder of its picture stream (a video track,
/// or a still image through FFmpeg's image demuxers). One owner for each C
/// pointer, freed in `deinit`.
final class PictureDecoder {
    let path: String
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private let packet: Packet
    private let frame: Frame
    /// The latest frame kept while decoding forward.
    private let keep: Frame
    let streamIndex: Int32
    private let timeBase: AVRational
    private let startTime: Int64
    /// The stored size of the picture, before any reduction.
    let size: PixelSize
    /// The video's duration in seconds, when known.
    let duration: Double?
    private var draining = false
    private var badPackets = 0
    /// The length of one frame in stream time (from the stream's frame rate; 0 when unknown).
    private let frameLength: Int64
    /// While set, packets shown before this stream time carry no frame that is asked for: those
    /// that no other frame references are not decoded (`skip_frame`); every reference frame is.
    private var discardBefore: Int64?
    /// The time of the latest frame given out since the last seek, and the decode time of the
    /// latest packet sent: where decoding forward would go on from.
    private var lastShown: Double?
    private var lastSent: Int64?
    /// The frame last given for a time asked, while it is still in `frame`: the first frame
    /// at or after any time from `asked` to its own time.
    private var answered: (asked: Double, shown: Double)?
    /// Whether the last frame given for `.keyframe` was decoded forward to the time instead,
    /// its keyframe too far (`keyframeWithin`).
    private(set) var wentForward = false
    /// Set when one time is asked of this file and no other will be (a thumbnail, not a strip):
    /// decoding forward then ends as soon as the frame asked is in the decoder (`drainFrom`).
    var onlyOneTime = false
    /// While set, a frame shown at or after this stream time is the answer: once such a frame's
    /// packet is sent and the packets read ahead show that none still to come is shown before
    /// it, the decoder is drained instead of fed the frames a reordering decoder waits for (two
    /// for most H.264, more with frame threads) — they are never decoded.
    private var drainFrom: Int64?
    /// The earliest time shown among the packets sent at or after `drainFrom`.
    private var earliestSent: Int64?
    /// Packets of the picture stream read ahead and not yet sent, in decode order.
    private var ahead: [Packet] = []

    /// Opens `path`; `reduction` picks the decoder's 1/2ⁿ scale (JPEG's `lowres`) from the stored size.
    ///
    /// `describedByContainer`: the container states every stream's codec, size and setup
    /// (ISO BMFF, Matroska), so FFmpeg's stream analysis — which decodes frames ahead, often
    /// most of a thumbnail's cost — is skipped.
    /// `knownSize`: the stored size Pickup's own probe read, for demuxers that learn it only
    /// by decoding (still images); with it, the analysis is skipped as well.
    /// `threads`: a video's decoder threads (0: every core, frame threads).
    init(
        path: String, limits: RenderLimits, describedByContainer: Bool = false, knownSize: PixelSize? = nil,
        threads: Int = 0, reduction: (PixelSize) -> Int = { _ in 0 }
    ) throws(RenderError) {
        _ = quietFFmpeg
        self.path = path
        packet = try Packet()
        frame = try Frame()
        keep = try Frame()
        var context: UnsafeMutablePointer<AVFormatContext>?
        let opened = SystemPath.withCString(path) { avformat_open_input(&context, $0, nil, nil) }
        guard opened == 0, let context else {
            throw RenderError(
                opened == -ENOENT || opened == -EACCES ? .unreadable : .damaged,
                "cannot open: \(ffmpegText(opened))", path: path)
        }
        format = context
        guard describedByContainer || knownSize != nil || avformat_find_stream_info(context, nil) >= 0 else {
            avformat_close_input(&format)
            throw RenderError(.damaged, "cannot read the streams", path: path)
        }
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        guard index >= 0, let stream = context.pointee.streams[Int(index)], pickup_is_attached_picture(stream) == 0
        else {
            avformat_close_input(&format)
            if index == pickup_averror_decoder_not_found() {
                throw RenderError(.unsupported, "no decoder for the picture's codec", path: path)
            }
            throw RenderError(.noPicture, "the file has no picture to render (audio only?)", path: path)
        }
        guard let decoder else {
            avformat_close_input(&format)
            throw RenderError(.unsupported, "no decoder for the picture's codec", path: path)
        }
        let parameters = stream.pointee.codecpar
        var width = Int(parameters?.pointee.width ?? 0)
        var height = Int(parameters?.pointee.height ?? 0)
        if width <= 0 || height <= 0, let knownSize {
            width = knownSize.width
            height = knownSize.height
        }
        // A container that names the codec but leaves the size to the bitstream (MPEG-4 Part 2's
        // VOL header, H.263 in 3GP): FFmpeg's stream analysis, skipped above, reads it.
        if width <= 0 || height <= 0, describedByContainer, avformat_find_stream_info(context, nil) >= 0 {
            width = Int(parameters?.pointee.width ?? 0)
            height = Int(parameters?.pointee.height ?? 0)
        }
        guard width > 0, height > 0 else {
            avformat_close_input(&format)
            throw RenderError(.damaged, "the picture has no size", path: path)
        }
        guard width * height <= limits.maxPixels else {
            avformat_close_input(&format)
            throw RenderError(
                .tooLarge, "the picture is \(width)x\(height), over the limit of \(limits.maxPixels) pixels", path: path
            )
        }
        size = PixelSize(width: width, height: height)
        streamIndex = index
        timeBase = stream.pointee.time_base
        startTime = stream.pointee.start_time == pickup_nopts() ? 0 : stream.pointee.start_time
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        frameLength =
            rate.num > 0 && rate.den > 0 && timeBase.num > 0
            ? av_rescale_q(1, AVRational(num: rate.den, den: rate.num), timeBase) : 0
        let streamDuration = stream.pointee.duration
        if streamDuration > 0, streamDuration != pickup_nopts() {
            duration = Double(streamDuration) * av_q2d(timeBase)
        } else if context.pointee.duration > 0 {
            duration = Double(context.pointee.duration) / Double(AV_TIME_BASE)
        } else {
            duration = nil
        }
        guard let codecContext = avcodec_alloc_context3(decoder) else {
            avformat_close_input(&format)
            throw RenderError(.unsupported, "FFmpeg could not allocate a decoder", path: path)
        }
        codec = codecContext
        avcodec_parameters_to_context(codecContext, parameters)
        // A video decodes forward on every core: frame threads (most encoders write one slice a
        // frame, so slice threads alone gave one core), at the cost of a frame or two decoded
        // past the one kept. A still is one frame: slice threads only.
        codecContext.pointee.thread_count = Int32(clamping: threads)
        codecContext.pointee.thread_type = knownSize == nil ? FF_THREAD_FRAME | FF_THREAD_SLICE : FF_THREAD_SLICE
        let lowres = min(Int(decoder.pointee.max_lowres), reduction(size))
        if lowres > 0 { codecContext.pointee.lowres = Int32(lowres) }
        guard avcodec_open2(codecContext, decoder, nil) == 0 else {
            throw RenderError(
                .unsupported, "cannot open the \(String(cString: decoder.pointee.name)) decoder", path: path)
        }
    }

    deinit {
        avcodec_free_context(&codec)
        avformat_close_input(&format)
    }

    /// `seconds` as a time in the stream's time base, counted from its start (`ticks(_:in:)`
    /// keeps it within ±2^62); the sum with the start saturates.
    private func streamTime(_ seconds: Double, roundedUp: Bool = false) -> Int64 {
        let kept = ticks(seconds, in: timeBase, rounding: roundedUp ? .up : .towardZero)
        let (sum, overflow) = startTime.addingReportingOverflow(kept)
        return overflow ? (kept > 0 ? .max / 2 : .min / 2) : sum
    }

    /// Goes to the keyframe at or before `seconds`.
    func seek(to seconds: Double) {
        guard let format, let codec else { return }
        let target = streamTime(seconds)
        av_seek_frame(format, streamIndex, target, AVSEEK_FLAG_BACKWARD)
        avcodec_flush_buffers(codec)
        draining = false
        lastShown = nil
        lastSent = nil
        answered = nil
        ahead.removeAll()
    }

    /// The next decoded frame (valid until the next call), or nil at the end of the stream.
    func nextFrame() throws(RenderError) -> UnsafeMutablePointer<AVFrame>? {
        guard let format, let codec else { return nil }
        while true {
            let received = avcodec_receive_frame(codec, frame.pointer)
            if received == 0 {
                lastShown = seconds(of: frame.pointer)
                answered = nil
                return frame.pointer
            }
            if received == pickup_averror_eof() { return nil }
            guard received == pickup_averror_eagain() else {
                throw RenderError(.damaged, "decoding failed: \(ffmpegText(received))", path: path)
            }
            if draining { return nil }
            // The packet read ahead is held here until it is sent: its deinit frees it.
            let held = ahead.isEmpty ? packet : ahead.removeFirst()
            let next = held.pointer
            if held === packet {
                guard av_read_frame(format, packet.pointer) >= 0 else {
                    avcodec_send_packet(codec, nil)
                    draining = true
                    continue
                }
            }
            defer { withExtendedLifetime(held) { av_packet_unref(next) } }
            guard next.pointee.stream_index == streamIndex else { continue }
            let shown = next.pointee.pts
            let skip = discardBefore.map { shown != pickup_nopts() && shown < $0 } ?? false
            codec.pointee.skip_frame = skip ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
            if next.pointee.dts != pickup_nopts() { lastSent = next.pointee.dts }
            let sent = avcodec_send_packet(codec, next)
            if sent < 0, sent != pickup_averror_eagain() {
                badPackets += 1
                if badPackets > 64 {
                    throw RenderError(.damaged, "the stream is corrupt: \(ffmpegText(sent))", path: path)
                }
            }
            if let drainFrom, shown != pickup_nopts(), shown >= drainFrom {
                let earliest = min(earliestSent ?? shown, shown)
                earliestSent = earliest
                if try nothingShownBefore(earliest, from: drainFrom) {
                    avcodec_send_packet(codec, nil)
                    draining = true
                    ahead.removeAll()
                }
            }
        }
    }

    /// Whether no packet still to come is shown from `start` up to `shown`: the packets of the
    /// picture stream are read ahead (kept in `ahead`, to be sent in order when one is) as far
    /// as a decoder may reorder (16 frames, H.264's and HEVC's bound) or to the end.
    private func nothingShownBefore(_ shown: Int64, from start: Int64) throws(RenderError) -> Bool {
        guard let format else { return true }
        var read = 0
        while ahead.count < 16, read < 256 {
            let packet = try Packet()
            guard av_read_frame(format, packet.pointer) >= 0 else { break }
            read += 1
            if packet.pointer.pointee.stream_index == streamIndex { ahead.append(packet) }
        }
        return !ahead.contains {
            let time = $0.pointer.pointee.pts
            return time == pickup_nopts() || (time >= start && time < shown)
        }
    }

    /// The time of a decoded frame, in seconds from the start of the stream.
    func seconds(of frame: UnsafeMutablePointer<AVFrame>) -> Double? {
        let stamp =
            frame.pointee.best_effort_timestamp != pickup_nopts()
            ? frame.pointee.best_effort_timestamp : frame.pointee.pts
        guard stamp != pickup_nopts() else { return nil }
        return Double(stamp - startTime) * av_q2d(timeBase)
    }

    /// The first frame at or after `seconds`: the keyframe before it (`.keyframe`), or
    /// decoded forward from there up to the time (`.exact`). A time past the last frame
    /// gives the last frame. Times asked in order go on from where the last one stopped
    /// when no keyframe lies between (a strip is one pass through the file).
    ///
    /// Decoding forward, the frames shown more than three frames before the time that no
    /// other frame references are not decoded; every reference frame is, so the frame
    /// given is the one a full decode gives.
    ///
    /// `keyframeWithin`: a keyframe farther than this from the time gives way to the frame at
    /// the time (`.exact`), without being decoded; `wentForward` then says so.
    func frame(
        at seconds: Double, tolerance: FrameTolerance, keyframeWithin: Double = .infinity
    ) throws(RenderError) -> UnsafeMutablePointer<AVFrame> {
        var tolerance = tolerance
        wentForward = false
        if tolerance == .keyframe {
            let found = try keyframe(at: seconds, within: keyframeWithin)
            if let frame = found.frame { return frame }
            if found.tooFar {
                tolerance = .exact
                wentForward = true
            }
        }
        defer {
            discardBefore = nil
            drainFrom = nil
        }
        if tolerance == .exact, let answered, answered.asked <= seconds, seconds <= answered.shown + 0.0005 {
            return frame.pointer
        }
        let goOn = tolerance == .exact && continues(to: seconds)
        for start in seconds > 0 ? [seconds, max(0, seconds - 3)] : [0] {
            if !goOn || start != seconds, start > 0 || seconds > 0 { seek(to: start) }
            let skipping = tolerance == .exact || start != seconds
            discardBefore = skipping ? discardLimit(for: seconds) : nil
            // The loop below takes the first frame shown no earlier than half a millisecond before the time.
            drainFrom =
                skipping && onlyOneTime
                ? streamTime(max(0, seconds - 0.0005), roundedUp: true) : nil
            earliestSent = nil
            var kept = false
            while let frame = try nextFrame() {
                let time = self.seconds(of: frame) ?? 0
                if !skipping || time + 0.0005 >= seconds {
                    if skipping { answered = (seconds, time) }
                    return frame
                }
                av_frame_unref(keep.pointer)
                av_frame_ref(keep.pointer, frame)
                kept = true
            }
            if kept { return keep.pointer }
        }
        throw RenderError(.damaged, "no frame could be decoded", path: path)
    }

    /// The stream time before which frames nothing references need not be decoded on the way
    /// to `seconds`: three frames before it. Nil (decode all) when the frame rate is unknown or
    /// the time is within three frames of the end, where the last frame shown is the answer.
    private func discardLimit(for seconds: Double) -> Int64? {
        // A frame rate from the file can make a frame last 2^62 ticks: three of them would overflow.
        guard frameLength > 0, frameLength < 1 << 40, let duration else { return nil }
        let target = streamTime(seconds)
        let end = streamTime(duration)
        guard target + 3 * frameLength <= end else { return nil }
        return target - 3 * frameLength
    }

    /// Whether decoding on from the last frame given reaches `seconds` without passing a
    /// keyframe at or before it (a seek would land there and decode less).
    private func continues(to seconds: Double) -> Bool {
        guard let format, let shown = lastShown, let sent = lastSent, shown < seconds, !draining,
            let stream = format.pointee.streams[Int(streamIndex)]
        else { return false }
        let target = streamTime(seconds)
        guard let entry = avformat_index_get_entry_from_timestamp(stream, target, AVSEEK_FLAG_BACKWARD) else {
            return seconds - shown < 1
        }
        return entry.pointee.timestamp <= sent
    }

    /// The keyframe at or before `seconds`, decoded alone: the decoder is drained right after
    /// its packet, so it gives the picture without decoding the frames a reordering decoder
    /// would otherwise wait for. No frame when no keyframe decodes that way (then decode
    /// forward), or when the keyframe is shown farther than `within` from `seconds` (`tooFar`;
    /// it is not decoded).
    private func keyframe(
        at seconds: Double, within: Double
    ) throws(RenderError) -> (frame: UnsafeMutablePointer<AVFrame>?, tooFar: Bool) {
        guard let format, let codec else { return (nil, false) }
        seek(to: seconds)
        for _ in 0..<10_000 {
            let read = av_read_frame(format, packet.pointer)
            guard read >= 0 else { break }
            defer { av_packet_unref(packet.pointer) }
            guard packet.pointer.pointee.stream_index == streamIndex,
                packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0
            else { continue }
            let shown = packet.pointer.pointee.pts
            if shown != pickup_nopts(), abs(Double(shown - startTime) * av_q2d(timeBase) - seconds) > within {
                seek(to: seconds)
                return (nil, true)
            }
            guard avcodec_send_packet(codec, packet.pointer) >= 0 else { break }
            avcodec_send_packet(codec, nil)
            let received = avcodec_receive_frame(codec, frame.pointer)
            // The decoder is at its end now: start it again for whatever comes next.
            avcodec_flush_buffers(codec)
            draining = false
            lastShown = nil
            lastSent = nil
            answered = nil
            if received == 0 { return (frame.pointer, false) }
            break
        }
        seek(to: seconds)
        return (nil, false)
    }
}
