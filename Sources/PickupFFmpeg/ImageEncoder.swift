import CFFmpeg
import Pickup

/// Encodes an RGB picture as JPEG (mjpeg), PNG or WebP (libwebp) with FFmpeg's encoders.
enum ImageEncoder {
    static func encode(_ image: RGBImage, as format: ImageFormat, quality: Double) throws(RenderError) -> [UInt8] {
        // A picture decoded by libheif reaches FFmpeg first here: its scaler's warnings stay quiet too.
        _ = quietFFmpeg
        let (name, pixelFormat): (String, AVPixelFormat) =
            switch format {
            case .jpeg: ("mjpeg", AV_PIX_FMT_YUVJ420P)
            case .png: ("png", AV_PIX_FMT_RGB24)
            case .webp: ("libwebp", AV_PIX_FMT_YUV420P)
            }
        guard let encoder = avcodec_find_encoder_by_name(name) else {
            throw RenderError(.unsupported, "this FFmpeg has no \(name) encoder for \(format.rawValue) output")
        }
        var context = avcodec_alloc_context3(encoder)
        guard let codec = context else { throw RenderError(.unsupported, "FFmpeg could not allocate an encoder") }
        defer { avcodec_free_context(&context) }
        codec.pointee.width = Int32(image.width)
        codec.pointee.height = Int32(image.height)
        codec.pointee.pix_fmt = pixelFormat
        codec.pointee.time_base = AVRational(num: 1, den: 25)
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        switch format {
        case .jpeg:
            // qscale 2 (best) ... 31; quality 0.8 gives about what libjpeg's 80 does.
            let scale = max(2, min(31, Int((2 + (1 - quality) * 20).rounded())))
            codec.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            codec.pointee.global_quality = Int32(scale) * FF_QP2LAMBDA
            codec.pointee.qmin = Int32(scale)
            codec.pointee.qmax = Int32(scale)
        case .webp:
            av_dict_set(&options, "quality", String(Int(quality * 100)), 0)
        case .png:
            break
        }
        guard avcodec_open2(codec, encoder, &options) == 0 else {
            throw RenderError(.unsupported, "cannot open the \(name) encoder")
        }
        let frame = try Frame()
        frame.pointer.pointee.width = Int32(image.width)
        frame.pointer.pointee.height = Int32(image.height)
        frame.pointer.pointee.format = pixelFormat.rawValue
        frame.pointer.pointee.pts = 0
        guard av_frame_get_buffer(frame.pointer, 0) >= 0 else {
            throw RenderError(.tooLarge, "no memory for the picture")
        }
        guard
            let scaler = sws_getContext(
                Int32(image.width), Int32(image.height), AV_PIX_FMT_RGB24, Int32(image.width), Int32(image.height),
                pixelFormat, Int32(SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT), nil, nil, nil)
        else { throw RenderError(.unsupported, "cannot convert RGB for the \(name) encoder") }
        defer { sws_freeContext(scaler) }
        _ = image.pixels.withUnsafeBufferPointer { pixels in
            pickup_fill_frame(scaler, pixels.baseAddress, Int32(image.width * 3), Int32(image.height), frame.pointer)
        }
        let packet = try Packet()
        var output: [UInt8] = []
        guard avcodec_send_frame(codec, frame.pointer) == 0 else {
            throw RenderError(.unsupported, "\(name) refused the picture")
        }
        avcodec_send_frame(codec, nil)
        try receivePackets(from: codec, into: packet) { (encoded) throws(RenderError) in
            if let data = encoded.pointee.data {
                output.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(encoded.pointee.size)))
            }
        }
        guard !output.isEmpty else { throw RenderError(.unsupported, "\(name) produced nothing") }
        return output
    }
}
