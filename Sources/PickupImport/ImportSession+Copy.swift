import Foundation
import Pickup
import PickupStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How one item is copied in: reused when the library holds it (by source or content),
/// adopted when its files are there without the catalog knowing them, restored when a stored
/// file is missing, otherwise copied to temporaries and placed under readable names.
extension ImportSession {
    /// How `copyItem` ended, when it did not fail.
    enum Copied: Sendable {
        /// Copied and recorded.
        case imported(ImportedItem)
        /// The destination already held the item: nothing of this copy kept (a copy made before
        /// its content was known to be there is dropped).
        case reused(ImportedItem)
        /// The catalog held the item but a file of it was missing or damaged; the copy put it back.
        case restored(ImportedItem)
        /// The catalog held the item without a file the copy brings: that file was named beside
        /// the item's own and recorded with it (`added`: the names it got).
        case completed(ImportedItem, added: [String])

        /// The item, whichever way it came.
        var item: ImportedItem {
            switch self {
            case .imported(let item), .reused(let item), .restored(let item), .completed(let item, _): return item
            }
        }
    }

    /// An item whose files the library folder already holds under their names (same size and
    /// SHA-256) without the catalog knowing them — a catalog emptied or lost — recorded
    /// instead of copied again. Nil when any file is not there as it is.
    /// `names`: the library folder's names as the run first saw them, so that a name that was
    /// not there is not looked up (nil: every candidate is looked up).
    func adopt(
        _ request: ImportRequest, paths: [String], keys: [ImportCatalog.SourceKey], names: FolderNames? = nil
    ) async throws -> ImportedItem? {
        var files: [StoredFile] = []
        let subfolder = options.layout.folder(for: request.info).map { $0 + "/" } ?? ""
        for (position, path) in paths.enumerated() {
            let name = StoredName(ImportSession.fileName(path))
            var found: StoredFile?
            var sourceSHA256: String?  // read once, and only when a candidate's size matches
            for attempt in 1...20 {
                let candidate = subfolder + name.variant(attempt)
                // Not there when the run first looked: made since, by this run or another that
                // records it; nothing to adopt (a later run adopts what a crash left unrecorded).
                if let names, !names.mayHold(name.variant(attempt), in: subfolder) { break }
                guard let status = FileStatus(path: destination + "/" + candidate, followingLinks: false) else { break }
                // A name this session just gave, its item not yet recorded, is that item's.
                guard status.kind == .regular, status.size == keys[position].size,
                    !unrecorded.withValue({ $0.contains(candidate) }),
                    try await !catalog.knows(storedName: candidate)
                else { continue }
                let stored = destination + "/" + candidate
                let known = sourceSHA256
                let hashes = try await ImportSession.onThread { () throws(ImportError) -> (String?, String?) in
                    let source = known ?? (try? FileHash.sha256(ofFileAt: path).get().sha256)
                    return (source, try? FileHash.sha256(ofFileAt: stored).get().sha256)
                }
                sourceSHA256 = hashes.0
                if let sha256 = hashes.1, sha256 == sourceSHA256 {
                    found = StoredFile(
                        role: request.parts[position].role, name: candidate, originalPath: path,
                        size: keys[position].size, sha256: sha256,
                        duration: request.duration(of: request.parts[position].role))
                    break
                }
            }
            guard let found else { return nil }
            files.append(found)
        }
        guard let primary = files.first else { return nil }
        let item = ImportSession.item(request, files: files, sha256: primary.sha256)
        return try await catalog.record(item, sources: ImportSession.sources(keys, request)) ?? item
    }

    /// With `rehash`: the item the library holds, all its files there, with the bytes of the
    /// request's primary file — found by reading the source alone, so what is already there
    /// costs a read and no write. Nil when none (or the source cannot be read: the copy says why).
    func heldByContent(_ request: ImportRequest) async throws(ImportError) -> ImportedItem? {
        guard let primary = request.parts.first?.path else { return nil }
        let sha256 = try await ImportSession.onThread { () throws(ImportError) -> String? in
            try? FileHash.sha256(ofFileAt: primary).get().sha256
        }
        guard let sha256, let item = try await catalog.item(withSHA256: sha256) else { return nil }
        // Its stored files read too: a copy that rotted behind its size is put back from this one.
        let intact = try await ImportSession.onThread { [destination] () throws(ImportError) -> Bool in
            ImportSession.storedBytesIntact(item, in: destination)
        }
        return intact ? item : nil
    }

    /// Whether every stored file of `item` holds the bytes the catalog records (SHA-256): what
    /// `rehash` checks of an item it finds already there, as `library verify` does.
    static func storedBytesIntact(_ item: ImportedItem, in destination: String) -> Bool {
        item.files.allSatisfy { storedBytesIntact($0, in: destination) }
    }

    /// Whether a stored file holds the bytes the catalog records.
    static func storedBytesIntact(_ file: StoredFile, in destination: String) -> Bool {
        (try? ImportCatalog.checkName(file.name)) != nil
            && (try? FileHash.sha256(ofFileAt: destination + "/" + file.name).get().sha256) == file.sha256
    }

    /// The item a request becomes with these stored files; its id is the first 12 hex digits of
    /// the primary file's SHA-256.
    static func item(_ request: ImportRequest, files: [StoredFile], sha256: String) -> ImportedItem {
        ImportedItem(
            id: String(sha256.prefix(12)), kind: request.info.kind, originalName: request.name,
            originalPath: request.path, importedAt: Date().timeIntervalSince1970, files: files, info: request.info)
    }

