/// A Live Photo found among probed files: a still and a movie that share a
/// content identifier.
public struct LivePhotoPair<Item>: CustomStringConvertible {
    /// The identifier the still and the movie share.
    public var contentIdentifier: String
    /// The photo.
    public var still: Item
    /// The short movie that plays when the photo is pressed.
    public var movie: Item

    public var description: String { "Live Photo \(contentIdentifier): \(still) + \(movie)" }
}

extension LivePhotoPair: Sendable where Item: Sendable {}
extension LivePhotoPair: Equatable where Item: Equatable {}

/// Finds Live Photos among probed files: stills and movies that share a content identifier.
public enum LivePhotoPairing {
    /// Pairs stills and movies that carry the same content identifier.
    ///
    /// Each identifier pairs its stills with its movies in the order given:
    /// the first still with the first movie, the second with the second (two
    /// copies of one Live Photo, on a card and in its backup, make two pairs,
    /// so that neither movie is taken for a video of its own). Items without a
    /// partner are left out. Pairs come in the order of their stills.
    public static func pairs<Item>(in items: [(item: Item, info: MediaInfo)]) -> [LivePhotoPair<Item>] {
        var movies: [String: [Item]] = [:]
        for entry in items where entry.info.livePhotoRole == .movie {
            if let id = entry.info.contentIdentifier { movies[id, default: []].append(entry.item) }
        }
        var used: [String: Int] = [:]
        var result: [LivePhotoPair<Item>] = []
        for entry in items where entry.info.livePhotoRole == .still {
            guard let id = entry.info.contentIdentifier, let candidates = movies[id] else { continue }
            let next = used[id, default: 0]
            guard next < candidates.count else { continue }
            used[id] = next + 1
            result.append(LivePhotoPair(contentIdentifier: id, still: entry.item, movie: candidates[next]))
        }
        return result
    }
}
