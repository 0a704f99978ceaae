import PickupStore

/// The catalog read a page at a time.
extension ImportCatalog {
    /// Up to `limit` items after `after` (from the first when nil), in the order of `items()`:
    /// a large library read a page at a time (a grid that scrolls), each page one range on the
    /// import order's index, an item never split between two. Each call reads the catalog as it
    /// is then; `readPages(of:into:_:)` reads every page in one snapshot.
    public func items(after: ImportedItem? = nil, limit: Int) throws(ImportError) -> [ImportedItem] {
        guard limit > 0 else { return [] }
        return try catalogCall {
            try withStatement(Query.itemsPage(duration: hasDuration)) { statement in
                try statement.bind([
                    .real(after?.importedAt ?? -Double.infinity), .text(after?.id ?? ""), .integer(Int64(limit)),
                ])
                return try readItems(statement, caching: false)
            }
        }
    }

    /// Every item, in the order of `items()`, handed to `update` a page of `limit` at a time,
    /// all read in one snapshot (an item imported meanwhile is not seen, and none is seen
    /// twice), with no more than a page in memory at once. `update` runs on the catalog, one
    /// page after another; `initial` is what it adds to, and what it made is returned.
    public func readPages<Result: Sendable>(
        of limit: Int, into initial: Result, _ update: @Sendable (inout Result, [ImportedItem]) -> Void
    ) throws(ImportError) -> Result {
        var result = initial
        let limit = max(1, limit)
        try reading { () throws(ImportError) in
            var last: ImportedItem?
            var handed = 0
            while true {
                let page = try items(after: last, limit: limit)
                guard ImportCatalog.ascending(page, after: last) else {
                    // Only a damaged catalog (an import time that is not a number, read as 0)
                    // orders its rows so that pages would never end: the rest in one read.
                    update(&result, Array(try items().dropFirst(handed)))
                    return
                }
                update(&result, page)
                handed += page.count
                last = page.last
                if page.count < limit { return }
            }
        }
        return result
    }

    /// Whether each of `page` comes after the one before it, the first after `after`, in the
    /// catalog's order: the import time, then the id's bytes.
    static func ascending(_ page: [ImportedItem], after: ImportedItem?) -> Bool {
        var previous = after
        for item in page {
            if let earlier = previous {
                let later =
                    item.importedAt != earlier.importedAt
                    ? item.importedAt > earlier.importedAt : earlier.id.utf8.lexicographicallyPrecedes(item.id.utf8)
                guard later else { return false }
            }
            previous = item
        }
        return true
    }
}
