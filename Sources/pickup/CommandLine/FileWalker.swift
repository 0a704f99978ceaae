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
/// through symbolic-link loops.
struct FileWalker {
    var recursive: Bool

    enum Entry {
        case file(String)
        /// A path that could not be listed, and why.
        case problem(path: String, message: String)
    }

    func expand(_ paths: [String]) -> [Entry] {
        var entries: [Entry] = []
        var visited: Set<[UInt64]> = []
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else {
                entries.append(.problem(path: path, message: "cannot read: " + FileWalker.errorText(errno)))
                continue
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                walk(path, depthLeft: recursive ? 64 : 1, visited: &visited, into: &entries)
            } else {
                entries.append(.file(path))
            }
        }
        return entries
    }

    private func walk(_ folder: String, depthLeft: Int, visited: inout Set<[UInt64]>, into entries: inout [Entry]) {
        var info = stat()
        guard stat(folder, &info) == 0 else { return }
        let key = [UInt64(info.st_dev), UInt64(info.st_ino)]
        guard !visited.contains(key) else { return }  // a link back up: already walked
        visited.insert(key)
        guard let directory = opendir(folder) else {
            entries.append(.problem(path: folder, message: "cannot list the folder: " + FileWalker.errorText(errno)))
            return
        }
        var names: [String] = []
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        while let item = readdir(directory) {
            let name = withUnsafePointer(to: item.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(validatingCString: $0) }
            }
            guard let name else {
                // A Swift String cannot hold these bytes, so the file could not be opened by its name.
                entries.append(
                    .problem(
                        path: base + "?",
                        message: "a file in this folder has a name that is not valid UTF-8; rename it to probe it"))
                continue
            }
            if name.hasPrefix(".") { continue }
            names.append(name)
        }
        closedir(directory)
        names.sort()
        for name in names {
            let path = base + name
            var child = stat()
            guard stat(path, &child) == 0 else {
                entries.append(.problem(path: path, message: "cannot read: " + FileWalker.errorText(errno)))
                continue
            }
            if (child.st_mode & S_IFMT) == S_IFDIR {
                if depthLeft > 1 { walk(path, depthLeft: depthLeft - 1, visited: &visited, into: &entries) }
            } else if (child.st_mode & S_IFMT) == S_IFREG {
                entries.append(.file(path))
            }
        }
    }

    static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
