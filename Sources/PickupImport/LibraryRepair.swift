import Pickup
import PickupStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Puts back what `LibraryVerifier` finds missing or damaged: each such file is copied again
/// from the source the catalog records for it, into a temporary file in the library, and put
/// in place (one rename over the damaged copy) only when its SHA-256 is the one the catalog
/// records. A file whose source is gone or holds other bytes now is left as it is and said to
/// be beyond repair. A missing file whose bytes an unknown file holds (moved or renamed in the
/// library by hand) is named back instead. Other unknown files are left alone; the catalog is
/// not changed.
public struct LibraryRepair: Sendable {
    /// The library folder.
    public let folder: String
    /// Its catalog.
    public let catalog: ImportCatalog

    /// A repair of the library in `folder`, described by `catalog`.
    public init(folder: String, catalog: ImportCatalog) {
        self.folder = folder
        self.catalog = catalog
    }

    /// What became of one file that verification found wrong.
    public struct Outcome: Sendable, Hashable {
        /// What verification found.
        public var finding: LibraryVerifier.Finding
        /// Whether the file is whole again.
        public var repaired: Bool
        /// The source it was copied from (repaired), or the last one tried (nil: none recorded).
        public var source: String?
        /// What was done, or why it could not be, in words.
        public var detail: String
    }

    /// What a repair found and did.
    public struct Report: Sendable {
        /// The verification that came first (its findings are the problems before the repair).
        public var verification: LibraryVerifier.Report
        /// One outcome for each missing or damaged file, in the verification's order.
        public var outcomes: [Outcome] = []
        /// Files in the library the catalog does not know (left alone); not one named back.
        public var unknown: [LibraryVerifier.Finding] {
            verification.findings.filter { $0.problem == .unknown && !namedBack.contains($0.name) }
        }
        /// Files that are still wrong: outcomes not repaired, and problems repair does not touch
        /// (unknown files, names outside the library).
        public var remaining: Int {
            outcomes.filter { !$0.repaired }.count + verification.findings.count - outcomes.count - namedBack.count
        }
        /// The unknown files named back to a missing file's name (moved or renamed by hand).
        public var namedBack: Set<String> {
            Set(outcomes.filter(\.repaired).compactMap(\.finding.pairedWith))
        }
    }

