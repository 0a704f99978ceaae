import Pickup

/// An item in a destination's catalog: one photo or video, or a Live Photo's
/// still and movie together.
public struct ImportedItem: Sendable, Hashable, Codable {
    /// The stable identifier: the first 12 hex digits of the primary file's SHA-256.
    public var id: String
    /// Image, video or audio.
    public var kind: MediaKind
    /// The name the primary file had where it came from.
    public var originalName: String
    /// Where the source was when it was imported.
    public var originalPath: String
    /// Seconds since 1970 (UTC).
    public var importedAt: Double
    /// The stored files: the primary file and, for a Live Photo, its movie.
    public var files: [StoredFile]
    /// What the primary file is.
    public var info: MediaInfo
    /// Its thumbnail, when the import made one.
    public var thumbnail: ItemThumbnail?

    /// The primary file (the photo, the movie, or a Live Photo's still).
    public var primary: StoredFile? { files.first { $0.role == .primary } }
    /// Whether it holds a Live Photo's movie beside its still.
    public var isLivePhoto: Bool { files.contains { $0.role == .livePhotoMovie } }

    /// Whether a file of these roles is missing from the item: a Live Photo whose still was
    /// imported alone, picked again with its movie. Such an item is completed, not reused.
    func lacks(any roles: [StoredFile.Role]) -> Bool {
        roles.contains { role in !files.contains { $0.role == role } }
    }

    /// Whether files of these roles and contents (SHA-256, by position) complete the item: it
    /// lacks one of the roles, and holds the same bytes for each of the others.
    func isCompleted(by roles: [StoredFile.Role], hashes: [String]) -> Bool {
        guard lacks(any: roles) else { return false }
        return zip(roles, hashes).allSatisfy { role, sha256 in
            files.first { $0.role == role }.map { $0.sha256 == sha256 } ?? true
        }
    }
}

/// One file the destination holds for an item.
public struct StoredFile: Sendable, Hashable, Codable {
    /// What a stored file is to its item.
    public enum Role: String, Sendable, Hashable, Codable {
        /// The item's main file (a Live Photo's still).
        case primary
        /// A Live Photo's movie.
        case livePhotoMovie
        /// An iPhone's edits (`.AAE`): the adjustments Photos made to the picture.
        case edits
    }

    /// The primary file or a Live Photo's movie.
    public var role: Role
    /// The file's name inside the destination folder.
    public var name: String
    /// Where its source was when it was imported.
    public var originalPath: String
    /// Its size in bytes.
    public var size: Int64
    /// Its SHA-256, in lowercase hex, computed while it was copied.
    public var sha256: String
    /// How it was stored: cloned or reflinked (no new space) or copied; nil where the catalog
    /// does not say (an older catalog, or a file found already there).
    public var method: CopyMethod?

    /// How long it plays, in seconds: a video's or a Live Photo's movie's; nil for a photo, an
    /// edits file, or a catalog older than the record of it.
    public var duration: Double? = nil

    /// The bytes this file added to the library's disk (nothing for a clone or a reflink).
    public var bytesWritten: Int64 { method == .copied ? size : 0 }
}

/// A thumbnail the destination holds for an item, in `.pickup/thumbnails/`: made by the library
/// (`ImportSession.thumbnail(for:using:)`), read by the app.
public struct ItemThumbnail: Sendable, Hashable, Codable {
    /// The file's path inside the destination folder.
    public var name: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
}
