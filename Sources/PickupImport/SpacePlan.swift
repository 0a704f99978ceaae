import Foundation
import Pickup
import PickupStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which items of an import fit on the destination's disk, decided before anything is
/// copied: items in selection order take what they need (each file rounded up to whole 4 KB
/// blocks) while the free space, less a margin for the catalog and the folder, allows; the
/// others fail at once with how much more space they need. An item the library already
/// holds intact needs nothing, and neither does a clone or a reflink.
struct SpacePlan {
    /// Room kept free for the catalog's growth and folder entries.
    static let margin: Int64 = 1 << 20

    /// The refused items and why, by index.
    var refused: [Int: ImportError] = [:]

    /// `needs[i]`: the bytes item `i` would write; `free`: what the disk has for this user.
    init(needs: [Int64], free: Int64?, destination: String) {
        guard let free else { return }
        var left = free - SpacePlan.margin
        for (index, need) in needs.enumerated() where need > 0 {
            if need <= left {
                left -= need
            } else {
                refused[index] = ImportError(
                    .destinationFull,
                    "the disk is too full for it: it needs \(ByteCountLabel.string(need)) and the disk has "
                        + "\(ByteCountLabel.string(max(0, left))) left after the items before it",
                    path: nil,
                    hint: "Free at least \(ByteCountLabel.string(need - max(0, left))) in \(destination) "
                        + "(or import into another folder), then import again.")
            }
        }
    }

    /// The bytes a file of `size` takes on disk: whole 4 KB blocks.
    static func blocks(_ size: Int64) -> Int64 { (size + 4095) / 4096 * 4096 }

    /// The space this user may still write in `folder`'s file system, or nil when unknown.
    static func freeSpace(_ folder: String) -> Int64? {
        var info = statvfs()
        // A file system that counts no blocks (ramfs) cannot say: the copy finds out.
        guard statvfs(folder, &info) == 0, info.f_blocks > 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}

extension ImportSession {
    /// The space plan for these requests: what each would write, against the free space.
    /// `known`: the items the library holds already, by request (they need nothing).
    func spacePlan(_ requests: [ImportRequest], statuses: [[FileStatus?]], known: [Int: ImportedItem]) -> SpacePlan {
        var needs: [Int64] = []
        for (index, parts) in statuses.enumerated() {
            let held = known[index] != nil
            // A clone or a reflink takes no new blocks.
            let need = parts.reduce(Int64(0)) { total, status in
                let plan = facts.plan(source: status)
                return total + SpacePlan.blocks(plan.newBytes(forFileOf: status?.size ?? 0))
            }
            needs.append(held ? 0 : need)
        }
        var plan = SpacePlan(needs: needs, free: SpacePlan.freeSpace(destination), destination: destination)
        for index in plan.refused.keys { plan.refused[index]?.path = requests[index].path }
        return plan
    }
}
