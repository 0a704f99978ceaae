import PickupStore

/// The catalog read a page at a time.
extension ImportCatalog {
    /// Up to `limit` items after `after` (from the first when nil), in the order of `items()`:
    /// a large library read a page at a time (a grid that scrolls, a listing that prints as it
    /// goes), each page one range on the import order's index, an item never split between two.
    public func items(after: ImportedItem? = nil, limit: Int) throws(ImportError) -> [ImportedItem] {
        guard limit > 0 else { return [] }
        return try catalogCall {
            try withStatement(Query.itemsPage(duration: hasDuration)) { statement in
                try statement.bind([
                    .real(after?.importedAt ?? -Double.greatestFiniteMagnitude), .text(after?.id ?? ""),
                    .integer(Int64(limit)),
                ])
                return try readItems(statement)
            }
        }
    }
}
