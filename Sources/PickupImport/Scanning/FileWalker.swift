import Pickup
import PickupStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Expands the paths given on the command line into files: a file stays
/// itself, a folder gives the files in it (and below it, when recursive),
/// sorted by name, hidden files skipped, each folder visited once even
/// through symbolic-link loops. A walk stays inside the folder named: a
/// symbolic link that leads out of it is not followed unless `followLinks`.
/// FIFOs, devices and sockets are never opened. Each file is given once, however many of the
/// paths lead to it (a folder named and a file in it, or `find`'s list beside the folder).
public struct FileWalker {
    /// Whether folders below the folders named are walked too.
    public var recursive: Bool
    /// Whether symbolic links that lead out of the folders named are followed.
    public var followLinks = false
    /// Which files are taken: those found in a folder by their path below it, a file named by
    /// its path as given.
    public var selection = FileSelection.everything

    /// A walker; folders named give their own files, or everything below with `recursive`.
    public init(recursive: Bool, followLinks: Bool = false, selection: FileSelection = .everything) {
        self.recursive = recursive
        self.followLinks = followLinks
        self.selection = selection
    }

    /// What the walk found at one path.
    public enum Entry {
        /// A regular file, and which file its path led to when the walk saw it: open it with
        /// that identity expected, so that a file swapped meanwhile (for a link) is refused.
        case file(String, FileIdentity)
        /// A path that could not be listed, and why.
        case problem(path: String, message: String)
        /// A path passed over on purpose (a link out of the folder named), and why.
        case leftAlone(path: String, reason: String)
        /// A file named itself that the selection does not take (`--exclude`, say).
        case notSelected(String)
        /// How many files found in `folder` the selection does not take (only a count: a pattern
        /// that picks 10 photos from 10,000 files would otherwise list 9,990 lines).
        case notTaken(folder: String, count: Int)
    }

    /// The files the paths stand for, in order, with what could not be read or was passed over.
    public func expand(_ paths: [String]) -> [Entry] {
        var entries: [Entry] = []
        var visited: Set<[UInt64]> = []
        for path in paths {
            guard let status = FileStatus(path: path) else {
                entries.append(.problem(path: path, message: "cannot read: " + FileWalker.errorText(errno)))
                continue
            }
            switch status.kind {
            case .directory:
                let root = LibraryFolder.resolve(path) ?? path
                let top = path.hasSuffix("/") ? path : path + "/"
                walk(path, root: root, top: top, depthLeft: recursive ? 64 : 1, visited: &visited, into: &entries)
            case .regular where selection.takes(path):
                entries.append(.file(path, status.identity))
            case .regular:
                entries.append(.notSelected(path))
            default:
                entries.append(.problem(path: path, message: FileWalker.notAFile(status.kind)))
            }
        }
        var given: Set<FileIdentity> = []
        return entries.filter { entry in
            guard case .file(_, let identity) = entry else { return true }
            return given.insert(identity).inserted
        }
    }

    /// What to do about a path the walk could not read: for a FIFO, a device or a socket, to name
    /// the file itself (it is there, but never read); nil when the usual hint fits (it is gone, or
    /// may not be read).
    public static func hint(forProblemAt path: String) -> String? {
        guard let kind = FileStatus(path: path)?.kind, kind != .regular, kind != .directory else { return nil }
        return "Name the photo or video itself: a pipe, device or socket is never read."
    }

    /// Why a path that is not a regular file or a folder is not read.
    static func notAFile(_ kind: FileStatus.Kind) -> String {
        let what: String
        switch kind {
        case .fifo: what = "a FIFO (named pipe)"
        case .device: what = "a device"
        case .socket: what = "a socket"
        default: what = "not a regular file"
        }
        return "this is \(what), not a file: Pickup reads regular files only, and never opens it"
    }

    /// Walks `folder`, below the folder named `top` (as given, with a slash) that resolves to `root`.
    private func walk(
        _ folder: String, root: String, top: String, depthLeft: Int, visited: inout Set<[UInt64]>,
        into entries: inout [Entry]
    ) {
        guard let status = FileStatus(path: folder) else { return }
        let key = [status.device, status.inode]
        guard !visited.contains(key) else { return }  // a link back up: already walked
        visited.insert(key)
        guard let directory = SystemPath.withCString(folder, { opendir($0) }) else {
            entries.append(.problem(path: folder, message: "cannot list the folder: " + FileWalker.errorText(errno)))
            return
        }
        var names: [String] = []
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        while let item = readdir(directory) {
            // A name that is not UTF-8 (Latin-1 from an old camera) is kept as `SystemPath` spells it.
            let name = withUnsafePointer(to: item.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) {
                    SystemPath.string(cString: $0)
                }
            }
            if name.hasPrefix(".") { continue }
            names.append(name)
        }
        closedir(directory)
        names.sort()
        // An iPhone's edits (IMG_0001.AAE) go with the photo they edit: taken when it is, unless
        // an --exclude pattern names them, as import and upload keep the two together.
        let takenStems =
            selection.takesEverything
            ? []
            : Set(
                names.filter {
                    !MediaNames.namedAsEdits($0) && selection.takes(String((base + $0).dropFirst(top.count)))
                }
                .map(MediaNames.editsKey))
        func taken(_ path: String, name: String) -> Bool {
            let relative = String(path.dropFirst(top.count))
            if selection.takes(relative) { return true }
            return MediaNames.namedAsEdits(name) && takenStems.contains(MediaNames.editsKey(name))
                && !selection.leavesOut(relative)
        }
        var notTaken = 0
        defer { if notTaken > 0 { entries.append(.notTaken(folder: folder, count: notTaken)) } }
        for name in names {
            let path = base + name
            guard let own = FileStatus(path: path, followingLinks: false) else {
                entries.append(.problem(path: path, message: "cannot read: " + FileWalker.errorText(errno)))
                continue
            }
            if own.kind == .symbolicLink, !followLinks {
                let target = LibraryFolder.resolve(path)
                guard let target, target == root || target.hasPrefix(root == "/" ? "/" : root + "/") else {
                    entries.append(
                        .leftAlone(
                            path: path,
                            reason: "a symbolic link to \(target ?? "nowhere"), outside the folder named "
                                + "(--follow-links follows it)"))
                    continue
                }
            }
            guard let child = own.kind == .symbolicLink ? FileStatus(path: path) : own else { continue }
            if child.kind == .directory {
                if depthLeft > 1 {
                    walk(path, root: root, top: top, depthLeft: depthLeft - 1, visited: &visited, into: &entries)
                }
            } else if child.kind == .regular, taken(path, name: name) {
                entries.append(.file(path, child.identity))
            } else if child.kind == .regular {
                notTaken += 1
            }
        }
    }

    static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// Whether `path` is a folder (a link to one counts).
    public static func isFolder(_ path: String) -> Bool {
        FileStatus(path: path)?.kind == .directory
    }
}
