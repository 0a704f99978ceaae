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
        /// its round, which records many items one after another.
        var infoJSON: String

        /// The content of the primary file: what the catalog knows the item by.
        var sha256: String { copies[0].sha256 }
    }

    /// The rounds small items are named, recorded and flushed in (`commitRound`).
    typealias CommitRounds = BatchRounds<Made, Result<Copied, ImportError>>

    /// What naming an item's copies came to.
    enum Settled: Sendable {
        /// Nothing more to record: reused (the copies dropped) or restored.
        case done(Copied)
        /// Named; `item` is to be recorded, and `names` unlinked if it is not.
        case named(ImportedItem, names: [String])
    }

    /// One item alone: looked up, named, and recorded, each waiting for the disk.
    func nameAndRecord(_ made: Made) async throws(ImportError) -> Copied {
        let recorded: ImportCatalog.Recorded?
        do {
            recorded = try await catalog.recorded(withSHA256: [made.sha256])[made.sha256]
        } catch {
            for copy in made.copies { copy.temporary.discard() }
            throw error
        }
        switch try settle(made, recorded: recorded, syncing: true) {
        case .done(let copied): return copied
        case .named(let item, let names):
            let existing: ImportedItem?
            do {
                existing = try await catalog.record(
                    item, sources: ImportSession.sources(made.keys, made.request), syncing: true)
            } catch {
                for name in names { unlink(destination + "/" + name) }
                throw error
            }
            return ended(item, instead: existing, names: names)
        }
    }

    /// A round of small items: one flush for all their copies' bytes, one catalog read, their
    /// names, one transaction for all their records, then one flush for all, so that each is on
    /// the disk before it is reported. One result an item, in their order. A failure of the
    /// first flush or the read fails the whole round, and the transaction's the items it was to
    /// record (a full disk or a damaged catalog would fail each of them alone too), each undone:
    /// temporaries dropped, names unlinked. A last flush that fails fails every item not failed
    /// already, their files and records staying (the next import finds them there, and `library
    /// verify` reads their bytes).
    func commitRound(_ round: [Made], flushes: FlushRounds) async -> [Result<Copied, ImportError>] {
        let settled: [Result<Settled, ImportError>]
        do {
            // The copies' bytes on the disk before any name points to them.
            try await flushes.flush(gathering: false)
            let recorded = try await catalog.recorded(withSHA256: round.map(\.sha256))
            // Naming is quick but blocking file work: a thread of its own, off Swift's cooperative
            // pool. Each item's failure is its own result; the work itself does not throw.
            settled = try await ImportSession.onThread(queue: ImportSession.roundsQueue) { [self] in
                round.map { made -> Result<Settled, ImportError> in
                    do throws(ImportError) {
                        return .success(try settle(made, recorded: recorded[made.sha256], syncing: false))
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
        var results: [Result<Copied, ImportError>] = []
        var named: [(position: Int, item: ImportedItem, names: [String])] = []
        for (position, outcome) in settled.enumerated() {
            switch outcome {
            case .success(.done(let copied)): results.append(.success(copied))
            case .success(.named(let item, let names)):
                results.append(.success(.imported(item)))  // replaced below, once the transaction says
                named.append((position, item, names))
            case .failure(let error): results.append(.failure(error))
            }
        }
        do {
            let existing = try await catalog.record(
                named.map { ($0.item, ImportSession.sources(round[$0.position].keys, round[$0.position].request)) },
                infos: named.map { round[$0.position].infoJSON }, syncing: false)
            // One answer an entry is `record`'s promise; a named item left without one would be
            // reported imported unrecorded.
            precondition(existing.count == named.count, "the catalog answered \(existing.count) of \(named.count)")
            for (entry, existing) in zip(named, existing) {
                results[entry.position] = .success(ended(entry.item, instead: existing, names: entry.names))
            }
        } catch {
            for entry in named {
                for name in entry.names { unlink(destination + "/" + name) }
                results[entry.position] = .failure(error)
            }
        }
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

    /// Names an item's copies, given what the catalog records with their content: dropped when
    /// it holds them intact, put back under the recorded names when a file of it is missing or
    /// damaged, else named (in the layout's subfolder, never over another file). On failure
    /// nothing half-done stays: the copies left are dropped and the names made unlinked.
    func settle(_ made: Made, recorded: ImportCatalog.Recorded?, syncing: Bool) throws(ImportError) -> Settled {
        let copies = made.copies
        if let recorded, recorded.intact {
            for copy in copies { copy.temporary.discard() }
            return .done(.reused(recorded.item))
        }
        let copier = FileCopier(folder: destination)
        var usedUp = 0  // copies before this one were placed or discarded
        var placed: [String] = []
        do throws(ImportError) {
            // In the catalog with a missing or damaged file: the same bytes go back to the names
            // the catalog records (each checked to lie inside the library).
            if let recorded, recorded.restored(by: copies.map(\.sha256)) {
                for file in recorded.item.files { try ImportCatalog.checkName(file.name) }
                for (file, copy) in zip(recorded.item.files, copies) {
                    try library.makeFolders(for: file.name)
                    try copier.replace(copy.temporary, named: file.name)
                    usedUp += 1
                }
                return .done(.restored(recorded.item))
            }
            let request = made.request
            let placer =
                made.subfolder.isEmpty ? copier : FileCopier(folder: destination + "/" + made.subfolder.dropLast())
            var files: [StoredFile] = []
            for (position, copy) in copies.enumerated() {
                let path = request.parts[position].path
                let name =
                    made.subfolder
                    + (try placer.place(copy.temporary, as: ImportSession.fileName(path), syncing: syncing))
                usedUp += 1
                placed.append(name)
                files.append(
                    StoredFile(
                        role: request.parts[position].role, name: name, originalPath: path, size: copy.size,
                        sha256: copy.sha256, method: copy.method,
                        duration: request.duration(of: request.parts[position].role)))
            }
            return .named(ImportSession.item(request, files: files, sha256: made.sha256), names: placed)
        } catch {
            for copy in copies[usedUp...] { copy.temporary.discard() }
            for name in placed { unlink(destination + "/" + name) }
            throw error
        }
    }

    /// What a named item came to: imported, or — when the catalog already held its content
    /// (another process recorded it meanwhile) — that item reused, and the names just made
    /// unlinked unless the catalog names them (that process may have adopted this very copy).
    func ended(_ item: ImportedItem, instead existing: ImportedItem?, names: [String]) -> Copied {
        guard let existing else { return .imported(item) }
        for name in names where !existing.files.contains(where: { $0.name == name }) {
            unlink(destination + "/" + name)
        }
        return .reused(existing)
    }
}
