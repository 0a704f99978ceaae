/// What a picked Live Photo brings: its still alone, or its still and paired movie.
public enum LivePhotoMotion: String, Sendable, Hashable, Codable {
    /// The still only (a profile photo, a document scan): nothing is read from the library.
    case stillOnly
    /// The still and its movie, when Photos hands the movie over; the still alone otherwise,
    /// with a ``PickNote`` saying why.
    case pair
}

/// Which of a Live Photo's resources to write: the still and the movie, each with the person's
/// edits when Photos has them (`PHAssetResourceType.fullSizePhoto`, `.fullSizePairedVideo`,
/// `PhotosTypes.h:181,186`; Apple's documentation of `PHAssetResourceType` describes them as
/// the photo and paired video with edits applied), the original otherwise.
public struct LivePhotoResourcePlan: Sendable, Hashable {
    /// The still to write.
    public var still: PickedResource
    /// The movie to write.
    public var movie: PickedResource

    /// The plan for Photos' list of resources; nil when it lacks a still or a movie.
    public init?(_ resources: [PickedResource]) {
        func first(_ roles: [PickedResource.Role]) -> PickedResource? {
            for role in roles { if let found = resources.first(where: { $0.role == role }) { return found } }
            return nil
        }
        guard let still = first([.fullSizePhoto, .photo]), let movie = first([.fullSizePairedVideo, .pairedVideo])
        else { return nil }
        self.still = still
        self.movie = movie
    }
}
