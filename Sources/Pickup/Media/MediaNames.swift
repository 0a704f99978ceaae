import Foundation

/// The one rule probe, import and upload share for a file found in a folder that is not a
/// photo or a video: left alone (an .AAE edit, a sidecar, a note), unless its name says it is
/// media, when it is a failure (misnamed or damaged), never passed over in silence.
public enum MediaNames {
    /// Extensions of the photos and videos Pickup reads.
    public static let mediaExtensions: Set<String> = [
        "jpg", "jpeg", "heic", "heif", "hif", "avif", "png", "gif", "webp", "mov", "mp4", "m4v", "m4a", "3gp", "3g2",
        "mkv", "webm", "tif", "tiff", "dng",
    ]

    /// Extensions of the videos Pickup exports (a folder's walk in `pickup export`).
    public static let videoExtensions: Set<String> = ["mov", "mp4", "m4v", "3gp", "3g2", "mkv", "webm"]

    /// Whether the file's name says it is a photo or a video.
    public static func namedAsMedia(_ path: String) -> Bool {
        mediaExtensions.contains((path as NSString).pathExtension.lowercased())
    }
}
