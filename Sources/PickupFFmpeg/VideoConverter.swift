import CFFmpeg
import Pickup

/// Decodes a video stream, scales it, and encodes it with x264 or x265. One
/// owner for each C pointer, freed in `deinit`.
final class VideoConverter {
    private(set) var decoder: UnsafeMutablePointer<AVCodecContext>?
    private(set) var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var scaler: OpaquePointer?
    let frame: Frame
    private let scaled: Frame
    /// The encoder's packets, one at a time.
    let encoded: Packet
    private let size: PixelSize

    /// `bitRate` set: aim at that average (a size limit); otherwise constant quality capped at `maxBitRate`.
    init(
        stream: UnsafeMutablePointer<AVStream>, codec target: ExportPreset.Codec, size: PixelSize, quality: Int,
        maxBitRate: Int?, bitRate: Int?, globalHeader: Bool, limits: RenderLimits
    ) throws(RenderError) {
        frame = try Frame()
        scaled = try Frame()
        encoded = try Packet()
        self.size = size
        guard let parameters = stream.pointee.codecpar, let codec = avcodec_find_decoder(parameters.pointee.codec_id)
        else { throw RenderError(.unsupported, "no decoder for the video's codec") }
        guard Int(parameters.pointee.width) * Int(parameters.pointee.height) <= limits.maxPixels else {
            throw RenderError(.tooLarge, "the video is larger than the limit of \(limits.maxPixels) pixels")
        }
        decoder = avcodec_alloc_context3(codec)
        guard let decoder else { throw RenderError(.unsupported, "FFmpeg could not allocate a video decoder") }
        avcodec_parameters_to_context(decoder, parameters)
        decoder.pointee.pkt_timebase = stream.pointee.time_base
        decoder.pointee.thread_count = 0
        guard avcodec_open2(decoder, codec, nil) == 0 else {
            throw RenderError(.unsupported, "cannot open the video decoder")
        }
        let name = target == .h264 ? "libx264" : "libx265"
        guard let x26 = avcodec_find_encoder_by_name(name) else {
            throw RenderError(.unsupported, "this FFmpeg has no \(name) encoder")
        }
        encoder = avcodec_alloc_context3(x26)
        guard let encoder else { throw RenderError(.unsupported, "FFmpeg could not allocate the \(name) encoder") }
        encoder.pointee.width = Int32(size.width)
        encoder.pointee.height = Int32(size.height)
        encoder.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        // The picture's colors stay as the source states them (BT.709; BT.2020 with HLG or PQ for
        // HDR): the pixels are scaled to 8 bits, not converted to other colors, so the tags carry
        // over. The scaler's output is limited range (full-range JPEG-style input is converted).
        encoder.pointee.color_primaries = parameters.pointee.color_primaries
        encoder.pointee.color_trc = parameters.pointee.color_trc
        encoder.pointee.colorspace = parameters.pointee.color_space
        encoder.pointee.color_range = AVCOL_RANGE_MPEG
        encoder.pointee.time_base = stream.pointee.time_base
        encoder.pointee.framerate = stream.pointee.avg_frame_rate
        encoder.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        encoder.pointee.thread_count = 0
        if globalHeader { encoder.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "preset", "fast", 0)
        if let bitRate {
            encoder.pointee.bit_rate = Int64(bitRate)
            encoder.pointee.rc_max_rate = Int64(bitRate) * 3 / 2
            encoder.pointee.rc_buffer_size = Int32(clamping: bitRate * 2)
        } else {
            av_dict_set(&options, "crf", String(quality), 0)
            if let maxBitRate {
                encoder.pointee.rc_max_rate = Int64(maxBitRate)
                encoder.pointee.rc_buffer_size = Int32(clamping: maxBitRate * 2)
            }
        }
        if target == .hevc { av_dict_set(&options, "x265-params", "log-level=none", 0) }
        guard avcodec_open2(encoder, x26, &options) == 0 else { throw RenderError(.unsupported, "cannot open \(name)") }
        scaled.pointer.pointee.width = Int32(size.width)
        scaled.pointer.pointee.height = Int32(size.height)
        scaled.pointer.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        guard av_frame_get_buffer(scaled.pointer, 0) >= 0 else {
            throw RenderError(.tooLarge, "no memory for the frames")
        }
    }

    deinit {
        sws_freeContext(scaler)
        avcodec_free_context(&decoder)
        avcodec_free_context(&encoder)
    }

    /// Scales the decoded `frame` (stamped `stamp`, `offset` the start kept) and encodes it.
    func encode(stamp: Int64, offset: Int64, write: PacketWriter) throws(RenderError) {
        guard let encoder else { return }
        try scale(frame.pointer)
        scaled.pointer.pointee.pts = stamp == pickup_nopts() ? pickup_nopts() : stamp - offset
        scaled.pointer.pointee.pict_type = AV_PICTURE_TYPE_NONE
        guard avcodec_send_frame(encoder, scaled.pointer) >= 0 else {
            throw RenderError(.damaged, "the encoder refused a frame")
        }
        try receivePackets(from: encoder, into: encoded, write: write)
    }

    /// Nothing waits before the encoder: frames go to it as they are scaled.
    func flushBeforeEncoder(write: PacketWriter) throws(RenderError) {}

    private func scale(_ source: UnsafeMutablePointer<AVFrame>) throws(RenderError) {
        scaler = sws_getCachedContext(
            scaler, source.pointee.width, source.pointee.height, AVPixelFormat(rawValue: source.pointee.format),
            Int32(size.width), Int32(size.height), AV_PIX_FMT_YUV420P, Int32(SWS_BICUBIC), nil, nil, nil)
        guard let scaler else { throw RenderError(.unsupported, "cannot scale the video's pixel format") }
        guard av_frame_make_writable(scaled.pointer) >= 0 else { throw RenderError(.tooLarge, "no memory for a frame") }
        pickup_scale_into_frame(scaler, source, scaled.pointer)
    }
}
