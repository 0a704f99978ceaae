import Foundation
import Pickup
import PickupStore

/// Takes picked files into a destination folder the app owns.
///
/// Every copy goes to a temporary file in the destination (unnamed on Linux,
/// hidden elsewhere), is hashed (SHA-256) while it is copied, written past the
/// page cache where it can be, flushed to the disk (`fsync`; on Linux, small
/// files share one `syncfs` of many), and only then linked to a readable
/// name that never overwrites anything (`IMG_0001.HEIC`, `IMG_0001 2.HEIC`).
/// A Live Photo's still and movie are one item. An item already imported —
/// the same source file, or the same content — is reused, not copied again.
/// The catalog (SQLite, WAL) at `DEST/.pickup/catalog.sqlite` records each
/// item after its files are in place.
///
/// ```swift
/// let session = try ImportSession(destination: "/data/Library")
/// let run = session.start(plan.requests)
/// for await event in run.events { ... }       // progress, per-item results
/// let results = await run.results()           // in selection order
/// ```
public final class ImportSession: Sendable {
    /// The library folder: its paths, layout folders and temporaries.
    public let library: LibraryFolder
    /// The destination folder, as an absolute path without symbolic links.
    public var destination: String { library.path }
    /// The library's catalog: what is stored, under which names, with which hashes.
    public let catalog: ImportCatalog
    /// The options the session was opened with.
    public let options: ImportOptions
    /// Shared flushes for small copies, where the library's file system allows them.
    let rounds: FlushRounds?
    /// The library's volume and file system, looked up once for every copy into it.
    let facts: FileSystemFacts.Destination
    /// Names this session gave that the catalog does not record yet (their items wait for their
    /// transaction): not another item's files to adopt.
    let unrecorded = LockedValue<Set<String>>([])
    /// Where this session's rounds name their items: a serial queue of its own. The global
    /// queue's threads are few (about one a core) and copies queue there by the dozen, so a
    /// round waiting behind them held up every item in it; a serial queue gets a thread of its
    /// own when it has work.
    let roundsQueue = DispatchQueue(label: "pickup.import.rounds", qos: .userInitiated)
    /// How many items this session has imported in batches (`importBatch`), for tests.
    let batchedItems = LockedValue(0)

    /// Opens a destination, creating it (and its parents) when missing, and
    /// removes temporary files a killed import left behind.
    public init(destination: String, options: ImportOptions = ImportOptions()) throws(ImportError) {
        library = try LibraryFolder(opening: destination)
        self.options = options
        catalog = try ImportCatalog(folder: library.path)
        rounds = FlushRounds(folder: library.path)
        facts = FileSystemFacts.Destination(folder: library.path)
    }

    /// Where a stored file of this destination is, as an absolute path.
    public func path(of file: StoredFile) -> String { library.path(of: file.name) }

    /// The item whose stored file is at `path` (as ``path(of:)`` gave it: the path an upload of it
    /// keeps in its journal record), so that an app can remove what it has uploaded, after a
    /// relaunch too; nil when the path is not one of this library's files.
    public func item(at path: String) async throws(ImportError) -> ImportedItem? {
        let resolved = SystemPath.resolved(path) ?? SystemPath.absolute(path)
        guard resolved.hasPrefix(library.path + "/") else { return nil }
        return try await catalog.item(storedAs: String(resolved.dropFirst(library.path.count + 1)))
    }

    /// Where a stored file of this destination is, as a file URL (for a player, an image or an upload).
    public func url(of file: StoredFile) -> URL { URL(fileURLWithPath: path(of: file)) }

