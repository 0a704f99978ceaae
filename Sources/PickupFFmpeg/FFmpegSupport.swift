import CFFmpeg
import Pickup

/// FFmpeg's text for an error code.
func ffmpegText(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 128)
    return buffer.withUnsafeMutableBufferPointer { String(cString: pickup_error_text(code, $0.baseAddress, 128)) }
}

/// FFmpeg's logging off: every failure comes back as a RenderError instead.
let quietFFmpeg: Void = { av_log_set_level(AV_LOG_QUIET) }()

/// Pickup's limits for decoding, so that a hostile file cannot take the memory.
public struct RenderLimits: Sendable, Hashable {
    /// The largest picture decoded, in pixels (100 megapixels by default).
    public var maxPixels: Int

    /// Limits of `maxPixels` pixels a picture (100 million by default: a 10,000 × 10,000 photo).
    public init(maxPixels: Int = 100_000_000) { self.maxPixels = maxPixels }
}

/// One AVFrame: one owner, freed in `deinit`.
final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws(RenderError) {
        guard let frame = av_frame_alloc() else { throw RenderError(.unsupported, "FFmpeg could not allocate a frame") }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }
}

/// One AVPacket: one owner, freed in `deinit`.
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws(RenderError) {
        guard let packet = av_packet_alloc() else {
            throw RenderError(.unsupported, "FFmpeg could not allocate a packet")
        }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }
}

/// `seconds` as ticks of `timeBase`, within ±2^62: a header can say a video lasts 2^62 s and
/// `--trim` or `--at` can ask for 1e300, and a Double past Int64's range traps when converted.
/// Nothing real is that far: a clamped time is past every frame, as the time asked is.
func ticks(_ seconds: Double, in timeBase: AVRational, rounding: FloatingPointRoundingRule = .towardZero) -> Int64 {
    let value = (seconds / av_q2d(timeBase)).rounded(rounding)
    guard value.isFinite else { return value < 0 ? -(1 << 62) : 1 << 62 }
    return Int64(max(-0x1p62, min(0x1p62, value)))
}

/// Sends `packet` (nil: the end) to `decoder` and hands `body` each decoded frame, in `frame`,
/// with its timestamp — skipping frames stamped before `offset` or at or after `end` (the
/// decoder's time base); a frame without a stamp is kept.
func receiveFrames(
    decoding packet: UnsafeMutablePointer<AVPacket>?, with decoder: UnsafeMutablePointer<AVCodecContext>,
    into frame: Frame, from offset: Int64, to end: Int64?, body: (_ stamp: Int64) throws(RenderError) -> Void
) throws(RenderError) {
    avcodec_send_packet(decoder, packet)
    while avcodec_receive_frame(decoder, frame.pointer) == 0 {
        defer { av_frame_unref(frame.pointer) }
        let stamp = frame.pointer.pointee.best_effort_timestamp
        if stamp != pickup_nopts() && (stamp < offset || end.map { stamp >= $0 } ?? false) { continue }
        try body(stamp)
    }
}

/// What takes each encoded packet from a converter: the muxer's writer, in an export.
typealias PacketWriter = (UnsafeMutablePointer<AVPacket>) throws(RenderError) -> Void

/// Hands every packet the encoder has ready to `write`, reusing `packet`.
func receivePackets(
    from encoder: UnsafeMutablePointer<AVCodecContext>, into packet: Packet, write: PacketWriter
) throws(RenderError) {
    while avcodec_receive_packet(encoder, packet.pointer) == 0 {
        defer { av_packet_unref(packet.pointer) }
        try write(packet.pointer)
    }
}

extension RGBImage {
    /// A decoded frame scaled to `size` and turned into packed RGB.
    init(frame: UnsafeMutablePointer<AVFrame>, size: PixelSize) throws(RenderError) {
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        guard
            let scaler = sws_getContext(
                frame.pointee.width, frame.pointee.height, format, Int32(size.width), Int32(size.height),
                AV_PIX_FMT_RGB24, Int32(SWS_AREA | SWS_ACCURATE_RND), nil, nil, nil)
        else {
            throw RenderError(.unsupported, "cannot convert pixel format \(format.rawValue) to RGB")
        }
        defer { sws_freeContext(scaler) }
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
        let rows = pixels.withUnsafeMutableBufferPointer { buffer in
            pickup_scale_frame(scaler, frame, buffer.baseAddress, Int32(size.width * 3))
        }
        guard rows > 0 else { throw RenderError(.damaged, "the frame could not be converted") }
        self.init(width: size.width, height: size.height, pixels: pixels)
    }

    /// The picture scaled to `size` (area averaging when shrinking).
    func scaled(to size: PixelSize) throws(RenderError) -> RGBImage {
        if size.width == width && size.height == height { return self }
        let frame = try Frame()
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.pointer.pointee.format = AV_PIX_FMT_RGB24.rawValue
        guard av_frame_get_buffer(frame.pointer, 0) >= 0 else {
            throw RenderError(.tooLarge, "no memory for the picture")
        }
        guard let plane = frame.pointer.pointee.data.0 else {
            throw RenderError(.tooLarge, "no memory for the picture")
        }
        let stride = Int(frame.pointer.pointee.linesize.0)
        pixels.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            for row in 0..<height { (plane + row * stride).update(from: base + row * width * 3, count: width * 3) }
        }
        return try RGBImage(frame: frame.pointer, size: size)
    }
}
