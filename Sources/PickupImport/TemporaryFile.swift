#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A finished copy waiting for its name.
///
/// On Linux it has none: an unnamed file in the destination (`O_TMPFILE`),
/// held open until `FileCopier.place` links it to its readable name. A
/// process killed before that leaves nothing behind, not even a hidden file,
/// and there is one entry to add to the folder instead of three (create,
/// link, unlink). Elsewhere, or where the file system cannot, it is a hidden
/// `.pickup-partial-*` file, locked (`flock`) by the process writing it for as
/// long as it lives: the next session sweeps such a file away only when no one
/// holds its lock, so a second session on the same library (a share extension
/// beside the app, two imports at once) never removes a copy in flight.
///
/// Each one is either placed or discarded, once.
struct TemporaryFile: Sendable {
    enum Storage: Sendable {
        /// An open descriptor of an unnamed file.
        case unnamed(Int32)
        /// The path of a hidden file, and the descriptor that holds its lock.
        case named(String, lock: Int32)
    }

    let storage: Storage

    /// Drops the copy: closes the unnamed file (the system frees it) or removes the hidden one
    /// and lets go of its lock.
    func discard() {
        switch storage {
        case .unnamed(let descriptor): close(descriptor)
        case .named(let path, let lock):
            unlink(path)
            close(lock)
        }
    }

    /// Lets go of a hidden file's lock once it has been renamed to its readable name (nothing
    /// to remove).
    func release() {
        switch storage {
        case .unnamed(let descriptor): close(descriptor)
        case .named(_, let lock): close(lock)
        }
    }
}