    /// Starts importing; follow `events`, then await `results()`.
    public func start(_ requests: [ImportRequest]) -> ImportRun {
        // The session's events go straight to every observer of the run, in one order (the
        // feed hands each on under its lock, from whichever thread sends it).
        let feed = EventFeed<ImportEvent>()
        let flag = CancellationFlag()
        let task = Task { [self] in
            // Each request's files, looked at once: the primary first, then a Live Photo's movie,
            // the edits.
            // Each resolved once (`SourcePaths`, each folder once for the run): the copy takes its
            // path and status from here.
            let sourcePaths = SourcePaths()
            let found = requests.map { request in request.parts.map { sourcePaths.resolve($0.path) } }
            let statuses = found.map { parts in parts.map { $0?.status } }
            let sizes = statuses.map { parts in parts.map { $0?.size ?? 0 } }
            let total = sizes.reduce(Int64(0)) { $0 + $1.reduce(0, +) }
            feed.yield(.planned(items: requests.count, bytes: total))
            var results = [ImportResult?](repeating: nil, count: requests.count)
            // What the library already holds, known by source (path, size, modification time), in
            // one call: reused without being read. A library with no item yet holds none of them:
            // nothing to look up.
            let empty = options.rehash ? false : (try? await catalog.holdsItems()) == false
            let resolved = found.map { parts in parts.first.flatMap { $0 }?.path }
            let primaries: [ImportCatalog.SourceKey?] = zip(requests, zip(statuses, resolved)).map {
                request, found in
                found.0.first.flatMap { $0 }.map {
                    ImportSession.sourceKey(request.path, status: $0, resolved: found.1 ?? request.path)
                }
            }
            let lookup = options.rehash ? nil : empty ? [:] : try? await catalog.items(from: primaries)
            // An item known by its source but lacking a file this request brings (a Live Photo's
            // still imported alone) is completed, not reused.
            let known = (lookup ?? [:]).filter { index, item in
                !item.lacks(any: requests[index].parts.map(\.role))
            }
            // What does not fit on the disk fails before anything is copied, in selection order.
            let space = self.spacePlan(requests, statuses: statuses, known: known)
            for (index, error) in space.refused {
                results[index] = .failed(error)
                feed.yield(.finished(index: index, result: .failed(error)))
            }
            var slots = ImportSlots(
                fileSizes: sizes, concurrency: options.concurrency, skipping: Set(space.refused.keys),
                sharedFlushes: rounds != nil)
            let order = CommitOrder(
                sizes: sizes.map { $0.first ?? 0 },
                names: requests.map { request in request.parts.map { ImportSession.fileName($0.path) } })
            for index in space.refused.keys { await order.finished(index) }
            // Small items are named, recorded and flushed in rounds where flushes are shared.
            let commits = rounds.map { CommitRounds(session: self, flushes: $0) }
            let context = ImportRun.Context(
                events: feed, flag: flag, order: order, commits: commits, sourcesLookedUp: lookup != nil,
                found: found, sourcePaths: sourcePaths, folderNames: FolderNames(library: destination))
            // Small items with nothing to look up first go in batches; the others one by one.
            let batchable = requests.indices.map { index in
                self.batchable(requests[index], index: index, known: known[index] != nil, run: context)
            }
            await withTaskGroup(of: [(Int, ImportResult)].self) { group in
                func startWhatMay() {
                    while let first = slots.startNext() {
                        guard batchable[first] else {
                            group.addTask {
                                [
                                    (
                                        first,
                                        await self.importItem(
                                            requests[first], index: first, known: known[first], run: context)
                                    )
                                ]
                            }
                            continue
                        }
                        var members = [first]
                        let size = ImportSession.batchSize(inFlight: slots.capacity(for: first))
                        while members.count < size, let next = slots.startNext(if: { batchable[$0] }) {
                            members.append(next)
                        }
                        let batch = members
                        group.addTask { await self.importBatch(batch, of: requests, run: context) }
                    }
                }
                startWhatMay()
                for await ended in group {
                    for (index, result) in ended {
                        slots.finished(index)
                        results[index] = result
                        feed.yield(.finished(index: index, result: result))
                    }
                    startWhatMay()
                }
            }
            let final = ImportSession.inSelectionOrder(
                results.map { $0 ?? .failed(ImportError(.cancelled, "the import was cancelled")) })
            let reused = final.filter { if case .reused = $0 { return true } else { return false } }.count
            let failed = final.filter { $0.error != nil }.count
            feed.yield(.completed(imported: final.count - reused - failed, reused: reused, failed: failed))
            feed.finish()
            return final
        }
        return ImportRun(feed: feed, task: task, flag: flag)
    }

    /// Imports and returns the results in selection order (events are dropped).
    public func run(_ requests: [ImportRequest]) async -> [ImportResult] {
        let run = start(requests)
        for await _ in run.events {}
        return await run.results()
    }

