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

    /// Reads every stored file; `progress(bytesRead, totalBytes)` as it goes.
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
            let total = items.reduce(Int64(0)) { $0 + $1.files.reduce(0) { $0 + $1.size } }
            var known: Set<String> = []
            for item in items {
                for file in item.files {
                    report.files += 1
                    known.insert(file.name)
                    guard (try? ImportCatalog.checkName(file.name)) != nil else {
                        report.findings.append(
                            Finding(
                                itemID: item.id, name: file.name, problem: .outsideLibrary,
                                detail: "the catalog names a file outside the library; it was not read"))
                        continue
                    }
                    let before = report.bytesRead
                    let result = FileHash.sha256(ofFileAt: folder + "/" + file.name) { progress(before + $0, total) }
                    switch result {
                    case .success(let found):
                        report.bytesRead += found.size
                        if found.size != file.size || found.sha256 != file.sha256 {
                            report.findings.append(
                                Finding(
                                    itemID: item.id, name: file.name, problem: .damaged,
                                    detail: found.size != file.size
                                        ? "\(found.size) bytes, the catalog records \(file.size)"
                                        : "its SHA-256 is \(found.sha256), the catalog records \(file.sha256)"))
                        }
                    case .failure(.system(let code)) where code == ENOENT:
                        report.findings.append(
                            Finding(itemID: item.id, name: file.name, problem: .missing, detail: "no such file"))
                    case .failure(.system(let code)):
                        report.findings.append(
                            Finding(
                                itemID: item.id, name: file.name, problem: .unreadable,
                                detail: String(cString: strerror(code))))
                    case .failure(.notRegular):
                        report.findings.append(
                            Finding(
                                itemID: item.id, name: file.name, problem: .damaged, detail: "not a regular file"))
                    }
                }
            }
            for name in LibraryVerifier.storedNames(in: folder) where !known.contains(name) {
                report.findings.append(
                    Finding(itemID: nil, name: name, problem: .unknown, detail: "not in the catalog"))
            }
            return report
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
