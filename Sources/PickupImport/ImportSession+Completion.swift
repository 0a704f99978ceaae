import Foundation
import Pickup

/// An item the catalog holds whole but without a file a request brings: a Live Photo's still
/// imported alone, then picked again with its movie (a whole card imported after one photo of
/// it). The item is completed: the files it lacks are named beside its primary file and
/// recorded with it (`ImportCatalog.record`), its other files left as they are. Reusing it, as
/// before, dropped the movie, and a card wiped after the import lost it.
extension ImportSession {
    /// The item with the request's new files named, the copies of files it has dropped; nil when
    /// the request brings no file the item lacks, or brings for a role it has other bytes than
    /// the item's (then it is not this item's file, and the item is reused as it is). On failure
    /// nothing half-done stays.
    func completing(_ item: ImportedItem, with made: Made, syncing: Bool) throws(ImportError) -> Settled? {
        let parts = made.request.parts
        guard item.isCompleted(by: parts.map(\.role), hashes: made.copies.map(\.sha256)) else { return nil }
        let held = Set(item.files.map(\.role))
        let copies = zip(parts, made.copies).map { (part: $0, copy: $1) }
        for (part, copy) in copies where held.contains(part.role) { copy.temporary.discard() }
        let added = try name(
            copies.filter { !held.contains($0.part.role) }, in: ImportSession.besidePrimary(of: item),
            of: made.request, syncing: syncing)
        var completed = item
        completed.files += added
        return .named(completed, names: added.map(\.name), absorbing: nil)
    }

    /// The still imported alone, completed by its movie picked alone (its content identifier
    /// found it: `ImportCatalog.stillAwaitingMovie`): the movie named beside the still and
    /// recorded with it, the item a Live Photo.
    func completing(_ item: ImportedItem, withMovie made: Made, syncing: Bool) throws(ImportError) -> Settled {
        var added = try name(
            [(part: (path: made.request.path, role: .livePhotoMovie), copy: made.copies[0])],
            in: ImportSession.besidePrimary(of: item), of: made.request, syncing: syncing)
        for index in added.indices { added[index].duration = made.request.info.duration }
        var completed = item
        completed.files += added
        return .named(completed, names: added.map(\.name), absorbing: nil)
    }

    /// Where files added to `item` go: beside its primary file, in its folder (the layout's
    /// subfolder when it was imported), as `name(_:in:of:syncing:)` takes it.
    static func besidePrimary(of item: ImportedItem) -> String {
        let folder = item.primary.map { ($0.name as NSString).deletingLastPathComponent } ?? ""
        return folder.isEmpty ? "" : folder + "/"
    }

    /// The content identifiers of the lone Live Photo movies among `made`, by content: each may
    /// complete a still imported alone before.
    static func loneMovies(_ made: [Made]) -> [String: String] {
        var movies: [String: String] = [:]
        for item in made {
            let request = item.request
            guard request.parts.count == 1, request.info.livePhotoRole == .movie,
                let contentID = request.info.contentIdentifier
            else { continue }
            movies[item.sha256] = contentID
        }
        return movies
    }

    /// The keys `ImportCatalog.movieItems` looks up for new Live Photos among `made`: a pair's
    /// movie content, and a still alone's content identifier, each by the still's content.
    static func movieItemKeys(_ made: [Made]) -> (pairs: [String: String], stills: [String: String]) {
        var pairs: [String: String] = [:]
        var stills: [String: String] = [:]
        for item in made {
            let request = item.request
            if let position = request.parts.firstIndex(where: { $0.role == .livePhotoMovie }),
                position < item.copies.count
            {
                pairs[item.sha256] = item.copies[position].sha256
            } else if request.info.livePhotoRole == .still, let contentID = request.info.contentIdentifier {
                stills[item.sha256] = contentID
            }
        }
        return (pairs, stills)
    }
}
