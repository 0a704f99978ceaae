// FFmpeg's headers for Swift, and small inline helpers for what Swift cannot
// spell: function-like macros (AVERROR, AV_NOPTS_VALUE) and the fixed-size
// pointer arrays of AVFrame.
#ifndef PICKUP_FFMPEG_SHIM_H
#define PICKUP_FFMPEG_SHIM_H

#include <errno.h>
#include <string.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

static inline int pickup_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int pickup_averror_eof(void) { return AVERROR_EOF; }
static inline int pickup_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int pickup_averror_encoder_not_found(void) { return AVERROR_ENCODER_NOT_FOUND; }
static inline int64_t pickup_nopts(void) { return AV_NOPTS_VALUE; }
static inline AVRational pickup_time_base_q(void) { return AV_TIME_BASE_Q; }

static inline int pickup_is_attached_picture(const AVStream *stream) {
    return (stream->disposition & AV_DISPOSITION_ATTACHED_PIC) != 0;
}

/// Scales and converts a decoded frame into one packed plane (RGB24), `stride` bytes a row.
static inline int pickup_scale_frame(struct SwsContext *sws, const AVFrame *frame, uint8_t *destination, int stride) {
    uint8_t *planes[4] = {destination, NULL, NULL, NULL};
    int strides[4] = {stride, 0, 0, 0};
    return sws_scale(sws, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
}

/// Converts one packed plane (RGB24) of `height` rows into a frame's planes.
static inline int pickup_fill_frame(struct SwsContext *sws, const uint8_t *source, int stride, int height, AVFrame *frame) {
    const uint8_t *planes[4] = {source, NULL, NULL, NULL};
    int strides[4] = {stride, 0, 0, 0};
    return sws_scale(sws, planes, strides, 0, height, frame->data, frame->linesize);
}

/// Scales and converts one frame into another (already allocated) frame.
static inline int pickup_scale_into_frame(struct SwsContext *sws, const AVFrame *from, AVFrame *to) {
    return sws_scale(sws, (const uint8_t *const *)from->data, from->linesize, 0, from->height, to->data, to->linesize);
}

/// The stream's rotation matrix (QuickTime's tkhd matrix), copied to another stream.
static inline void pickup_copy_display_matrix(const AVStream *from, AVStream *to) {
    size_t size = 0;
    const uint8_t *matrix = av_stream_get_side_data(from, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (matrix && size >= 36) {
        uint8_t *copy = av_stream_new_side_data(to, AV_PKT_DATA_DISPLAYMATRIX, 36);
        if (copy) memcpy(copy, matrix, 36);
    }
}

static inline const char *pickup_error_text(int code, char *buffer, size_t size) {
    av_strerror(code, buffer, size);
    return buffer;
}

#endif
