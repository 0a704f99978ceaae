/// How a stored file came to be: its bytes written anew, or shared with the source.
public enum CopyMethod: String, Sendable, Hashable, Codable {
    /// An APFS clone (`fclonefileat`): no new blocks until one side changes.
    case cloned
    /// A btrfs or XFS reflink (`copy_file_range`): the same, on Linux.
    case reflinked
    /// Every byte read and written.
    case copied

    /// Whether the copy took no new space on the disk.
    public var sharesBlocks: Bool { self != .copied }
}

/// The file system a folder lives on, as far as copying cares.
public enum FileSystemKind: String, Sendable, Hashable, CaseIterable {
    /// Apple's file system: clones (`clonefile`) share blocks.
    case apfs
    /// Btrfs: reflinks (`FICLONE`) share blocks.
    case btrfs
    /// XFS: reflinks share blocks when the file system was made with them.
    case xfs
    /// A network share (NFS): copied on the server when it can (`copy_file_range`).
    case nfs
    /// A network share (SMB): copied on the server when it can.
    case smb
    /// Any other file system: a streamed copy.
    case other
}

/// Which way to copy a file, decided from facts alone (tested on Linux for every case); the
/// copier tries it and falls back to a streamed copy when the system refuses (`ENOTSUP`,
/// `EXDEV`, ...).
public struct CopyMethodPlan: Sendable, Hashable {
    /// The operating system, which decides the system calls there are.
    public enum Platform: Sendable, Hashable {
        /// iOS, macOS and their siblings (`clonefile`, `fcopyfile`).
        case apple
        /// Linux (`FICLONE`, `copy_file_range`).
        case linux
        /// Anything else: a streamed copy.
        case other
    }

    /// The operating system.
    public var platform: Platform
    /// The destination folder's file system.
    public var fileSystem: FileSystemKind
    /// Whether source and destination are on one volume (the same `st_dev`).
    public var sameVolume: Bool

    /// The facts a plan is decided from.
    public init(platform: Platform, fileSystem: FileSystemKind, sameVolume: Bool) {
        self.platform = platform
        self.fileSystem = fileSystem
        self.sameVolume = sameVolume
    }

    /// The method to try first.
    public var method: CopyMethod {
        switch (platform, fileSystem, sameVolume) {
        case (.apple, .apfs, true): return .cloned
        case (.linux, .btrfs, true), (.linux, .xfs, true): return .reflinked
        default: return .copied
        }
    }

    /// Whether bytes should go through the kernel's `copy_file_range` (a reflink on btrfs and
    /// XFS, a copy on the server for NFS and SMB) rather than through Pickup's buffers.
    public var copiesInKernel: Bool {
        platform == .linux && [.btrfs, .xfs, .nfs, .smb].contains(fileSystem)
    }

    /// The bytes a file of `size` adds to the destination's disk with this method.
    public func newBytes(forFileOf size: Int64) -> Int64 { method.sharesBlocks ? 0 : size }

    /// This machine's platform.
    public static var current: Platform {
        #if canImport(Darwin)
            return .apple
        #elseif os(Linux)
            return .linux
        #else
            return .other
        #endif
    }
}
