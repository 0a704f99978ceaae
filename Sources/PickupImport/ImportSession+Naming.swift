import Foundation
import Pickup

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How an item's copies get their names and their record, once they are made and its turn has
/// come (their bytes flushed first): reused when the catalog holds the same content with all
/// its files, restored when it holds it with a file missing, otherwise named and recorded.
/// Alone for a large item (or where flushes are not shared), each step waiting for the disk;
/// in rounds for small ones, where a round's items are looked up in one read, recorded in one
/// transaction and flushed together.
extension ImportSession {
    /// An item's copies, made (flushed already when each flushed alone; else by its round's
    /// first step), waiting for their names.
    struct Made: Sendable {
        var request: ImportRequest
        /// Where each file came from, by position (the primary first).
        var keys: [ImportCatalog.SourceKey]
        var copies: [FileCopier.Copied]
        /// The layout's subfolder for the item (`2024/05/`), or empty.
        var subfolder: String
        /// The item's facts as the catalog keeps them (`ImportCatalog.factsJSON`), encoded before
        /// its round, which records many items one after another (nil: encoded when recorded).
        var infoJSON: String?
        /// Read from the shared flushes once the copies were written (`FlushRounds.ticket()`):
        /// a flush begun after it holds their bytes. Nil: any flush from now on.
        var flushTicket: Int? = nil
        /// The batch the item was copied in (`ImportSession.importBatch`), whose items are named
        /// in one round without waiting for each other: a later one with the same content is
        /// that earlier one's (nil: an item alone, which waited for any earlier of its content).
        var batch: UInt64? = nil

        /// The content of the primary file: what the catalog knows the item by.
        var sha256: String { copies[0].sha256 }
    }

    /// What naming an item's copies came to.
    enum Settled: Sendable {
        /// Nothing more to record: reused (the copies dropped) or restored.
        case done(Copied)
        /// Named; `item` is to be recorded, and `names` unlinked if it is not. `absorbing`: the
        /// video item whose file `item` takes over as its movie, removed from the catalog when
        /// `item` is recorded (`ImportCatalog.record`).
        case named(ImportedItem, names: [String], absorbing: String?)
        /// The same content as an earlier item of its batch, named in the same round: its copies
        /// dropped, never named; it ends as that item does (`CommitRounds.submit(all:)`).
        case sameAsEarlier
    }

    /// One item alone: looked up, named, and recorded, each waiting for the disk.
    func nameAndRecord(_ made: Made) async throws(ImportError) -> Copied {
        let recorded: ImportCatalog.Recorded?
        let movie: ImportedItem?
        do {
            recorded = try await catalog.recorded(
                withSHA256: [made.sha256], movies: ImportSession.loneMovies([made]))[made.sha256]
            let (pairs, stills) = ImportSession.movieItemKeys([made])
            movie = try await catalog.movieItems(pairs: pairs, stills: stills)[made.sha256]
        } catch {
            for copy in made.copies { copy.temporary.discard() }
            throw error
        }
        switch try settle(made, recorded: recorded, movieItem: movie, syncing: true) {
        case .done(let copied): return copied
        case .sameAsEarlier:  // only a round names items of a batch
            throw ImportError(.cancelled, "the import was cancelled", path: made.request.path)
        case .named(let item, let names, let absorbing):
            defer { recordedNames(names) }
            let existing: ImportedItem?
            do {
                existing =
                    try await catalog.record(
                        [(item, ImportSession.sources(made.keys, made.request, of: item))], absorbing: [absorbing],
                        syncing: true
                    ).first ?? nil
            } catch {
                for name in names { unlink(destination + "/" + name) }
                throw error
            }
            return ended(item, instead: existing, names: names)
        }
    }

    /// Names an item's copies, given what the catalog records with their content: dropped when
    /// it holds them intact, put back under the recorded names when a file of it is missing or
    /// damaged, else named (in the layout's subfolder, never over another file). On failure
    /// nothing half-done stays: the copies left are dropped and the names made unlinked.
    /// `movieItem`: a video item of its own that is this new Live Photo's movie
    /// (`ImportCatalog.movieItems`), taken over instead of copied again.
    func settle(
        _ made: Made, recorded: ImportCatalog.Recorded?, movieItem: ImportedItem? = nil, syncing: Bool
    ) throws(ImportError) -> Settled {
        let copies = made.copies
        if let recorded, recorded.role != .primary {
            // A lone file whose bytes are another file of an item (a Live Photo's movie picked
            // alone after the pair was imported): that item holds it, and it goes back to its name
            // if missing there. An item of several files is not another's part: a new item.
            guard copies.count == 1 else { return try named(made, syncing: syncing) }
            guard let file = recorded.file else {
                return try completing(recorded.item, withMovie: made, syncing: syncing)
            }
            if recorded.fileIntact, !options.rehash || ImportSession.storedBytesIntact(file, in: destination) {
                copies[0].temporary.discard()
                return .done(.reused(recorded.item))
            }
            do throws(ImportError) {
                try ImportCatalog.checkName(file.name)
                try library.makeFolders(for: file.name)
                try FileCopier(folder: destination).replace(copies[0].temporary, named: file.name)
            } catch {
                copies[0].temporary.discard()
                throw error
            }
            return .done(.restored(recorded.item))
        }
        // With `rehash` the stored files are read too: one that rotted behind its size is put back.
        if let recorded, recorded.intact,
            !options.rehash || ImportSession.storedBytesIntact(recorded.item, in: destination)
        {
            if let completed = try completing(recorded.item, with: made, syncing: syncing) { return completed }
            for copy in copies { copy.temporary.discard() }
            return .done(.reused(recorded.item))
        }
        // In the catalog with a missing or damaged file: the same bytes go back to the names
        // the catalog records (each checked to lie inside the library).
        if let recorded, recorded.restored(by: copies.map(\.sha256)) {
            let copier = FileCopier(folder: destination)
            var usedUp = 0  // copies before this one were put back
            do throws(ImportError) {
                for file in recorded.item.files { try ImportCatalog.checkName(file.name) }
                for (file, copy) in zip(recorded.item.files, copies) {
                    try library.makeFolders(for: file.name)
                    try copier.replace(copy.temporary, named: file.name)
                    usedUp += 1
                }
            } catch {
                for copy in copies[usedUp...] { copy.temporary.discard() }
                throw error
            }
            return .done(.restored(recorded.item))
        }
        if let movieItem, let movie = movieItem.primary {
            return try named(made, takingOver: movie, of: movieItem, syncing: syncing)
        }
        return try named(made, syncing: syncing)
    }

