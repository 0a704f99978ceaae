import Foundation
import Pickup

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small items named and recorded in rounds, in two stages that overlap: while one round's
/// items are recorded and flushed, the next round's are flushed and named. Each stage is a
/// `BatchRounds` of its own, so each runs one round at a time, in the order items reach it:
/// names are given in the order the items' turns came (`CommitOrder`), and records follow
/// them. An item is reported only after both.
extension ImportSession {
    /// The two stages small items pass through where flushes are shared.
    struct CommitRounds: Sendable {
        /// Their bytes flushed, the catalog read, their names given (`nameRound`).
        let naming: BatchRounds<Made, Result<Named, ImportError>>
        /// Their records written in one transaction, then everything flushed (`recordRound`).
        let recording: BatchRounds<Named, Result<Copied, ImportError>>

        init(session: ImportSession, flushes: FlushRounds) {
            naming = BatchRounds { round in await session.nameRound(round, flushes: flushes) }
            recording = BatchRounds { round in await session.recordRound(round, flushes: flushes) }
        }

        /// How one item's copies end: named in one round, recorded and flushed in the next stage's.
        func submit(_ made: Made) async -> Result<Copied, ImportError> {
            switch await naming.submit(made) {
            case .success(let named): return await recording.submit(named)
            case .failure(let error): return .failure(error)
            }
        }

        /// How a batch's copies end, item by item in their order: named in one round together,
        /// then those named recorded and flushed in one round of the next stage. An item with the
        /// same content as an earlier one of the batch ends as that one does: reused, or failed.
        func submit(all made: [Made]) async -> [Result<Copied, ImportError>] {
            let named = await naming.submit(all: made)
            var results = named.map { outcome -> Result<Copied, ImportError>? in
                if case .failure(let error) = outcome { return .failure(error) }
                return nil
            }
            var toRecord: [Named] = []
            var later: [Int] = []
            for (position, outcome) in named.enumerated() {
                switch outcome {
                case .success(.sameAsEarlier): later.append(position)
                case .success(let item): toRecord.append(item)
                case .failure: break
                }
            }
            var recorded = await recording.submit(all: toRecord).makeIterator()
            for position in results.indices where results[position] == nil && !later.contains(position) {
                results[position] = recorded.next()
            }
            for position in later {
                // The earlier item the naming round kept for this content: the first that settled.
                let earlier = made[..<position].indices.first { other in
                    guard made[other].sha256 == made[position].sha256, case .success(let outcome) = named[other] else {
                        return false
                    }
                    if case .sameAsEarlier = outcome { return false }
                    return true
                }
                results[position] = earlier.flatMap { results[$0] }.map(CommitRounds.asLater) ?? nil
            }
            return results.map { $0 ?? .failure(ImportError(.cancelled, "the import was cancelled")) }
        }

        /// What a later item of the same content ends as, when the earlier ended as `result`.
        private static func asLater(_ result: Result<Copied, ImportError>) -> Result<Copied, ImportError> {
            switch result {
            case .success(let copied): return .success(.reused(copied.item))
            case .failure(let error): return .failure(error)
            }
        }
    }

    /// An item after its round's naming: what is left to record.
    enum Named: Sendable {
        /// Nothing to record (reused, the copies dropped, or restored under its recorded names):
        /// only flushed with the round it reaches.
        case done(Copied)
        /// Named; to be recorded with where its files came from, and its names unlinked if it is not;
        /// `absorbing`: the video item whose file it takes over as its movie (`Settled.named`).
        case named(
            ImportedItem, names: [String], sources: [StoredFile.Role: ImportCatalog.SourceKey], infoJSON: String,
            absorbing: String?)
        /// The same content as an earlier item of its batch (`Settled.sameAsEarlier`): nothing to
        /// record or flush; it ends as that item does.
        case sameAsEarlier
    }

