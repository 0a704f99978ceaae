import Pickup
import PickupStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A library's folder and what lives in it: the stored files under their names, the hidden
/// `.pickup` folder (catalog, thumbnails), the subfolders the layout makes, and the temporary
/// files copies are made in, of which each session sweeps only those no one is writing.
public struct LibraryFolder: Sendable, Hashable {
    /// The folder, as an absolute path without symbolic links.
    public let path: String

    /// Opens the folder `path` to import into: made (with its parents) when missing, resolved,
    /// and swept of the temporaries a killed import left behind.
    public init(opening path: String) throws(ImportError) {
        try LibraryFolder.makeFolders(path)
        guard let resolved = LibraryFolder.resolve(path) else {
            throw ImportError(.destinationUnwritable, "cannot resolve the destination folder", path: path)
        }
        self.path = resolved
        FileCopier(folder: resolved).sweepTemporaries()
    }

    /// The folder `path` as it is, for reading (a dry run, a listing): resolved when it
    /// exists, else as given; nothing is made or swept.
    public init(existing path: String) {
        self.path = LibraryFolder.resolve(path) ?? path
    }

    /// The hidden folder of the catalog and thumbnails.
    public var hiddenFolder: String { path + "/.pickup" }
    /// The catalog's database.
    public var catalogPath: String { hiddenFolder + "/catalog.sqlite" }
    /// Where items' thumbnails are kept.
    public var thumbnailsFolder: String { hiddenFolder + "/thumbnails" }

    /// Where a stored file (by its name in the catalog) is, as an absolute path.
    public func path(of name: String) -> String { path + "/" + name }

    /// Whether `other` (resolved) lies inside this folder: a library's own files are never
    /// imported into it again.
    public func contains(_ other: String) -> Bool {
        guard let resolved = LibraryFolder.resolve(other) else { return false }
        return contains(resolved: resolved)
    }

    /// Whether a path whose links are already resolved lies inside this folder.
    func contains(resolved: String) -> Bool { resolved.hasPrefix(path + "/") }

    /// Makes the folders a stored name lies in (`2024/05/` of `2024/05/IMG_0001.HEIC`), each
    /// made durable in its parent; nothing for a name in the folder itself.
    func makeFolders(for name: String) throws(ImportError) {
        var parent = path
        for part in name.split(separator: "/").dropLast() {
            let folder = parent + "/" + part
            if mkdir(folder, 0o755) == 0 {
                FileCopier(folder: parent).syncFolder()
            } else if errno != EEXIST {
                throw ImportError.writing(folder, errno: errno)
            }
            parent = folder
        }
    }

    /// Makes `path` and its parents where missing.
    static func makeFolders(_ path: String) throws(ImportError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0, errno != EEXIST {
                throw ImportError.writing(current, errno: errno)
            }
        }
    }

    /// A path with every symbolic link and `..` resolved, or nil when it does not exist.
    static func resolve(_ path: String) -> String? { SystemPath.resolved(path) }
}
