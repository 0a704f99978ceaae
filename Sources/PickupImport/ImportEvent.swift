/// What an import reports as it goes, in order, on an `AsyncStream`.
public enum ImportEvent: Sendable {
    /// The whole run: how many items and bytes (sources' sizes).
    case planned(items: Int, bytes: Int64)
    /// An item began copying.
    case started(index: Int, name: String, bytes: Int64)
    /// Bytes of an item copied so far.
    case progress(index: Int, bytes: Int64, of: Int64)
    /// An item's thumbnail could not be made (the item itself is imported).
    case thumbnailFailed(index: Int, message: String)
    /// An item is done: imported, reused, or failed.
    case finished(index: Int, result: ImportResult)
    /// Every item is done (or cancelled). `imported`: the items whose files were copied in (new,
    /// restored or completed); `failed`: those that failed or were cancelled.
    case completed(imported: Int, reused: Int, failed: Int)
}

/// How one item ended.
public enum ImportResult: Sendable {
    /// Copied into the destination and recorded in the catalog.
    case imported(ImportedItem)
    /// Already in the destination (same source file, or same content): kept, not copied again.
    case reused(ImportedItem)
    /// In the catalog, but a stored file was missing or damaged: copied again from the source
    /// to its recorded name, checked against its recorded SHA-256.
    case restored(ImportedItem)
    /// In the catalog, but without a file this source brings: a Live Photo whose still was
    /// imported alone, picked again with its movie. The files it lacked were copied beside its
    /// own and recorded with it; `added` names them as stored. Its other files were not copied.
    case completed(ImportedItem, added: [String])
    /// Not imported; the error says why and what to do.
    case failed(ImportError)

    /// The item, unless it failed.
    public var item: ImportedItem? {
        switch self {
        case .imported(let item), .reused(let item), .restored(let item), .completed(let item, _): return item
        case .failed: return nil
        }
    }

    /// For a completed item, the names of the files added to it.
    public var added: [String]? {
        if case .completed(_, let added) = self { return added }
        return nil
    }

    /// The error, if it failed.
    public var error: ImportError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
