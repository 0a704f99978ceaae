import Pickup
import PickupStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Resolves the paths of the files one scan or one import reads, each folder once: a camera
/// roll is thousands of files in a few folders, and `realpath` asks the system about every
/// component of every path (`readlink` on each, `getcwd` for a relative one). A file that is
/// not itself a link is its resolved folder plus its name, known from one `lstat`, whose status
/// serves the catalog's source key too. A link, a `.` or `..` name, or a folder that cannot be
/// resolved goes through `realpath` whole, as before.
///
/// Folders are remembered for the life of this value only (one scan, one import run): a folder
/// moved or replaced by a link meanwhile is seen by the next one. On Apple's systems every path
/// goes through `realpath`, which also gives each name the case it has on a volume that
/// ignores case (what the catalog's earlier keys hold); imports there come a few at a time
/// from the picker.
final class SourcePaths: Sendable {
    /// Each folder as written in a path, with its links resolved (nil: it could not be).
    private let folders = LockedValue<[String: String?]>([:])

    init() {}

    /// `path` with its links resolved, and the status of the file it leads to (the link's
    /// target for a link); nil with `errno` set when it does not exist.
    func resolve(_ path: String) -> (path: String, status: FileStatus)? {
        #if canImport(Darwin)
            return whole(path)
        #else
            return byFolder(path)
        #endif
    }

    /// `path` as its resolved folder plus its name, where it is not itself a link.
    private func byFolder(_ path: String) -> (path: String, status: FileStatus)? {
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let name = slash.map { String(path[path.utf8.index(after: $0)...]) } ?? path
        guard !name.isEmpty, name != ".", name != "..",
            let own = FileStatus(path: path, followingLinks: false), own.kind != .symbolicLink
        else { return whole(path) }
        let folder = slash.map { $0 == path.utf8.startIndex ? "/" : String(path[..<$0]) } ?? "."
        guard let resolved = resolvedFolder(folder) else { return whole(path) }
        return (resolved == "/" ? "/" + name : resolved + "/" + name, own)
    }

    /// `folder` with its links resolved, from the first time it was asked for.
    private func resolvedFolder(_ folder: String) -> String? {
        if let known = folders.withValue({ $0[folder] }) { return known }
        let resolved = LibraryFolder.resolve(folder)
        folders.withValue { $0[folder] = resolved }
        return resolved
    }

    /// A path `realpath` resolves whole, and the status of what it leads to.
    private func whole(_ path: String) -> (path: String, status: FileStatus)? {
        guard let resolved = LibraryFolder.resolve(path), let status = FileStatus(path: resolved) else { return nil }
        return (resolved, status)
    }
}