    /// A round's first stage: one flush for all their copies' bytes, one catalog read, their
    /// names. One result an item, in their order. A failure of the flush or the read fails the
    /// whole round, each item undone (temporaries dropped); an item whose naming fails is undone
    /// alone (its names unlinked).
    func nameRound(_ round: [Made], flushes: FlushRounds) async -> [Result<Named, ImportError>] {
        let settled: [Result<Settled, ImportError>]
        do {
            // The copies' bytes on the disk before any name points to them: a flush begun after
            // the last of them was written (the last round's, when they were all written before it).
            let tickets = round.map(\.flushTicket)
            let ticket = tickets.contains(nil) ? nil : tickets.compactMap { $0 }.max()
            try await flushes.flush(after: ticket, gathering: false)
            let recorded = try await catalog.recorded(
                withSHA256: round.map(\.sha256), movies: ImportSession.loneMovies(round))
            let (pairs, stills) = ImportSession.movieItemKeys(round)
            let movies = try await catalog.movieItems(pairs: pairs, stills: stills)
            // Naming is quick but blocking file work: a thread of its own, off Swift's cooperative
            // pool. Each item's failure is its own result; the work itself does not throw.
            settled = try await ImportSession.onThread(queue: roundsQueue) { [self] in
                // A batch's items share a round without waiting for each other: a later one with
                // the content of an earlier one named here is that one's, never named itself (so
                // the names after it come out as they would have had it waited its turn).
                var namedHere: Set<BatchContent> = []
                return round.map { made -> Result<Settled, ImportError> in
                    let content = made.batch.map { BatchContent(batch: $0, sha256: made.sha256) }
                    if let content, namedHere.contains(content) {
                        for copy in made.copies { copy.temporary.discard() }
                        return .success(.sameAsEarlier)
                    }
                    do throws(ImportError) {
                        let outcome = try settle(
                            made, recorded: recorded[made.sha256], movieItem: movies[made.sha256], syncing: false)
                        if let content { namedHere.insert(content) }
                        return .success(outcome)
                    } catch {
                        return .failure(error)
                    }
                }
            }
        } catch {
            // Nothing named yet: every copy dropped, every item failed.
            for made in round { for copy in made.copies { copy.temporary.discard() } }
            return round.map { _ in .failure(error) }
        }
        return zip(round, settled).map { made, outcome in
            switch outcome {
            case .success(.done(let copied)): return .success(.done(copied))
            case .success(.sameAsEarlier): return .success(.sameAsEarlier)
            case .success(.named(let item, let names, let absorbing)):
                return .success(
                    .named(
                        item, names: names, sources: ImportSession.sources(made.keys, made.request, of: item),
                        infoJSON: made.infoJSON ?? ImportCatalog.factsJSON(made.request.info), absorbing: absorbing))
            case .failure(let error): return .failure(error)
            }
        }
    }

    /// Some content, in one batch.
    struct BatchContent: Hashable {
        let batch: UInt64
        let sha256: String
    }

    /// A round's second stage: one transaction for the records of all its named items, then one
    /// flush for all, so that each is on the disk before it is reported. One result an item, in
    /// their order. A transaction that fails fails the items it was to record (a full disk or a
    /// damaged catalog would fail each alone too), their names unlinked. A flush that fails
    /// fails every item not failed already, their files and records staying (the next import
    /// finds them there, and `library verify` reads their bytes).
    func recordRound(_ round: [Named], flushes: FlushRounds) async -> [Result<Copied, ImportError>] {
        var results: [Result<Copied, ImportError>] = []
        var named: [(position: Int, item: ImportedItem, names: [String], absorbing: String?)] = []
        var entries: [(ImportedItem, [StoredFile.Role: ImportCatalog.SourceKey])] = []
        var infos: [String] = []
        for (position, outcome) in round.enumerated() {
            switch outcome {
            case .done(let copied): results.append(.success(copied))
            case .sameAsEarlier:  // resolved by the batch (`submit(all:)`), never sent here
                results.append(.failure(ImportError(.cancelled, "the import was cancelled")))
            case .named(let item, let names, let sources, let infoJSON, let absorbing):
                results.append(.success(.imported(item)))  // replaced below, once the transaction says
                named.append((position, item, names, absorbing))
                entries.append((item, sources))
                infos.append(infoJSON)
            }
        }
        do {
            let existing = try await catalog.record(
                entries, infos: infos, absorbing: named.map(\.absorbing), syncing: false)
            // One answer an entry is `record`'s promise; a named item left without one would be
            // reported imported unrecorded.
            precondition(existing.count == named.count, "the catalog answered \(existing.count) of \(named.count)")
            for (entry, existing) in zip(named, existing) {
                results[entry.position] = .success(
                    ended(entry.item, instead: existing, names: entry.names))
            }
        } catch {
            for entry in named {
                for name in entry.names { unlink(destination + "/" + name) }
                results[entry.position] = .failure(error)
            }
        }
        // Recorded, or unlinked: no longer this session's names in waiting.
        recordedNames(named.flatMap(\.names))
        do {
            try await flushes.flush(gathering: false)
        } catch {
            // Those that failed already keep their own reason.
            return results.map { result in
                if case .failure = result { return result }
                return .failure(error)
            }
        }
        return results
    }
}
