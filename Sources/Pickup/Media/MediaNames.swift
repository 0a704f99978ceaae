import Foundation

/// The one rule probe, import and upload share for a file found in a folder that is not a
/// photo or a video: left alone (an .AAE edit, a sidecar, a note), unless its name says it is
/// media, when it is a failure (misnamed or damaged), never passed over in silence.
public enum MediaNames {
    /// Extensions of the photos and videos Pickup reads.
    public static let mediaExtensions: Set<String> = [
        "jpg", "jpeg", "heic", "heif", "hif", "avif", "png", "gif", "webp", "mov", "mp4", "m4v", "m4a", "3gp", "3g2",
        "mkv", "webm", "tif", "tiff", "dng", "cr2", "cr3", "nef", "arw", "raf", "rw2", "orf", "pef",
    ]

    /// Extensions of the videos Pickup exports (a folder's walk in `pickup export`).
    public static let videoExtensions: Set<String> = ["mov", "mp4", "m4v", "3gp", "3g2", "mkv", "webm"]

    /// Whether the file's name says it is a photo or a video.
    public static func namedAsMedia(_ path: String) -> Bool {
        mediaExtensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// Whether a file found in a folder, whose probe failed with `error`, is left alone: not
    /// recognised as media, or empty (a note not yet written, `Thumbs.db`), and not named as a
    /// photo or video (one that is, is misnamed, damaged or an interrupted copy: a failure).
    public static func leftAlone(after error: ProbeError, path: String) -> Bool {
        [.unrecognized, .empty].contains(error.code) && !namedAsMedia(path)
    }

    /// Whether the file is an iPhone's edits of a photo (`IMG_0001.AAE`).
    public static func namedAsEdits(_ path: String) -> Bool { path.lowercased().hasSuffix(".aae") }

    /// What an edits file and the photo it edits share: the same folder and name without the
    /// extension, in any case (`dcim/img_0001` for `DCIM/IMG_0001.AAE` and `DCIM/IMG_0001.HEIC`).
    public static func editsKey(_ path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
        return (path.dropLast(name.count) + stem).lowercased()
    }
}
