import CFFmpeg
import Pickup

/// Decodes an audio stream and encodes it as AAC (48 kHz stereo) through a
/// small filter graph (resample, convert, frames of the encoder's size). One
/// owner for each C pointer, freed in `deinit`.
final class AudioConverter {
    private(set) var decoder: UnsafeMutablePointer<AVCodecContext>?
    private(set) var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    let frame: Frame
    private let filtered: Frame
    /// The encoder's packets, one at a time.
    let encoded: Packet
    private let inputTimeBase: AVRational
    static let sampleRate: Int32 = 48_000

    init(stream: UnsafeMutablePointer<AVStream>, bitRate: Int, globalHeader: Bool) throws(RenderError) {
        frame = try Frame()
        filtered = try Frame()
        encoded = try Packet()
        inputTimeBase = stream.pointee.time_base
        guard let parameters = stream.pointee.codecpar, let codec = avcodec_find_decoder(parameters.pointee.codec_id)
        else { throw RenderError(.unsupported, "no decoder for the audio's codec") }
        decoder = avcodec_alloc_context3(codec)
        guard let decoder else { throw RenderError(.unsupported, "FFmpeg could not allocate an audio decoder") }
        avcodec_parameters_to_context(decoder, parameters)
        decoder.pointee.pkt_timebase = stream.pointee.time_base
        guard avcodec_open2(decoder, codec, nil) == 0 else {
            throw RenderError(.unsupported, "cannot open the audio decoder")
        }
        if decoder.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            let channels = decoder.pointee.ch_layout.nb_channels
            av_channel_layout_uninit(&decoder.pointee.ch_layout)
            av_channel_layout_default(&decoder.pointee.ch_layout, max(1, channels))
        }
        guard let aac = avcodec_find_encoder(AV_CODEC_ID_AAC) else { throw RenderError(.unsupported, "no AAC encoder") }
        encoder = avcodec_alloc_context3(aac)
        guard let encoder else { throw RenderError(.unsupported, "FFmpeg could not allocate an AAC encoder") }
        encoder.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        encoder.pointee.sample_rate = AudioConverter.sampleRate
        av_channel_layout_default(&encoder.pointee.ch_layout, 2)
        encoder.pointee.bit_rate = Int64(bitRate)
        encoder.pointee.time_base = AVRational(num: 1, den: AudioConverter.sampleRate)
        if globalHeader { encoder.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        guard avcodec_open2(encoder, aac, nil) == 0 else {
            throw RenderError(.unsupported, "cannot open the AAC encoder")
        }
        try makeGraph(decoder, encoder)
    }

    deinit {
        avfilter_graph_free(&graph)
        avcodec_free_context(&decoder)
        avcodec_free_context(&encoder)
    }

    private func makeGraph(
        _ decoder: UnsafeMutablePointer<AVCodecContext>, _ encoder: UnsafeMutablePointer<AVCodecContext>
    ) throws(RenderError) {
        graph = avfilter_graph_alloc()
        guard let graph else { throw RenderError(.unsupported, "FFmpeg could not allocate a filter graph") }
        var layout = [CChar](repeating: 0, count: 128)
        _ = layout.withUnsafeMutableBufferPointer {
            av_channel_layout_describe(&decoder.pointee.ch_layout, $0.baseAddress, 128)
        }
        let formatName = av_get_sample_fmt_name(decoder.pointee.sample_fmt).map { String(cString: $0) } ?? "fltp"
        let arguments =
            "time_base=1/\(decoder.pointee.sample_rate):sample_rate=\(decoder.pointee.sample_rate):"
            + "sample_fmt=\(formatName):channel_layout=\(String(decoding: layout.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))"
        guard avfilter_graph_create_filter(&source, avfilter_get_by_name("abuffer"), "in", arguments, nil, graph) >= 0,
            avfilter_graph_create_filter(&sink, avfilter_get_by_name("abuffersink"), "out", nil, nil, graph) >= 0
        else { throw RenderError(.unsupported, "cannot set up the audio conversion") }
        // As in FFmpeg's examples: parse_ptr takes the lists over and leaves in the variables
        // what it did not link, which is freed at the end either way.
        var outputsList = avfilter_inout_alloc()
        var inputsList = avfilter_inout_alloc()
        defer {
            avfilter_inout_free(&outputsList)
            avfilter_inout_free(&inputsList)
        }
        guard let outputs = outputsList, let inputs = inputsList else {
            throw RenderError(.unsupported, "FFmpeg could not allocate filter pads")
        }
        outputs.pointee.name = av_strdup("in")
        outputs.pointee.filter_ctx = source
        inputs.pointee.name = av_strdup("out")
        inputs.pointee.filter_ctx = sink
        let chain = "aresample=\(AudioConverter.sampleRate),aformat=sample_fmts=fltp:channel_layouts=stereo"
        guard avfilter_graph_parse_ptr(graph, chain, &inputsList, &outputsList, nil) >= 0,
            avfilter_graph_config(graph, nil) >= 0
        else { throw RenderError(.unsupported, "cannot set up the audio conversion (\(chain))") }
        av_buffersink_set_frame_size(sink, UInt32(max(1, encoder.pointee.frame_size)))
    }

    /// Resamples the decoded `frame` (stamped `stamp`, `offset` the start kept) through the
    /// filter and encodes what comes out.
    func encode(stamp: Int64, offset: Int64, write: PacketWriter) throws(RenderError) {
        guard let decoder, let encoder else { return }
        if stamp != pickup_nopts() {
            frame.pointer.pointee.pts = av_rescale_q(
                stamp - offset, inputTimeBase, AVRational(num: 1, den: decoder.pointee.sample_rate))
        }
        guard av_buffersrc_add_frame(source, frame.pointer) >= 0 else {
            throw RenderError(.damaged, "the audio could not be converted")
        }
        try drain(encoder, write: write)
    }

    /// The end of the input: flushing the filter fails only if it was never fed, and draining
    /// then finds nothing.
    func flushBeforeEncoder(write: PacketWriter) throws(RenderError) {
        guard let encoder else { return }
        _ = av_buffersrc_add_frame(source, nil)
        try drain(encoder, write: write)
    }

    private func drain(_ encoder: UnsafeMutablePointer<AVCodecContext>, write: PacketWriter) throws(RenderError) {
        while av_buffersink_get_frame(sink, filtered.pointer) >= 0 {
            let sent = avcodec_send_frame(encoder, filtered.pointer)
            av_frame_unref(filtered.pointer)
            guard sent >= 0 else { throw RenderError(.damaged, "the AAC encoder refused the audio") }
            try receivePackets(from: encoder, into: encoded, write: write)
        }
    }
}
