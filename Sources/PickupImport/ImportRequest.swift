import Pickup
import PickupStore

/// One item to import: a photo or video file, or a Live Photo's still with its movie.
public struct ImportRequest: Sendable, Hashable {
    /// The file to import (a Live Photo's still).
    public var path: String
    /// Its probed facts.
    public var info: MediaInfo
    /// The movie of a Live Photo whose still is `path`.
    public var livePhotoMovie: String?
    /// An iPhone's edits of the photo or video (its `.AAE` file, the adjustments Photos made),
    /// kept with the item so that the edits are not lost on the way.
    public var edits: String?
    /// Which file each part's path led to when it was found (a folder's walk): a part whose
    /// path leads elsewhere when its turn comes (swapped for a link, say) is refused, not copied.
    public var expected: [String: FileIdentity] = [:]

    /// A request for a file and, for a Live Photo, its movie, and its edits file.
    public init(path: String, info: MediaInfo, livePhotoMovie: String? = nil, edits: String? = nil) {
        self.path = path
        self.info = info
        self.livePhotoMovie = livePhotoMovie
        self.edits = edits
    }

    /// Every file of the item, in the order they are stored: the primary file, a Live Photo's
    /// movie, the edits.
    public var parts: [(path: String, role: StoredFile.Role)] {
        [(path, .primary)] + (livePhotoMovie.map { [($0, .livePhotoMovie)] } ?? [])
            + (edits.map { [($0, .edits)] } ?? [])
    }

    /// How long the movie of a Live Photo plays, in seconds, when its probe said.
    public var livePhotoMovieDuration: Double?

    /// How long the part in `role` plays: the file's own duration, or its Live Photo movie's.
    func duration(of role: StoredFile.Role) -> Double? {
        switch role {
        case .primary: return info.duration
        case .livePhotoMovie: return livePhotoMovieDuration
        case .edits: return nil
        }
    }

    /// The file's name without its folder.
    public var name: String {
        // The last run of characters between slashes, read from the end (no array of parts).
        let slash = UInt8(ascii: "/")
        let bytes = path.utf8
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == slash { end = bytes.index(before: end) }
        guard end > bytes.startIndex else { return path }
        let start = bytes[..<end].lastIndex(of: slash).map { bytes.index(after: $0) } ?? bytes.startIndex
        return String(path[start..<end])
    }
}

/// The order in which picked items are imported and delivered.
public enum ImportOrder: String, Sendable, CaseIterable {
    /// As given (the order the person selected them).
    case selected
    /// Newest creation date first; items without a date last.
    case newest
    /// Oldest creation date first; items without a date last.
    case oldest
    /// By file name, numbers in names compared as numbers (`IMG_9` before `IMG_10`).
    case name
}
