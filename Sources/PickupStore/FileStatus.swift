import Pickup

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// What `stat`/`fstat` says of a file, in the same spelling on Linux and Apple platforms
/// (Glibc's `st_mtim` is Darwin's `st_mtimespec`).
public struct FileStatus: Sendable, Equatable {
    /// The kind of file: only regular files are media; FIFOs and devices are never opened to read.
    public enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink, fifo, device, socket, other
    }

    public var kind: Kind
    public var size: Int64
    /// The modification time, in nanoseconds since 1970.
    public var modified: Int64
    public var device: UInt64
    public var inode: UInt64

    /// The status of the open file `descriptor`; `nil` with `errno` set when `fstat` fails.
    public init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The status of the file at `path`, following symbolic links (`lstat` when `followingLinks`
    /// is false); `nil` with `errno` set when the call fails.
    public init?(path: String, followingLinks: Bool = true) {
        var info = stat()
        let status = SystemPath.withCString(path) { followingLinks ? stat($0, &info) : lstat($0, &info) }
        guard status == 0 else { return nil }
        self.init(info)
    }

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFCHR, S_IFBLK: kind = .device
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        size = Int64(info.st_size)
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        modified = Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }

    /// Whether both describe the same file (device and inode), whatever names lead to it.
    public func isSameFile(as other: FileStatus) -> Bool {
        device == other.device && inode == other.inode
    }

    /// Which file this is (device and inode), whatever names lead to it.
    public var identity: FileIdentity { FileIdentity(device: device, inode: inode) }
}

/// Which file a path led to when it was looked at (device and inode): a file
/// found by a walk is opened later only if its name still leads to the same
/// file, so one swapped meanwhile for a link (to `~/.ssh/id_rsa`, say) or for
/// another file is refused instead of read.
public struct FileIdentity: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}
