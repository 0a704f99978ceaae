/// What a file holds, decided from its bytes.
public enum MediaKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A still picture, or an animated one (GIF, animated WebP, HEIF sequence).
    case image
    /// A movie with at least one video track.
    case video
    /// A file with sound and no picture.
    case audio
}

/// The part a file plays in an Apple Live Photo.
///
/// A still and a movie belong to one Live Photo when they carry the same
/// content identifier (see ``MediaInfo/contentIdentifier``).
public enum LivePhotoRole: String, Sendable, Hashable, Codable {
    /// The photo of a Live Photo.
    case still
    /// The movie of a Live Photo.
    case movie
}
