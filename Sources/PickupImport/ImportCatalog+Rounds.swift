import Foundation
import Pickup
import PickupStore

/// The catalog's work for many items at once: what it records with each content, read in one
/// snapshot, and new items recorded in one transaction. A round of small photos
/// (`ImportSession.nameRound`, then `recordRound`, each run by `BatchRounds`) costs the
/// catalog two calls and one commit, not three calls and a commit a photo.
extension ImportCatalog {
    /// An item's facts as the catalog keeps them: JSON (`{}` should they not encode).
    static func factsJSON(_ info: MediaInfo) -> String {
        FactsJSON.encode(info) ?? String(decoding: (try? JSONEncoder().encode(info)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// What the catalog records with some content: the item whose primary file has it, and
    /// whether all its files are there with their recorded sizes.
    struct Recorded: Sendable {
        /// The item, as the catalog records it.
        var item: ImportedItem
        /// Whether every stored file of it is there (else a copy of the same bytes restores it).
        var intact: Bool
        /// Which of its files has the content: its primary file, or another (a Live Photo's
        /// movie, picked alone after the pair was imported).
        var role: StoredFile.Role = .primary
        /// Whether that file itself is there with its recorded size.
        var fileIntact = true

        /// The file of the item with the content.
        var file: StoredFile? { item.files.first { $0.role == role } }

        /// Whether files of these contents (SHA-256, by position, the primary first) are the
        /// item's own, and so can put back the files of it that are missing or damaged.
        func restored(by hashes: [String]) -> Bool { item.files.map(\.sha256) == hashes }
    }

    /// What the catalog records with each of these contents, by content: the item whose primary
    /// file has it, else the item with another file of it (a Live Photo's movie); one read
    /// snapshot for them all. `movies`: the content identifiers of lone Live Photo movies, by
    /// content: one the catalog does not hold finds the still it belongs with, imported alone
    /// before (its `file` nil: the movie completes it).
    func recorded(
        withSHA256 hashes: [String], movies: [String: String] = [:]
    ) throws(ImportError) -> [String: Recorded] {
        try reading { () throws(ImportError) -> [String: Recorded] in
            var found: [String: Recorded] = [:]
            for hash in Set(hashes) {
                let match = try catalogCall {
                    try withStatement(Query.itemWithFileSHA256) { statement -> (String, StoredFile.Role)? in
                        try statement.bind([.text(hash)])
                        guard try statement.step(), let id = statement.text(0),
                            let role = statement.text(1).flatMap(StoredFile.Role.init(rawValue:))
                        else { return nil }
                        return (id, role)
                    }
                }
                if let (id, role) = match, let item = try item(exactID: id) {
                    var recorded = Recorded(item: item, intact: filesIntact(item), role: role)
                    recorded.fileIntact = recorded.file.map(fileIntact) ?? false
                    found[hash] = recorded
                } else if let contentID = movies[hash], let still = try stillAwaitingMovie(contentID) {
                    found[hash] = Recorded(item: still, intact: true, role: .livePhotoMovie, fileIntact: false)
                }
            }
            return found
        }
    }

    /// Video items of their own that are the movies of Live Photo stills now imported, by the
    /// still's content: found by the movie's content for a pair (`pairs`: still's SHA-256 to the
    /// movie's), or by the content identifier for a still alone (`stills`: still's SHA-256 to
    /// its identifier). Each is one file, intact: the new Live Photo item takes it over.
    func movieItems(pairs: [String: String], stills: [String: String]) throws(ImportError) -> [String: ImportedItem] {
        guard !pairs.isEmpty || !stills.isEmpty else { return [:] }
        return try reading { () throws(ImportError) -> [String: ImportedItem] in
            var found: [String: ImportedItem] = [:]
            var taken: Set<String> = []  // a video item goes to one still only, the first in order
            for (still, movie) in pairs.sorted(by: { $0.key < $1.key }) {
                if let item = try recordedItem(withSHA256: movie), isLoneMovie(item), taken.insert(item.id).inserted {
                    found[still] = item
                }
            }
            for (still, contentID) in stills.sorted(by: { $0.key < $1.key }) where found[still] == nil {
                let movie = try items(withContentID: contentID).first {
                    $0.info.livePhotoRole == .movie && isLoneMovie($0) && !taken.contains($0.id)
                }
                if let movie {
                    taken.insert(movie.id)
                    found[still] = movie
                }
            }
            return found
        }
    }

    /// Removes the video item `id` whose one file `item` takes over as its movie, in the caller's
    /// transaction; throws (the transaction undone) when it is no longer that one file.
    private func remove(_ id: String, takenOverBy item: ImportedItem) throws {
        guard let absorbed = try self.item(exactID: id), absorbed.files.count == 1, let file = absorbed.primary,
            item.files.contains(where: { $0.name == file.name && $0.sha256 == file.sha256 })
        else {
            throw ImportError(
                .catalog, "the video item \(id) changed while its file was taken into a Live Photo",
                hint: "Import again: the library is as it was.")
        }
        try withStatement("DELETE FROM items WHERE id = ?1") { try $0.run([.text(id)]) }
    }

    /// The items with this Live Photo content identifier (`items_by_content_id`); none in a
    /// catalog of an earlier version opened only to read, which has no such column.
    private func items(withContentID contentID: String) throws(ImportError) -> [ImportedItem] {
        guard hasContentID else { return [] }
        let ids = try catalogCall {
            try withStatement(Query.itemsWithContentID) { statement -> [String] in
                try statement.bind([.text(contentID)])
                var ids: [String] = []
                while try statement.step() { if let id = statement.text(0) { ids.append(id) } }
                return ids
            }
        }
        var items: [ImportedItem] = []
        for id in ids { if let item = try item(exactID: id) { items.append(item) } }
        return items
    }

    /// A video item of one intact file: what a Live Photo item may take over as its movie.
    private func isLoneMovie(_ item: ImportedItem) -> Bool {
        item.files.count == 1 && item.primary != nil && item.kind == .video && filesIntact(item)
    }

    /// The Live Photo still imported alone whose movie has this content identifier: an item of
    /// it without a movie, its files intact.
    func stillAwaitingMovie(_ contentID: String) throws(ImportError) -> ImportedItem? {
        try items(withContentID: contentID).first {
            $0.info.livePhotoRole == .still && !$0.isLivePhoto && filesIntact($0)
        }
    }

    /// Records new items whose files are already in place, in one transaction: each unless an
    /// item with the same content is already there with all its files, which is then given in
    /// its place (nil: recorded). An entry that is such an item with files added
    /// (`ImportSession.completing`) records those files with it (nil). The checks and the inserts are one immediate transaction: it
    /// holds the write lock, so two imports (two processes, too) of the same content at once
    /// cannot both record it. `syncing` false: the commit does not wait for the disk; the caller
    /// flushes the file system before it counts on the records (`FlushRounds`).
    /// `infos`: each item's facts as the catalog keeps them (`factsJSON`), when encoded already,
    /// off the round's path (in the item's own task, while other items copy).
    /// `absorbing`, by entry: the video item whose one file a new Live Photo takes over as its
    /// movie (`ImportSession.settle`), removed in the same transaction before the new item is
    /// written (a stored name belongs to one item); refused when that item no longer is that one
    /// file, so that nothing else of it goes.
    func record(
        _ entries: [(ImportedItem, [StoredFile.Role: SourceKey])], infos known: [String]? = nil,
        absorbing: [String?] = [], syncing: Bool
    ) throws(ImportError) -> [ImportedItem?] {
        guard !entries.isEmpty else { return [] }
        for (item, _) in entries {
            for file in item.files { try ImportCatalog.checkName(file.name) }
        }
        let infos = known ?? entries.map { item, _ in ImportCatalog.factsJSON(item.info) }
        // One text an entry is the caller's promise; a short list would leave items unrecorded.
        precondition(infos.count == entries.count, "\(infos.count) facts for \(entries.count) items")
        let write = { () throws -> [ImportedItem?] in
            try self.database.transaction { () throws -> [ImportedItem?] in
                var existing: [ImportedItem?] = []
                for (index, ((item, sources), infoJSON)) in zip(entries, infos).enumerated() {
                    if let primary = item.primary, let found = try self.item(withSHA256: primary.sha256) {
                        // Recorded meanwhile (another process): it is that item's, and the movie
                        // this one would take over stays with its own video item.
                        if index < absorbing.count, absorbing[index] != nil {
                            existing.append(found)
                            continue
                        }
                        // The item this one completes (`ImportSession.completing`): the files it
                        // has are the entry's too, and the entry's others are added to it.
                        let added = item.files.filter { file in !found.files.contains { $0.role == file.role } }
                        let same = found.files.allSatisfy { file in
                            item.files.contains {
                                $0.role == file.role && $0.name == file.name && $0.sha256 == file.sha256
                            }
                        }
                        if !added.isEmpty, same, found.id == item.id {
                            try self.insertFiles(added, of: found.id, sources: sources)
                            existing.append(nil)
                            continue
                        }
                        existing.append(found)
                        continue
                    }
                    if index < absorbing.count, let absorbed = absorbing[index] {
                        try self.remove(absorbed, takenOverBy: item)
                    }
                    try self.insert(item, sources: sources, infoJSON: infoJSON)
                    existing.append(nil)
                }
                return existing
            }
        }
        return try catalogCall { () throws -> [ImportedItem?] in
            syncing ? try write() : try database.withoutWaitingForDisk(write)
        }
    }
}
