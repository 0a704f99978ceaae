import PickupStore

/// What importing a request would do, found without writing anything: the same checks, in the
/// same order, as the import makes (``ImportSession``), so that a dry run says what the import
/// will then do.
public enum ImportPreview: Sendable, Equatable {
    /// Nothing like it is in the library: its files would be copied.
    case wouldImport
    /// Already there: imported from this very file (its resolved path, size and modification
    /// time, however the path is spelled), or another file with the same content (SHA-256).
    case alreadyThere(ImportedItem)
    /// In the catalog with the same content, but a stored file is missing or damaged: the
    /// import would copy it back to its recorded name.
    case wouldRestore(ImportedItem)

    /// The item the library already holds, if any.
    public var item: ImportedItem? {
        switch self {
        case .wouldImport: return nil
        case .alreadyThere(let item), .wouldRestore(let item): return item
        }
    }
}

extension ImportCatalog {
    /// What importing `request` into this catalog's library would do. A file the catalog does
    /// not know by its source is read once, to compare its content (as the import does after
    /// copying it); the reading happens off the catalog, which keeps answering meanwhile.
    public nonisolated func preview(_ request: ImportRequest) async throws(ImportError) -> ImportPreview {
        if let known = try await item(importedFrom: request.path) { return .alreadyThere(known) }
        var hashes: [String] = []
        for part in request.parts {
            switch FileHash.sha256(ofFileAt: part.path) {
            case .success(let found): hashes.append(found.sha256)
            case .failure: throw ImportError(.sourceUnreadable, "the file cannot be read", path: part.path)
            }
        }
        guard let primary = hashes.first else { return .wouldImport }
        if let same = try await item(withSHA256: primary) { return .alreadyThere(same) }
        if let recorded = try await recordedItem(withSHA256: primary),
            recorded.files.map(\.sha256) == hashes
        {
            return .wouldRestore(recorded)
        }
        return .wouldImport
    }
}
