import Foundation
import Pickup
import PickupStore

/// Checks that a library's files are what its catalog says: every stored file there, with
/// its recorded size and SHA-256 (all its bytes read), and no file in the folder that the
/// catalog does not know. It reads; it changes nothing.
public struct LibraryVerifier: Sendable {
    /// The library folder.
    public let folder: String
    /// Its catalog.
    public let catalog: ImportCatalog

    /// A verifier of the library in `folder`, described by `catalog`.
    public init(folder: String, catalog: ImportCatalog) {
        self.folder = folder
        self.catalog = catalog
    }

    /// What is wrong with one file.
    public enum Problem: String, Sendable, Hashable, Codable {
        /// The catalog names it; the folder has no such file.
        case missing
        /// There, but its size or SHA-256 is not what the catalog records.
        case damaged
        /// There, but it cannot be read.
        case unreadable
        /// In the folder, not in the catalog.
        case unknown
        /// The catalog names a file outside the library.
        case outsideLibrary
    }

    /// One problem found, with the file it concerns.
    public struct Finding: Sendable, Hashable {
        /// The item it belongs to (nil for an unknown file).
        public var itemID: String?
        /// The file's name in the library.
        public var name: String
        /// What is wrong.
        public var problem: Problem
        /// What was found, in words.
        public var detail: String
        /// A missing file and an unknown one that holds its bytes (the same size and SHA-256:
        /// moved or renamed in the library by hand): each names the other, and `LibraryRepair`
        /// names the file back. Nil for every other finding.
        public var pairedWith: String? = nil
        /// An unknown file that holds the same bytes as a stored file the catalog names (a copy
        /// made by hand, or one left by a rename after the file was imported again): that
        /// file's name. The library keeps those bytes; the copy can go.
        public var copyOf: String? = nil
    }

    /// What a verification read and found.
    public struct Report: Sendable {
        /// Items checked.
        public var items = 0
        /// Files checked.
        public var files = 0
        /// Bytes read back.
        public var bytesRead: Int64 = 0
        /// The problems found (none: the library is whole).
        public var findings: [Finding] = []
        /// Whether nothing is wrong.
        public var isClean: Bool { findings.isEmpty }
    }

    /// Files read at once. A disk answers several reads in flight faster than the same reads
    /// one after another (a library larger than the page cache is read from the disk), and
    /// two cores hash twice the bytes.
    static let readers = 4

