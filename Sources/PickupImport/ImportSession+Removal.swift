extension ImportSession {
    /// Removes an item from the library: its catalog row, then its files (the still, a Live
    /// Photo's movie, edits, the thumbnail). Call it once an item's upload has finished and the
    /// app no longer needs the copy; the library then takes no more room for it. Returns the
    /// item removed, or nil when the library did not hold it.
    @discardableResult
    public func remove(_ item: ImportedItem) async throws(ImportError) -> ImportedItem? {
        try await catalog.remove(id: item.id)
    }
}