    /// Where each of an item's files came from, by role, as the catalog records them: by the
    /// role the file has in `item` (a lone movie that completes a still is the item's movie, not
    /// its primary), or in the request when the item has no file from it.
    static func sources(
        _ keys: [ImportCatalog.SourceKey], _ request: ImportRequest, of item: ImportedItem? = nil
    ) -> [StoredFile.Role: ImportCatalog.SourceKey] {
        let roles = request.parts.map { part in item?.files.first { $0.originalPath == part.path }?.role ?? part.role }
        return Dictionary(zip(roles, keys), uniquingKeysWith: { first, _ in first })
    }

    /// Copies an item in: reused when the library holds it (by source, content or files already
    /// there), else copied to temporaries, then flushed, named and recorded once its turn comes
    /// (`CommitOrder`): with the other small items of its round where they share flushes
    /// (`ImportRun.Context.commits`), on its own otherwise. The flag says whether what it ended
    /// as is on the disk already (a round flushed it).
    func copyItem(
        _ request: ImportRequest, index: Int, run: ImportRun.Context, attempt: Int = 1
    ) async throws -> (Copied, onDisk: Bool) {
        guard !run.flag.isSet else { throw ImportError(.cancelled, "the import was cancelled", path: request.path) }
        let keys = try sourceKeys(request, index: index, run: run, attempt: attempt)
        if !options.rehash, !run.sourcesLookedUp, let existing = try await catalog.item(from: keys[0]),
            !existing.lacks(any: request.parts.map(\.role))
        {
            return (.reused(existing), false)
        }
        if options.rehash, let same = try await heldByContent(request), !same.lacks(any: request.parts.map(\.role)) {
            return (.reused(same), false)
        }
        let paths = request.parts.map(\.path)
        if let adopted = try await adopt(request, paths: paths, keys: keys, names: run.folderNames) {
            return (.reused(adopted), false)
        }
        // Small files share their flushes with the other items in flight; large ones flush alone.
        let commits = keys.allSatisfy { $0.size <= FlushRounds.largestFile } ? run.commits : nil
        var made = try await ImportSession.onThread { () throws(ImportError) in
            try self.copyParts(request, index: index, keys: keys, flushing: commits == nil, run: run)
        }
        // Their bytes are written: any shared flush begun from now on holds them.
        made.flushTicket = rounds?.ticket()
        await run.order.waitForTurn(index, sha256: made.sha256)
        if let commits {
            switch await commits.submit(made) {
            case .success(let copied): return (copied, true)
            case .failure(let error): throw error
            }
        }
        return (try await nameAndRecord(made), false)
    }

    /// Where each of the request's files comes from (its links resolved, its size and time), as
    /// the run found it when it began; looked up again on a second try (the source changed).
    func sourceKeys(
        _ request: ImportRequest, index: Int, run: ImportRun.Context, attempt: Int
    ) throws(ImportError) -> [ImportCatalog.SourceKey] {
        var keys: [ImportCatalog.SourceKey] = []
        for (position, path) in request.parts.map(\.path).enumerated() {
            let early = index < run.found.count && position < run.found[index].count ? run.found[index][position] : nil
            guard let found = (attempt == 1 ? early : nil) ?? run.sourcePaths.resolve(path) else {
                throw ImportError.reading(path, errno: errno)
            }
            if found.path.hasPrefix(destination + "/") {
                throw ImportError(.sourceInsideDestination, "this file is already inside the destination", path: path)
            }
            keys.append(
                ImportCatalog.SourceKey(path: found.path, size: found.status.size, modified: found.status.modified))
        }
        return keys
    }

    /// Copies the request's files to temporaries in the library (blocking work, for a thread of
    /// its own), reporting the item started and its bytes as they go: the item as made, waiting
    /// for its names. `flushing` false: written through the page cache, for a shared flush.
    /// On failure no temporary is left.
    func copyParts(
        _ request: ImportRequest, index: Int, keys: [ImportCatalog.SourceKey], flushing: Bool, run: ImportRun.Context
    ) throws(ImportError) -> Made {
        // New files are named in the layout's subfolder (made now), from temporaries made in the
        // library folder: one file system, so a link moves them.
        let subfolder = options.layout.folder(for: request.info).map { $0 + "/" } ?? ""
        if !subfolder.isEmpty { try library.makeFolders(for: subfolder + "x") }
        let copier = FileCopier(folder: destination, facts: facts)
        let total = keys.reduce(Int64(0)) { $0 + $1.size }
        let events = run.events
        let flag = run.flag
        events.yield(.started(index: index, name: request.name, bytes: total))
        var copies: [FileCopier.Copied] = []
        do throws(ImportError) {
            var before: Int64 = 0
            for path in request.parts.map(\.path) {
                let offset = before
                let copy = try copier.copyToTemporary(
                    path, expected: request.expected[path], flushing: flushing,
                    progress: { events.yield(.progress(index: index, bytes: offset + $0, of: total)) },
                    shouldStop: { flag.isSet })
                copies.append(copy)
                before += copy.size
            }
        } catch {
            for copy in copies { copy.temporary.discard() }
            throw error
        }
        // Each source as its copy read it: the catalog's key for what was copied.
        let copiedKeys = zip(keys, copies).map { key, copy in
            ImportCatalog.SourceKey(path: key.path, size: copy.source.size, modified: copy.source.modified)
        }
        // Encoded here, on the copy's thread, where a round would encode many in a row.
        let infoJSON = flushing ? nil : ImportCatalog.factsJSON(request.info)
        return Made(request: request, keys: copiedKeys, copies: copies, subfolder: subfolder, infoJSON: infoJSON)
    }
}