    /// Reads every stored file, a few at a time; `progress(bytesRead, totalBytes)` as it goes
    /// (from the readers' threads, one call at a time). The findings come in the catalog's order.
    public func verify(
        progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in }
    ) async throws(ImportError)
        -> Report
    {
        let items = try await catalog.items()
        let folder = self.folder
        return try await ImportSession.onThread { () throws(ImportError) -> Report in
            var report = Report()
            report.items = items.count
            let files = items.flatMap { item in item.files.map { (itemID: item.id, file: $0) } }
            report.files = files.count
            let total = files.reduce(Int64(0)) { $0 + $1.file.size }
            let checks = LibraryVerifier.check(files, in: folder, total: total, progress: progress)
            report.bytesRead = checks.bytesRead
            report.findings = checks.findings
            let known = Set(files.map(\.file.name))
            for name in LibraryVerifier.storedNames(in: folder) where !known.contains(name) {
                report.findings.append(
                    Finding(itemID: nil, name: name, problem: .unknown, detail: "not in the catalog"))
            }
            LibraryVerifier.pairRenamed(&report.findings, files: files.map(\.file), in: folder)
            return report
        }
    }

    /// Pairs each missing file with an unknown one that holds its bytes, then names the stored
    /// file each other unknown one is a copy of: only an unknown file of a stored one's size is
    /// read, each at most once.
    static func pairRenamed(_ findings: inout [Finding], files: [StoredFile], in folder: String) {
        let missing = findings.indices.filter { findings[$0].problem == .missing }
        var bySize: [Int64: [Int]] = [:]
        for index in findings.indices where findings[index].problem == .unknown {
            if let status = FileStatus(path: folder + "/" + findings[index].name, followingLinks: false),
                status.kind == .regular
            {
                bySize[status.size, default: []].append(index)
            }
        }
        guard !bySize.isEmpty else { return }
        let recorded = Dictionary(files.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var digests: [Int: String] = [:]
        func digest(_ candidate: Int) -> String {
            if let known = digests[candidate] { return known }
            let found = (try? FileHash.sha256(ofFileAt: folder + "/" + findings[candidate].name).get())?.sha256 ?? ""
            digests[candidate] = found
            return found
        }
        for index in missing {
            guard let file = recorded[findings[index].name] else { continue }
            for candidate in bySize[file.size] ?? [] where findings[candidate].pairedWith == nil {
                guard digest(candidate) == file.sha256 else { continue }
                let moved = findings[candidate].name
                findings[index].pairedWith = moved
                findings[index].detail =
                    "no such file; \(moved), not in the catalog, holds its bytes (moved or renamed by hand?)"
                findings[candidate].pairedWith = findings[index].name
                findings[candidate].detail =
                    "not in the catalog; it holds the bytes of \(findings[index].name)"
                    + (findings[index].itemID.map { " (item \($0))" } ?? "") + ", which is missing"
                break
            }
        }
        // The other unknown files: a copy of a stored file that is there?
        // Not one found missing, damaged or unreadable: a copy of that is not one to delete.
        let troubled = Set(findings.filter { $0.problem != .unknown }.map(\.name))
        var stored: [Int64: [StoredFile]] = [:]
        for file in files where !troubled.contains(file.name) { stored[file.size, default: []].append(file) }
        for (size, candidates) in bySize {
            guard let same = stored[size] else { continue }
            for candidate in candidates where findings[candidate].pairedWith == nil {
                guard let original = same.first(where: { $0.sha256 == digest(candidate) }) else { continue }
                findings[candidate].copyOf = original.name
                findings[candidate].detail =
                    "not in the catalog; a copy of \(original.name), which the library holds: it can be deleted"
            }
        }
    }

    /// Reads and checks `files` on `readers` threads, each taking the next file not yet taken
    /// (neighbours in the catalog lie near each other on the disk); the findings in `files`' order.
    private static func check(
        _ files: [(itemID: String, file: StoredFile)], in folder: String, total: Int64,
        progress: @escaping @Sendable (Int64, Int64) -> Void
    ) -> (bytesRead: Int64, findings: [Finding]) {
        let state = LockedValue(
            (next: 0, bytesRead: Int64(0), shown: Int64(0), findings: [(position: Int, finding: Finding)]()))
        let done = DispatchSemaphore(value: 0)
        let readers = min(LibraryVerifier.readers, max(1, files.count))
        for _ in 0..<readers {
            // Threads of their own: each blocks on the disk, and a pool might run fewer at once.
            let reader = Thread {
                while true {
                    let position: Int? = state.withValue { state in
                        guard state.next < files.count else { return nil }
                        defer { state.next += 1 }
                        return state.next
                    }
                    guard let position else { break }
                    let (itemID, file) = files[position]
                    var counted: Int64 = 0
                    let finding = LibraryVerifier.check(file, of: itemID, in: folder) { read in
                        let step = read - counted
                        counted = read
                        state.withValue { state in
                            state.shown += step
                            progress(state.shown, total)
                        }
                    }
                    state.withValue { state in
                        state.bytesRead += finding.bytesRead
                        if let problem = finding.problem { state.findings.append((position, problem)) }
                    }
                }
                done.signal()
            }
            reader.start()
        }
        for _ in 0..<readers { done.wait() }
        let result = state.current
        return (result.bytesRead, result.findings.sorted { $0.position < $1.position }.map(\.finding))
    }

    /// One stored file read and compared with what the catalog records: the bytes read, and
    /// what is wrong, if anything.
    private static func check(
        _ file: StoredFile, of itemID: String, in folder: String, progress: (Int64) -> Void
    ) -> (bytesRead: Int64, problem: Finding?) {
        guard (try? ImportCatalog.checkName(file.name)) != nil else {
            return (
                0,
                Finding(
                    itemID: itemID, name: file.name, problem: .outsideLibrary,
                    detail: "the catalog names a file outside the library; it was not read")
            )
        }
        func finding(_ problem: Problem, _ detail: String) -> Finding {
            Finding(itemID: itemID, name: file.name, problem: problem, detail: detail)
        }
        switch FileHash.sha256(ofFileAt: folder + "/" + file.name, progress: progress) {
        case .success(let found):
            if found.size != file.size {
                return (found.size, finding(.damaged, "\(found.size) bytes, the catalog records \(file.size)"))
            }
            if found.sha256 != file.sha256 {
                return (
                    found.size,
                    finding(.damaged, "its SHA-256 is \(found.sha256), the catalog records \(file.sha256)")
                )
            }
            return (found.size, nil)
        case .failure(.system(let code)) where code == ENOENT:
            return (0, finding(.missing, "no such file"))
        case .failure(.system(let code)):
            return (0, finding(.unreadable, String(cString: strerror(code))))
        case .failure(.notRegular):
            return (0, finding(.damaged, "not a regular file"))
        }
    }

    /// Every file in the library, below any of its folders, as a path relative to it (`2024/05/a.jpg`,
    /// `2024/unknown.jpg`, `other/x.txt`): what is not a folder is listed (a link too, not
    /// followed), hidden entries (the catalog's own `.pickup`) left out, at most 32 folders deep.
    static func storedNames(in folder: String) -> [String] {
        var found: [String] = []
        func walk(_ relative: String, depthLeft: Int) {
            let path = relative.isEmpty ? folder : folder + "/" + relative
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                let inner = relative.isEmpty ? name : relative + "/" + name
                let kind = FileStatus(path: folder + "/" + inner, followingLinks: false)?.kind
                if kind == .directory {
                    if depthLeft > 0 { walk(inner, depthLeft: depthLeft - 1) }
                } else if kind != nil {
                    found.append(inner)
                }
            }
        }
        walk("", depthLeft: 32)
        return found
    }
}
