import Foundation

/// The hidden files an export or a thumbnail is written to before it is renamed into place
/// (`.pickup-export-*`, `.pickup-thumb-*`). Each is locked (`flock`) by its writer for as long
/// as it is written, so that a process killed on the way (SIGKILL, a crash) leaves one that no
/// one holds, which the next run into that folder removes.
package enum RenderTemporaries {
    static let prefixes = [".pickup-export-", ".pickup-thumb-"]

    /// Makes and locks the temporary `path`; the descriptor holds the lock until it is closed.
    /// -1 (with errno) when it cannot be made.
    static func makeLocked(_ path: String) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor >= 0 { _ = flock(descriptor, LOCK_EX | LOCK_NB) }
        return descriptor
    }

    /// Removes the temporaries in `folder` that a killed writer left: a minute old at least (one
    /// just made may not be locked yet) and locked by no one. A folder that cannot be read is
    /// left as it is.
    package static func sweep(_ folder: String) {
        guard let directory = opendir(folder.isEmpty ? "." : folder) else { return }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if prefixes.contains(where: name.hasPrefix) { names.append(name) }
        }
        closedir(directory)
        let aMinuteAgo = time(nil) - 60
        for name in names {
            let path = (folder.isEmpty ? "." : folder) + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            #if canImport(Darwin)
                let modified = status.st_mtimespec.tv_sec
            #else
                let modified = status.st_mtim.tv_sec
            #endif
            guard modified < aMinuteAgo else { continue }
            let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
            close(descriptor)
        }
    }
}
