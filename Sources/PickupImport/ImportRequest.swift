import Pickup

/// One item to import: a photo or video file, or a Live Photo's still with its movie.
public struct ImportRequest: Sendable, Hashable {
    /// The file to import (a Live Photo's still).
    public var path: String
    /// Its probed facts.
    public var info: MediaInfo
    /// The movie of a Live Photo whose still is `path`.
    public var livePhotoMovie: String?

    /// A request for a file and, for a Live Photo, its movie.
    public init(path: String, info: MediaInfo, livePhotoMovie: String? = nil) {
        self.path = path
        self.info = info
        self.livePhotoMovie = livePhotoMovie
    }

    /// The file's name without its folder.
    public var name: String { path.split(separator: "/").last.map(String.init) ?? path }
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
