import Pickup
import PickupStore

/// Small items imported a batch at a time, where flushes are shared (`FlushRounds`): a camera
/// roll is thousands of photos, and one task an item, each copy its own trip to a thread and
/// back, each turn and each round its own wait, cost more than copying a photo does. A batch
/// is up to `batchLimit` consecutive items (in selection order) copied one after another on
/// one thread, which then waits once for its turn (`CommitOrder.waitForTurn(batch:)`) and joins
/// the naming and recording rounds together, in its order. Each item keeps its own events, its
/// own result and its own failure; what a crash can leave is what the rounds promise.
///
/// The members of a batch do not wait for each other's turn, so a later member with the same
/// content as an earlier one reaches the same naming round: it is that one's (`reused`, or
/// failed with it), its copy dropped before it gets a name, so the names after it are the
/// ones it would have left had it waited. A batch waits for every earlier item its members
/// would each have waited for: one slow earlier item of a member's name or size holds the
/// whole batch.
///
/// Only items with nothing to look up before their copy go in a batch: not known by their
/// source, not compared by content first (`rehash`), and with no file of their names in the
/// library folder to adopt. The others, and large files, are imported one by one as before.
extension ImportSession {
    /// At most this many items in one batch: enough that its fixed costs vanish, few enough that
    /// the first items are reported soon and both cores get batches.
    static let batchLimit = 32

    /// How many items a batch that begins with an item of this many `inFlight` (how many such
    /// items may copy at once) takes: a quarter of them, so that several batches copy and
    /// name side by side, at most `batchLimit`. Photos of a few megabytes, of which few fit in
    /// the copy memory, go one at a time, each on its own thread, as before batches.
    static func batchSize(inFlight: Int) -> Int { max(1, min(batchLimit, inFlight / 4)) }

    /// Whether item `index` can go in a batch: small files only, flushes shared, its sources
    /// found when the run began and looked up in the catalog then (`known`: the item the catalog
    /// held from this very source), nothing compared by content first, nothing to adopt.
    func batchable(_ request: ImportRequest, index: Int, known: Bool, run: ImportRun.Context) -> Bool {
        guard run.commits != nil, run.sourcesLookedUp, !known, !options.rehash, index < run.found.count else {
            return false
        }
        let found = run.found[index]
        guard found.count == request.parts.count,
            found.allSatisfy({ ($0?.status.size ?? Int64.max) <= FlushRounds.largestFile })
        else { return false }
        let subfolder = options.layout.folder(for: request.info).map { $0 + "/" } ?? ""
        guard run.folderNames.mayHoldAny(in: subfolder) else { return true }
        return !request.parts.contains { part in
            run.folderNames.mayHold(StoredName(ImportSession.fileName(part.path)).variant(1), in: subfolder)
        }
    }

    /// Imports the items at `indices` (consecutive in selection order, but for items that never
    /// start, each `batchable`): copied one after another on one thread, then named and recorded
    /// together in the rounds small items share. One result an item, with its index.
    func importBatch(
        _ indices: [Int], of requests: [ImportRequest], run: ImportRun.Context
    ) async -> [(Int, ImportResult)] {
        guard let commits = run.commits else {
            // Never so (`batchable` asks for rounds); were it, the items still end, in order.
            await run.order.finished(indices)
            return indices.map { ($0, .failed(ImportError(.cancelled, "the import was cancelled"))) }
        }
        batchedItems.withValue { $0 += indices.count }
        let copied: [Result<Made, ImportError>]
        do {
            copied = try await ImportSession.onThread { () throws(ImportError) in
                indices.map { index in
                    do throws(ImportError) {
                        return .success(try self.copyForBatch(requests[index], index: index, run: run))
                    } catch {
                        return .failure(error)
                    }
                }
            }
        } catch {
            copied = indices.map { _ in .failure(error) }
        }
        // Their bytes are written: any shared flush begun from now on holds them.
        let ticket = rounds?.ticket()
        var generator = SystemRandomNumberGenerator()
        let batch = generator.next() as UInt64
        var results: [Int: ImportResult] = [:]
        var made: [(index: Int, made: Made)] = []
        for (index, outcome) in zip(indices, copied) {
            switch outcome {
            case .success(var item):
                item.flushTicket = ticket
                item.batch = batch
                made.append((index, item))
            case .failure(let error): results[index] = .failed(error)
            }
        }
        await run.order.finished(Array(results.keys))
        await run.order.waitForTurn(batch: made.map { ($0.index, $0.made.sha256) })
        let outcomes = await commits.submit(all: made.map(\.made))
        await run.order.finished(made.map(\.index))
        // Reported each with its thumbnail, when asked for, made side by side.
        await withTaskGroup(of: (Int, ImportResult).self) { group in
            for (entry, outcome) in zip(made, outcomes) {
                group.addTask {
                    switch outcome {
                    case .success(let copied):
                        return (entry.index, await self.reported(copied, index: entry.index, run: run))
                    case .failure(let error): return (entry.index, .failed(error))
                    }
                }
            }
            for await (index, result) in group { results[index] = result }
        }
        return indices.map { ($0, results[$0] ?? .failed(ImportError(.cancelled, "the import was cancelled"))) }
    }

    /// One item of a batch copied to temporaries, unflushed; once more when its source changed
    /// during the copy (a file still being written may be finished now).
    private func copyForBatch(_ request: ImportRequest, index: Int, run: ImportRun.Context) throws(ImportError) -> Made
    {
        do {
            return try copyOnce(request, index: index, run: run, attempt: 1)
        } catch  where error.code == .sourceChanged {
            return try copyOnce(request, index: index, run: run, attempt: 2)
        }
    }

    private func copyOnce(
        _ request: ImportRequest, index: Int, run: ImportRun.Context, attempt: Int
    ) throws(ImportError) -> Made {
        guard !run.flag.isSet else { throw ImportError(.cancelled, "the import was cancelled", path: request.path) }
        let keys = try sourceKeys(request, index: index, run: run, attempt: attempt)
        // A file that grew past the small ones' size since it was found is flushed on its own.
        let small = keys.allSatisfy { $0.size <= FlushRounds.largestFile }
        return try copyParts(request, index: index, keys: keys, flushing: !small, run: run)
    }
}
