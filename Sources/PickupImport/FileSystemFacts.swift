import CPickupSystem
import PickupStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What copying needs to know about where a file is and where it goes.
enum FileSystemFacts {
    /// The file system of the folder at `path`.
    static func kind(of path: String) -> FileSystemKind {
        #if canImport(Darwin)
            var info = statfs()
            guard statfs(path, &info) == 0 else { return .other }
            let name = withUnsafeBytes(of: info.f_fstypename) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            switch name {
            case "apfs": return .apfs
            case "nfs": return .nfs
            case "smbfs": return .smb
            default: return .other
            }
        #else
            switch pickup_filesystem_type(path) {
            case 0x9123_683E: return .btrfs
            case 0x5846_5342: return .xfs
            case 0x6969: return .nfs
            case 0xFF53_4D42, 0xFE53_4D42: return .smb
            default: return .other
            }
        #endif
    }

    /// A destination folder's volume and file system, looked up once for many files.
    struct Destination {
        let device: UInt64?
        let kind: FileSystemKind

        init(folder: String) {
            device = FileStatus(path: folder)?.device
            kind = FileSystemFacts.kind(of: folder)
        }

        /// The plan for copying the file `source` describes into this folder.
        func plan(source: FileStatus?) -> CopyMethodPlan {
            let same = device != nil && source?.device == device
            return CopyMethodPlan(platform: CopyMethodPlan.current, fileSystem: kind, sameVolume: same)
        }
    }

    /// Flushes a file to the disk for good: `F_FULLFSYNC` on Apple platforms (what Apple
    /// recommends where durability matters: the drive's own cache too), `fsync` elsewhere.
    static func flush(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        return fsync(descriptor) == 0
    }
}
