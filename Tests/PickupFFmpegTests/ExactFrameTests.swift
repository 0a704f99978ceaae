import Foundation
import Pickup
import PickupFFmpeg
import PickupTestSupport
import Testing

/// The frame `ffmpeg -ss T -i F -frames:v 1` gives, as RGB bytes (an independent decoder, decoding
/// every frame).
private func ffmpegFrame(_ path: String, at seconds: Double) throws -> [UInt8] {
    let decoded = try Shell.run(
        "ffmpeg -v error -ss \"$T\" -i \"$F\" -frames:v 1 -f rawvideo -pix_fmt rgb24 -",
        environment: ["F": path, "T": String(format: "%.6f", seconds)])
    return decoded.output
}

/// The mean absolute difference of two pictures' bytes (0-255); infinite when their sizes differ.
private func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
    guard a.count == b.count, !a.isEmpty else { return .infinity }
    var sum = 0
    for index in a.indices { sum += abs(Int(a[index]) - Int(b[index])) }
    return Double(sum) / Double(a.count)
}

@Suite("the exact frame: what ffmpeg -ss gives, with B-frames and frames skipped on the way")
struct ExactFrameTests {
    let renderer = FFmpegThumbnailer()
    /// 25 frames a second, a keyframe every 48 frames, three B-frames in a pyramid (some of
    /// them references, some not), picture noise that changes every frame.
    static let recipe =
        "-f lavfi -i testsrc2=size=320x240:rate=25,noise=alls=12:allf=t -t 6 -c:v libx264 -preset medium "
        + "-bf 3 -b-pyramid normal -g 48 -pix_fmt yuv420p"
    static let frame = 1.0 / 25

    /// Whether `picture`, said to be shown at `shown`, is ffmpeg's frame at `seconds`: much
    /// nearer to it than to the frames one before and one after the one shown.
    private func isFFmpegsFrame(_ picture: [UInt8], _ path: String, at seconds: Double, shown: Double?) throws -> Bool {
        let shown = shown ?? seconds
        let same = difference(picture, try ffmpegFrame(path, at: seconds))
        // The first frame has none before it.
        let before =
            shown < Self.frame / 2
            ? .infinity : difference(picture, try ffmpegFrame(path, at: shown - 1.5 * Self.frame))
        let after = difference(picture, try ffmpegFrame(path, at: shown + 0.5 * Self.frame))
        return same < 3 && same * 3 < min(before, after)
    }

    @Test(
        "a frame at a time is ffmpeg's: on a keyframe, just after one, on B-frames, deep in a group, near the end",
        arguments: [0.0, 0.5, 1.0, 1.92, 1.96, 2.2, 3.0, 3.84, 4.5, 5.8])
    func exactFrame(_ seconds: Double) async throws {
        let path = try Fixtures.ffmpeg(Self.recipe, as: "mp4")
        defer { Temporary.remove(path) }
        let request = ThumbnailRequest(
            size: PixelSize(width: 320, height: 240), mode: .fit, format: .png, time: .seconds(seconds),
            tolerance: .exact)
        let image = try await renderer.thumbnail(of: path, request)
        let picture = try DecodedPicture(image)
        #expect(
            try isFFmpegsFrame(picture.pixels, path, at: seconds, shown: image.time),
            "at \(seconds) s (given \(image.time ?? -1))")
    }

    @Test("a strip with its default tolerance is evenly spaced, where keyframes are sparse (one at the start)")
    func evenStrip() async throws {
        let path = try Fixtures.ffmpeg(
            "-f lavfi -i testsrc2=size=160x120:rate=25 -t 4 -c:v libx264 -g 250 -pix_fmt yuv420p", as: "mp4")
        defer { Temporary.remove(path) }
        let strip = try await renderer.strip(
            of: path, count: 4, ThumbnailRequest(size: PixelSize(width: 80, height: 60), mode: .fit))
        let times = strip.compactMap(\.time)
        #expect(times.count == 4)
        for (index, time) in times.enumerated() {
            #expect(abs(time - (Double(index) + 0.5)) <= 0.05, "frame \(index) at \(time) s: \(times)")
        }
    }

    @Test("a strip in one pass gives ffmpeg's frame at each of its times")
    func exactStrip() async throws {
        let path = try Fixtures.ffmpeg(Self.recipe, as: "mp4")
        defer { Temporary.remove(path) }
        let request = ThumbnailRequest(
            size: PixelSize(width: 320, height: 240), mode: .fit, format: .png, tolerance: .exact)
        let strip = try await renderer.strip(of: path, count: 12, request)
        #expect(strip.count == 12)
        for (index, image) in strip.enumerated() {
            let seconds = 6 * (Double(index) + 0.5) / 12
            let picture = try DecodedPicture(image)
            #expect(
                try isFFmpegsFrame(picture.pixels, path, at: seconds, shown: image.time),
                "frame \(index) at \(seconds) s")
        }
    }
}
