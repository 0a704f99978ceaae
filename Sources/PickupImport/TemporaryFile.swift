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
/// `.pickup-partial-*` file that the next session sweeps away if it is left.
///
/// Each one is either placed or discarded, once.
struct TemporaryFile: Sendable {
    enum Storage: Sendable {
        /// An open descriptor of an unnamed file.
        case unnamed(Int32)
        /// The path of a hidden file.
        case named(String)
    }

    let storage: Storage

    /// Drops the copy: closes the unnamed file (the system frees it) or removes the hidden one.
    func discard() {
        switch storage {
        case .unnamed(let descriptor): close(descriptor)
        case .named(let path): unlink(path)
        }
    }
}
