import Pickup
import PickupStore

/// Finding items by their ids: an id or a prefix of one, by a range on the primary key.
extension ImportCatalog {
    /// The item with this identifier (or a unique prefix of it): a range on the primary key.
    public func item(id: String) throws(ImportError) -> ImportedItem? {
        let found = try ids(withPrefix: id, limit: 2)
        guard found.count == 1 else { return nil }  // none, or an ambiguous prefix
        return try item(exactID: found[0])
    }

    /// The items whose id begins with `prefix`, in the ids' order, at most `limit`: what a
    /// prefix of several fits. A range on the primary key, whatever the library's size.
    public func items(idPrefix prefix: String, limit: Int) throws(ImportError) -> [ImportedItem] {
        var items: [ImportedItem] = []
        for id in try ids(withPrefix: prefix, limit: limit) {
            if let item = try item(exactID: id) { items.append(item) }
        }
        return items
    }

    /// The item one of whose files is stored under `name` (its path in the library folder, as
    /// ``StoredFile/name`` gives it), by the index on stored names; nil when none is.
    public func item(storedAs name: String) throws(ImportError) -> ImportedItem? {
        try item(found: Query.itemWithStoredName, by: name)
    }

    /// The item whose id `query` gives for `value` (its first column of its first row).
    func item(found query: String, by value: String) throws(ImportError) -> ImportedItem? {
        let id = try catalogCall {
            try withStatement(query) { statement in
                try statement.bind([.text(value)])
                return try statement.step() ? statement.text(0) : nil
            }
        }
        guard let id else { return nil }
        return try item(exactID: id)
    }

    /// Up to `limit` ids that begin with `prefix` (none for an empty one), in order.
    private func ids(withPrefix prefix: String, limit: Int) throws(ImportError) -> [String] {
        guard !prefix.isEmpty, limit > 0 else { return [] }
        return try catalogCall { () throws -> [String] in
            // A prefix compared as text: the user's words never become a LIKE pattern.
            let end = ImportCatalog.upperBound(ofPrefix: prefix)
            return try withStatement(end == nil ? Query.idsFromPrefix : Query.idsWithPrefix) { statement in
                try statement.bind([.text(prefix), end.map { .text($0) } ?? .null, .integer(Int64(limit))])
                var ids: [String] = []
                while try statement.step() {
                    if let id = statement.text(0) { ids.append(id) }
                }
                return ids
            }
        }
    }

    /// The Live Photo that took over, as its movie, the file of the video item `id` (or of a
    /// unique prefix of it); nil when there is none or the prefix fits several.
    ///
    /// A video item's id is the first 12 hex digits of its file's SHA-256, and the file keeps
    /// that hash inside the Live Photo, so an id printed before the Live Photo came still leads
    /// to the file.
    public func livePhoto(formerVideoID id: String) throws(ImportError) -> ImportedItem? {
        guard !id.isEmpty, id.count <= 64, id.allSatisfy(\.isHexDigit), id == id.lowercased(),
            let end = ImportCatalog.upperBound(ofPrefix: id)
        else { return nil }
        let found = try catalogCall { () throws -> String? in
            try withStatement(Query.livePhotosWithMovieHash) { statement in
                try statement.bind([.text(id), .text(end)])
                guard try statement.step(), let found = statement.text(0) else { return nil }
                return try statement.step() ? nil : found  // nil: a prefix of several
            }
        }
        guard let found else { return nil }
        return try item(exactID: found)
    }

    /// The item with this identifier (or a unique prefix of it), else the Live Photo that took
    /// over the file of the video item it named (`livePhoto(formerVideoID:)`), with whether
    /// it did: what a person's id leads to, however long ago it was printed.
    public func item(idOrFormerVideo id: String) throws(ImportError) -> (item: ImportedItem, tookOver: Bool)? {
        if let found = try item(id: id) { return (found, false) }
        guard let live = try livePhoto(formerVideoID: id) else { return nil }
        return (live, true)
    }

    /// The item with exactly this identifier, found by its primary key.
    func item(exactID id: String) throws(ImportError) -> ImportedItem? {
        try catalogCall {
            try withStatement(Query.itemByID(duration: hasDuration)) { statement in
                try statement.bind([.text(id)])
                return try readItems(statement).first
            }
        }
    }

    /// The smallest text greater than every text that starts with `prefix` (its last character
    /// one higher), or nil when there is none: the end of the range a prefix covers, in
    /// SQLite's byte order (UTF-8 keeps the characters' order).
    static func upperBound(ofPrefix prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }  // past the surrogates, which are not characters
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars)
                return text
            }
        }
        return nil
    }
}
