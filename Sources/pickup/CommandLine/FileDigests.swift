import PickupStore

/// The SHA-256s of the files of one `pickup upload` run, each file read at most once
/// whatever asks: a `{sha256}` key, the look for bytes already at their destination, and
/// the record of a finished upload. A library item's files come with theirs, checked
/// against the catalog.
struct FileDigests: Sendable {
    private var known: [String: String] = [:]

    /// A digest already computed for `path`.
    mutating func note(_ sha256: String, of path: String) { known[path] = sha256 }

    /// The file's SHA-256, read once; nil when it cannot be read.
    mutating func sha256(of path: String) -> String? {
        if let found = known[path] { return found }
        if Task.isCancelled { return nil }
        guard case .success(let found) = FileHash.sha256(ofFileAt: path) else { return nil }
        known[path] = found.sha256
        return found.sha256
    }
}
