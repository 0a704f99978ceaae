import Foundation
import PickupStore

#if canImport(Glibc)
    import Glibc
#endif

/// The SHA-256s of the files of one upload batch, each file read at most once
/// whatever asks: a `{sha256}` key, the look for bytes already at their destination, and
/// the record of a finished upload. A library item's files come with theirs, checked
/// against the catalog.
struct FileDigests: Sendable {
    private var known: [String: String] = [:]

    /// A digest already computed for `path`.
    mutating func note(_ sha256: String, of path: String) { known[path] = sha256 }

    /// The digest of `path` if it has been computed; nil without reading the file.
    func known(_ path: String) -> String? { known[path] }

    /// The file's SHA-256, read once; nil when it cannot be read.
    mutating func sha256(of path: String) -> String? {
        if let found = known[path] { return found }
        guard case .success(let found) = FileHash.sha256(ofFileAt: path) else { return nil }
        known[path] = found.sha256
        return found.sha256
    }

    /// These digests with those of `paths` added, hashed on a thread of its own at low
    /// priority: the uploads (and a server on the same machine) go first, and the hashing
    /// takes the CPU they leave, which on any real link is nearly all of it.
    func adding(_ paths: [String]) async -> FileDigests {
        await withCheckedContinuation { continuation in
            let thread = Thread { [self] in
                #if os(Linux)
                    // On Linux a nice value is the calling thread's own.
                    setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
                #endif
                var digests = self
                for path in paths { _ = digests.sha256(of: path) }
                continuation.resume(returning: digests)
            }
            thread.qualityOfService = .utility
            thread.start()
        }
    }
}
