// Thumbnails, poster frames and strips on Linux, through FFmpeg's libraries and libheif:
// always upright, rotation and mirroring applied.

import Pickup
import PickupFFmpeg

func render() async throws {
    let renderer = FFmpegThumbnailer()
    let request = ThumbnailRequest(
        size: PixelSize(width: 256, height: 256), mode: .fill, format: .jpeg
    )
    // a frame that is not black
    let poster = try await renderer.thumbnail(of: "IMG_0042.MOV", request)
    try poster.write(to: "IMG_0042.jpg")  // atomic
    let strip = try await renderer.strip(
        of: "clip.mp4", count: 10,
        ThumbnailRequest(size: PixelSize(width: 160, height: 90)))
    print(strip.count, DurationLabel.string(seconds: 75))  // 10 1:15
}