    /// A new item: its copies named (in the layout's subfolder, never over another file).
    private func named(_ made: Made, syncing: Bool) throws(ImportError) -> Settled {
        let files = try name(
            zip(made.request.parts, made.copies).map { (part: $0, copy: $1) }, in: made.subfolder, of: made.request,
            syncing: syncing)
        return .named(
            ImportSession.item(made.request, files: files, sha256: made.sha256), names: files.map(\.name),
            absorbing: nil)
    }

    /// A new Live Photo whose movie the library holds already as a video item of its own
    /// (imported alone before): its other copies named, its movie that item's file, which it
    /// takes over (the video item is removed when this one is recorded). The movie's copy, if
    /// the request brought one, goes over that file: the same bytes, hashed as they were copied.
    private func named(
        _ made: Made, takingOver movie: StoredFile, of movieItem: ImportedItem, syncing: Bool
    ) throws(ImportError) -> Settled {
        var copies: [(part: (path: String, role: StoredFile.Role), copy: FileCopier.Copied)] = []
        for (part, copy) in zip(made.request.parts, made.copies) {
            guard part.role == .livePhotoMovie else {
                copies.append((part, copy))
                continue
            }
            // The fresh copy, hashed as it was made, goes over the file it is the same bytes as:
            // that one was checked by its size only, and may have rotted since.
            do throws(ImportError) {
                try ImportCatalog.checkName(movie.name)
                try FileCopier(folder: destination).replace(copy.temporary, named: movie.name)
            } catch {
                for (_, copy) in zip(made.request.parts, made.copies) { copy.temporary.discard() }
                throw error
            }
        }
        var files = try name(copies, in: made.subfolder, of: made.request, syncing: syncing)
        var taken = movie
        taken.role = .livePhotoMovie
        taken.duration = movie.duration ?? movieItem.info.duration
        files.insert(taken, at: min(1, files.count))
        let named = files.map(\.name).filter { $0 != movie.name }  // the taken file is not this item's to undo
        return .named(
            ImportSession.item(made.request, files: files, sha256: made.sha256), names: named, absorbing: movieItem.id)
    }

    /// Names `copies` of the request's `parts` in `subfolder` (empty, or ending with "/"), never
    /// over another file: their stored files, in order. On failure nothing half-done stays: the
    /// copies not yet named are dropped and the names made unlinked.
    func name(
        _ copies: [(part: (path: String, role: StoredFile.Role), copy: FileCopier.Copied)], in subfolder: String,
        of request: ImportRequest, syncing: Bool
    ) throws(ImportError) -> [StoredFile] {
        let placer = FileCopier(folder: subfolder.isEmpty ? destination : destination + "/" + subfolder.dropLast())
        var files: [StoredFile] = []
        do throws(ImportError) {
            for (part, copy) in copies {
                let name =
                    subfolder
                    + (try placer.place(copy.temporary, as: ImportSession.fileName(part.path), syncing: false))
                // Known as in waiting before the folder's flush, while another item could see the name.
                unrecorded.withValue { _ = $0.insert(name) }
                files.append(
                    StoredFile(
                        role: part.role, name: name, originalPath: part.path, size: copy.size, sha256: copy.sha256,
                        method: copy.method, duration: request.duration(of: part.role)))
                if syncing { placer.syncFolder() }
            }
        } catch {
            for (_, copy) in copies[files.count...] { copy.temporary.discard() }
            let placed = files.map(\.name)
            for name in placed { unlink(destination + "/" + name) }
            recordedNames(placed)
            throw error
        }
        return files
    }

    /// Names of this session's that the catalog now records, or that were unlinked: another
    /// item may adopt a file under them again (`adopt`).
    func recordedNames(_ names: [String]) {
        guard !names.isEmpty else { return }
        unrecorded.withValue { for name in names { $0.remove(name) } }
    }

    /// What a named item came to: imported, or — when the catalog already held its content
    /// (another process recorded it meanwhile) — that item reused, and the names just made
    /// unlinked unless the catalog names them (that process may have adopted this very copy).
    /// A completed item is a named item with fewer names made than files: `completing` names
    /// only the files it lacked, and a new Live Photo that takes over a movie the library held
    /// names all but that movie; a new item's files are all named now.
    func ended(_ item: ImportedItem, instead existing: ImportedItem?, names: [String]) -> Copied {
        guard let existing else {
            // An item that took over a movie the library held is completed too: only its added files
            // were written, and a picker deselecting it must not delete the movie held before.
            return names.count < item.files.count ? .completed(item, added: names) : .imported(item)
        }
        for name in names where !existing.files.contains(where: { $0.name == name }) {
            unlink(destination + "/" + name)
        }
        return .reused(existing)
    }
}