    /// Verifies the library (`progress(bytesRead, totalBytes)` as it reads), then copies again
    /// every missing or damaged file whose recorded source still holds the recorded bytes.
    public func repair(
        progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in }
    ) async throws(ImportError) -> Report {
        let verification = try await LibraryVerifier(folder: folder, catalog: catalog).verify(progress: progress)
        var report = Report(verification: verification)
        for finding in verification.findings {
            guard finding.problem == .missing || finding.problem == .damaged, let id = finding.itemID else { continue }
            let sources = try await catalog.recordedSources(ofItem: id)
            let item = try await catalog.item(id: id)
            guard let file = item?.files.first(where: { $0.name == finding.name }) else { continue }
            let folder = self.folder
            let outcome = try await ImportSession.onThread { () throws(ImportError) -> Outcome in
                if finding.problem == .missing, let moved = finding.pairedWith {
                    return LibraryRepair.nameBack(moved, of: finding, in: folder)
                }
                return LibraryRepair.restore(file, of: finding, from: sources[file.role] ?? [], in: folder)
            }
            report.outcomes.append(outcome)
        }
        return report
    }

    /// The missing and damaged files of `findings` that no recorded source still there with their
    /// recorded size can put back, nor a file holding their bytes: `repair` can try the others
    /// (it then checks their bytes). A look at the sources only, nothing read.
    public func beyondRepair(
        _ findings: [LibraryVerifier.Finding]
    ) async throws(ImportError) -> [LibraryVerifier.Finding] {
        try await plan(findings).filter { !$0.repaired }.map(\.finding)
    }

    /// What `repair` would do about each missing and damaged file of `findings`, nothing read
    /// or written: each outcome as it would be (`repaired`: whether it would be repaired, from
    /// `source`), from a look at the sources' sizes; their bytes are checked by the repair
    /// itself, which can still find one changed. What `library repair --dry-run` says.
    public func plan(_ findings: [LibraryVerifier.Finding]) async throws(ImportError) -> [Outcome] {
        var outcomes: [Outcome] = []
        for finding in findings where finding.problem == .missing || finding.problem == .damaged {
            if finding.problem == .missing, let moved = finding.pairedWith {
                outcomes.append(
                    Outcome(
                        finding: finding, repaired: true, source: folder + "/" + moved,
                        detail: "would be named back from \(moved), which holds its bytes"))
                continue
            }
            var outcome = Outcome(
                finding: finding, repaired: false, source: nil,
                detail: "the catalog records no source for it; restore it from a backup")
            if let id = finding.itemID,
                let file = try await catalog.item(id: id)?.files.first(where: { $0.name == finding.name })
            {
                let sources = try await catalog.recordedSources(ofItem: id)[file.role] ?? []
                if let source = sources.first(where: {
                    FileStatus(path: $0).map { $0.kind == .regular && $0.size == file.size } ?? false
                }) {
                    outcome.repaired = true
                    outcome.source = source
                    outcome.detail = "would be copied again from \(source) (its SHA-256 checked as it is copied)"
                } else if let source = sources.first {
                    outcome.source = source
                    outcome.detail = "its source \(source) is gone or changed; restore it from a backup"
                }
            }
            outcomes.append(outcome)
        }
        return outcomes
    }

    /// The report `repair` would give after `verification`, nothing read or written: each
    /// outcome as `plan(_:)` sees it.
    public func plan(after verification: LibraryVerifier.Report) async throws(ImportError) -> Report {
        Report(verification: verification, outcomes: try await plan(verification.findings))
    }

    /// Gives the missing file `finding` names back its bytes: the unknown file `moved`, whose
    /// SHA-256 verification found to be the catalog's, takes the catalog's name. A hard link and
    /// then the old name's removal: a file that took the name meanwhile is never replaced.
    static func nameBack(_ moved: String, of finding: LibraryVerifier.Finding, in folder: String) -> Outcome {
        let from = folder + "/" + moved
        let to = folder + "/" + finding.name
        var outcome = Outcome(finding: finding, repaired: false, source: from, detail: "")
        do throws(ImportError) {
            try LibraryFolder(existing: folder).makeFolders(for: finding.name)
        } catch {
            outcome.detail = error.description
            return outcome
        }
        var done = SystemPath.withCString(from) { old in SystemPath.withCString(to) { link(old, $0) } } == 0
        if done {
            _ = SystemPath.withCString(from) { unlink($0) }
        } else if [EPERM, EOPNOTSUPP, EXDEV].contains(errno), access(to, F_OK) != 0 {
            // No hard links here (some FUSE and network file systems): a rename, the name checked free.
            done = SystemPath.withCString(from) { old in SystemPath.withCString(to) { rename(old, $0) } } == 0
        }
        guard done else {
            outcome.detail = "cannot name \(moved) back to \(finding.name): \(String(cString: strerror(errno)))"
            return outcome
        }
        // The folders the name left and took, each once (a rename in one folder flushes it once).
        for named in Set([from, to].map { path in path.lastIndex(of: "/").map { String(path[..<$0]) } ?? folder }) {
            FileCopier(folder: named).syncFolder()
        }
        outcome.repaired = true
        outcome.detail = "named back from \(moved), which holds its bytes (SHA-256 checked)"
        return outcome
    }

    /// Copies `file` again from the first of `sources` that still holds its recorded bytes.
    static func restore(
        _ file: StoredFile, of finding: LibraryVerifier.Finding, from sources: [String], in folder: String
    ) -> Outcome {
        var outcome = Outcome(
            finding: finding, repaired: false, source: nil,
            detail: "the catalog records no source for it; restore it from a backup")
        var tried: Set<String> = []
        for source in sources {
            // The path as given may be the resolved one by another spelling: read each file once.
            guard tried.insert(ImportSession.realPath(source) ?? source).inserted else { continue }
            guard let status = FileStatus(path: source), status.kind == .regular else {
                // A source that is gone says less than one that changed: it does not replace that.
                if outcome.source == nil {
                    outcome.source = source
                    outcome.detail = "its source \(source) is gone; restore the file from a backup or its card"
                }
                continue
            }
            outcome.source = source
            guard status.size == file.size else {
                outcome.detail =
                    "its source \(source) holds \(status.size) bytes now, the catalog records \(file.size); "
                    + "restore the file from a backup"
                continue
            }
            do throws(ImportError) {
                try LibraryFolder(existing: folder).makeFolders(for: file.name)
                let copier = FileCopier(folder: folder)
                let copied = try copier.copyToTemporary(source, progress: { _ in }, shouldStop: { false })
                guard copied.sha256 == file.sha256 else {
                    copied.temporary.discard()
                    outcome.detail =
                        "its source \(source) holds other bytes now (SHA-256 \(copied.sha256), the catalog "
                        + "records \(file.sha256)); restore the file from a backup"
                    continue
                }
                do throws(ImportError) {
                    try copier.replace(copied.temporary, named: file.name)
                } catch {
                    copied.temporary.discard()
                    throw error
                }
                outcome.repaired = true
                outcome.detail = "copied again from \(source), SHA-256 checked"
                return outcome
            } catch {
                outcome.detail = error.description
            }
        }
        return outcome
    }
}
