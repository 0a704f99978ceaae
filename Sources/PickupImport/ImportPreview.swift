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
    /// In the catalog with the same content, but without a file the request brings (a Live
    /// Photo's still imported alone, picked again with its movie): the import would add that
    /// file to the item.
    case wouldComplete(ImportedItem)
    /// The same content as the request at this index of the same run, which would be imported
    /// first: the import would then find this one already there.
    case sameAsEarlier(Int)

    /// The item the library already holds, if any.
    public var item: ImportedItem? {
        switch self {
        case .wouldImport, .sameAsEarlier: return nil
        case .alreadyThere(let item), .wouldRestore(let item), .wouldComplete(let item): return item
        }
    }

    /// What importing `requests` in one run would do, request by request: as ``ImportCatalog/preview(_:)``
    /// finds against the library (`catalog`; `nil` for a library not made yet), and within the run,
    /// a request whose content an earlier one would import is ``sameAsEarlier(_:)``, as the import
    /// then finds it already there.
    /// With `rehash`, every source is read and compared by content, as ``ImportOptions/rehash`` imports.
    public static func run(
        _ requests: [ImportRequest], catalog: ImportCatalog?, rehash: Bool = false
    ) async -> [Result<ImportPreview, ImportError>] {
        var importedFirst: [String: Int] = [:]  // a would-be-imported request's SHA-256, to its index
        var answers: [Result<ImportPreview, ImportError>] = []
        for (index, request) in requests.enumerated() {
            do throws(ImportError) {
                var answer = ImportPreview.wouldImport
                var hashes: [String]?
                if let catalog {
                    (answer, hashes) = try await catalog.previewWithHashes(request, bySource: !rehash)
                }
                if case .wouldImport = answer {
                    let read: [String]
                    if let hashes { read = hashes } else { read = try ImportPreview.hashes(of: request) }
                    if let primary = read.first {
                        if let earlier = importedFirst[primary] {
                            answer = .sameAsEarlier(earlier)
                        } else {
                            importedFirst[primary] = index
                        }
                    }
                }
                answers.append(.success(answer))
            } catch {
                answers.append(.failure(error))
            }
        }
        return answers
    }

    /// The SHA-256 of each of the request's files, in order.
    static func hashes(of request: ImportRequest) throws(ImportError) -> [String] {
        var hashes: [String] = []
        for part in request.parts {
            switch FileHash.sha256(ofFileAt: part.path) {
            case .success(let found): hashes.append(found.sha256)
            case .failure: throw ImportError(.sourceUnreadable, "the file cannot be read", path: part.path)
            }
        }
        return hashes
    }
}

extension ImportCatalog {
    /// What importing `request` into this catalog's library would do. A file the catalog does
    /// not know by its source is read once, to compare its content (as the import does after
    /// copying it); the reading happens off the catalog, which keeps answering meanwhile.
    public nonisolated func preview(_ request: ImportRequest) async throws(ImportError) -> ImportPreview {
        try await previewWithHashes(request).preview
    }

    /// The preview, and the request's hashes when it read them (`nil` when known by its source).
    nonisolated func previewWithHashes(
        _ request: ImportRequest, bySource: Bool = true
    ) async throws(ImportError) -> (preview: ImportPreview, hashes: [String]?) {
        let roles = request.parts.map(\.role)
        if bySource, let known = try await item(importedFrom: request.path), !known.lacks(any: roles) {
            return (.alreadyThere(known), nil)
        }
        let hashes = try ImportPreview.hashes(of: request)
        guard let primary = hashes.first else { return (.wouldImport, hashes) }
        let loneMovie = request.parts.count == 1 && request.info.livePhotoRole == .movie
        let movies = loneMovie ? request.info.contentIdentifier.map { [primary: $0] } ?? [:] : [:]
        if let recorded = try await recorded(withSHA256: [primary], movies: movies)[primary] {
            if recorded.role != .primary {
                // Another file of an item (a Live Photo's movie): a lone file is that item's, as
                // the import finds, or completes the still it belongs with; an item of several
                // files is a new one.
                guard hashes.count == 1, let file = recorded.file else {
                    return (hashes.count == 1 ? .wouldComplete(recorded.item) : .wouldImport, hashes)
                }
                let there = recorded.fileIntact && (bySource || ImportSession.storedBytesIntact(file, in: folder))
                return (there ? .alreadyThere(recorded.item) : .wouldRestore(recorded.item), hashes)
            }
            // Read by content when asked (`rehash`), as the import then reads them.
            let intact =
                recorded.intact && (bySource || ImportSession.storedBytesIntact(recorded.item, in: folder))
            if intact, recorded.item.isCompleted(by: roles, hashes: hashes) {
                return (.wouldComplete(recorded.item), hashes)
            }
            if intact { return (.alreadyThere(recorded.item), hashes) }
            if recorded.restored(by: hashes) { return (.wouldRestore(recorded.item), hashes) }
        }
        return (.wouldImport, hashes)
    }
}
