import PickupStore

extension ImportCatalog {
    /// Where each stored file of the item `id` was copied from: the source's resolved path where
    /// the catalog kept it (`files.source_path`), else the path as it was given, which may be
    /// relative to the folder the import ran in. Read only to repair a library, so each call
    /// prepares its own statement.
    func recordedSources(ofItem id: String) throws(ImportError) -> [StoredFile.Role: [String]] {
        let sql =
            hasSourcePathColumn
            ? "SELECT role, source_path, original_path FROM files WHERE item_id = ?1"
            : "SELECT role, NULL, original_path FROM files WHERE item_id = ?1"
        do {
            let statement = try database.prepare(sql)
            try statement.bind([.text(id)])
            var sources: [StoredFile.Role: [String]] = [:]
            while try statement.step() {
                guard let role = statement.text(0).flatMap(StoredFile.Role.init(rawValue:)) else { continue }
                var paths: [String] = []
                for column in [Int32(1), 2] {
                    if let path = statement.text(column), !path.isEmpty, !paths.contains(path) { paths.append(path) }
                }
                sources[role] = paths
            }
            return sources
        } catch {
            throw ImportCatalog.explain(error, opening: false, path: folder + "/.pickup/catalog.sqlite")
        }
    }

    private var hasSourcePathColumn: Bool {
        (try? ImportCatalog.hasColumn("source_path", in: "files", of: database)) ?? false
    }
}