    /// Results whose statuses do not depend on which copy finished first: when one run imports
    /// the same content twice, the first in selection order is `imported` (or `restored`) and
    /// the later ones `reused`, every run.
    static func inSelectionOrder(_ results: [ImportResult]) -> [ImportResult] {
        var madeNow: [String: ImportResult] = [:]
        for result in results {
            switch result {
            case .imported(let item), .restored(let item), .completed(let item, _): madeNow[item.id] = result
            case .reused, .failed: break
            }
        }
        var seen: Set<String> = []
        return results.map { result in
            guard let item = result.item, let made = madeNow[item.id] else { return result }
            defer { seen.insert(item.id) }
            if seen.contains(item.id) { return .reused(item) }
            switch made {
            case .restored: return .restored(item)
            case .completed(_, let added): return .completed(item, added: added)
            default: return .imported(item)
            }
        }
    }

    /// `known`: the item the catalog held from this very source when the run began.
    private func importItem(
        _ request: ImportRequest, index: Int, known: ImportedItem?, run: ImportRun.Context
    ) async -> ImportResult {
        if let known, !run.flag.isSet {
            await run.order.finished(index)
            return .reused(await withThumbnail(known, index: index, events: run.events))
        }
        let result = await outcome(of: request, index: index, run: run)
        await run.order.finished(index)
        return result
    }

    /// How one item ends: copied (once more if its source changed meanwhile), reused or restored.
    private func outcome(of request: ImportRequest, index: Int, run: ImportRun.Context) async -> ImportResult {
        do {
            let copied: (item: Copied, onDisk: Bool)
            do {
                copied = try await copyItem(request, index: index, run: run)
            } catch let error as ImportError where error.code == .sourceChanged {
                // Once more: a file that was still being written may be finished now.
                copied = try await copyItem(request, index: index, run: run, attempt: 2)
            }
            // Where small items share their flushes, whatever the item ended as (copied, or the
            // same as one just named and recorded) is on the disk before it is reported: its
            // round flushed it, or (reused without a copy) a flush now does. A flush that fails
            // fails an item whose files and record stay: the next import finds it there
            // (`reused`), and `library verify` reads its bytes. An item with a larger file was
            // copied, named and recorded with its own flushes (as was any it reuses, being of
            // the same bytes), so it waits for no round.
            if !copied.onDisk, copied.item.item.files.allSatisfy({ $0.size <= FlushRounds.largestFile }) {
                try await rounds?.flush()
            }
            return await reported(copied.item, index: index, run: run)
        } catch let error as ImportError {
            return .failed(error)
        } catch {
            return .failed(ImportError(.sourceUnreadable, "\(error)", path: request.path))
        }
    }

    /// What an item that ended as `copied` is reported as, with its thumbnail when asked for.
    func reported(_ copied: Copied, index: Int, run: ImportRun.Context) async -> ImportResult {
        switch copied {
        case .imported(let item): return .imported(await withThumbnail(item, index: index, events: run.events))
        case .reused(let item): return .reused(await withThumbnail(item, index: index, events: run.events))
        case .restored(let item): return .restored(await withThumbnail(item, index: index, events: run.events))
        case .completed(let item, let added):
            return .completed(await withThumbnail(item, index: index, events: run.events), added: added)
        }
    }

    /// The item with a thumbnail, made now if asked for and missing. A thumbnail that cannot
    /// be made is reported and the item kept without one.
    private func withThumbnail(
        _ item: ImportedItem, index: Int, events: EventFeed<ImportEvent>
    ) async -> ImportedItem {
        guard let thumbnails = options.thumbnails else { return item }
        do {
            return try await thumbnail(for: item, using: thumbnails)
        } catch {
            events.yield(.thumbnailFailed(index: index, message: "\(error)"))
            return item
        }
    }

    /// Makes an item's thumbnail (from its primary file), keeps it in `.pickup/thumbnails/`
    /// and records it in the catalog; an item that has one, or is audio, is returned as is. One
    /// whose recorded thumbnail file is gone (deleted, a folder copied without it) gets it again.
    public func thumbnail(for item: ImportedItem, using thumbnails: ImportThumbnails) async throws -> ImportedItem {
        guard !hasThumbnail(item, as: thumbnails.request), item.kind != .audio, let primary = item.primary else {
            return item
        }
        let image = try await thumbnails.renderer.thumbnail(of: destination + "/" + primary.name, thumbnails.request)
        let folder = library.thumbnailsFolder
        if mkdir(folder, 0o755) != 0, errno != EEXIST { throw ImportError.writing(folder, errno: errno) }
        let name = ".pickup/thumbnails/\(item.id).\(image.format.fileExtension)"
        try FileCopier.writeAtomically(image.data, to: destination + "/" + name)
        let thumbnail = ItemThumbnail(name: name, width: image.size.width, height: image.size.height)
        try await catalog.record(thumbnail: thumbnail, for: item.id)
        // One of another format, made before, goes (the catalog records this one now).
        if let old = item.thumbnail, old.name != name { unlink(destination + "/" + old.name) }
        var updated = item
        updated.thumbnail = thumbnail
        return updated
    }

    /// Whether the item's recorded thumbnail is there in the library folder.
    public func hasThumbnailFile(_ item: ImportedItem) -> Bool {
        guard let thumbnail = item.thumbnail else { return false }
        return FileStatus(path: destination + "/" + thumbnail.name) != nil
    }

    /// Whether the item's thumbnail is there as `request` asks: its format, and the size the
    /// request gives the item's picture (`ThumbnailGeometry`: never larger than the picture).
    /// One of another size or format is made again: a thumbnail asked for at 512x512 is not
    /// answered by the 256x256 one made before.
    public func hasThumbnail(_ item: ImportedItem, as request: ThumbnailRequest) -> Bool {
        guard hasThumbnailFile(item), let thumbnail = item.thumbnail,
            thumbnail.name.lowercased().hasSuffix("." + request.format.fileExtension)
        else { return false }
        guard let width = item.info.displayWidth, let height = item.info.displayHeight, width > 0, height > 0 else {
            // No size known: the box decides (filled, or one side on it).
            return (thumbnail.width == request.size.width && thumbnail.height <= request.size.height)
                || (thumbnail.height == request.size.height && thumbnail.width <= request.size.width)
        }
        let expected = ThumbnailGeometry(
            source: PixelSize(width: width, height: height), orientation: Orientation(), target: request.size,
            mode: request.mode
        ).output
        // A pixel either way: renderers round the scaled side their own way.
        return abs(thumbnail.width - expected.width) <= 1 && abs(thumbnail.height - expected.height) <= 1
    }

    /// Runs blocking file work on a thread of its own, off Swift's cooperative pool (on `queue`
    /// when given, else on the global queue).
    static func onThread<T: Sendable>(
        queue: DispatchQueue? = nil, _ work: @escaping @Sendable () throws(ImportError) -> T
    ) async throws(ImportError)
        -> T
    {
        // No typed-throws `Result.init`/`get`: they are newer than the iOS 17.4 SDK's standard library.
        let result: Result<T, ImportError> = await withCheckedContinuation { continuation in
            (queue ?? DispatchQueue.global(qos: .userInitiated)).async {
                do throws(ImportError) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }

    static func fileName(_ path: String) -> String {
        // A name that is not UTF-8 is stored in UTF-8, its raw bytes read as Latin-1.
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        return SystemPath.readable(slash.map { String(path[path.utf8.index(after: $0)...]) } ?? path)
    }

    static func sourceKey(_ path: String, resolved: String? = nil) throws(ImportError) -> ImportCatalog.SourceKey {
        guard let status = FileStatus(path: path) else { throw ImportError.reading(path, errno: errno) }
        return sourceKey(path, status: status, resolved: resolved)
    }

    /// The key of a source whose status was just read (and, when known, its resolved path).
    static func sourceKey(_ path: String, status: FileStatus, resolved: String? = nil) -> ImportCatalog.SourceKey {
        ImportCatalog.SourceKey(path: resolved ?? realPath(path) ?? path, size: status.size, modified: status.modified)
    }

    static func realPath(_ path: String) -> String? { LibraryFolder.resolve(path) }
}

extension ImportSession {
    /// A path with symbolic links and `..` resolved, or nil when it does not exist.
    public static func resolve(_ path: String) -> String? { realPath(path) }
}
