import Pickup

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names a library's folders held when an import run first looked at each, so that a new
/// item's names are not each looked up on the disk by `ImportSession.adopt` (a camera roll of
/// new photos meant one failing `lstat` a photo). Kept for one run: a file that appears later
/// is seen by the next run.
///
/// Names are compared case-folded: on a volume that ignores case (APFS's default, a camera's
/// FAT card) `IMG_0001.JPG` answers for `img_0001.jpg`, and a name this says is absent must be
/// absent there too. A name it may hold is still looked up on the disk.
final class FolderNames: Sendable {
    /// The library folder.
    private let library: String
    /// Each subfolder's names (case-folded), from the first time it was asked about.
    private let found = LockedValue<[String: Set<String>]>([:])

    init(library: String) { self.library = library }

    /// Whether `subfolder` (of the layout, with its trailing `/`; empty: the library folder
    /// itself) may hold `name`: false only when it did not when this run first looked, or
    /// cannot be read (then there is nothing in it to adopt).
    func mayHold(_ name: String, in subfolder: String) -> Bool {
        names(in: subfolder).contains(name.lowercased())
    }

    /// Whether `subfolder` may hold any name but the library's own (`.pickup`): false when it
    /// held no other when this run first looked (a new library), so no name need be made to ask.
    func mayHoldAny(in subfolder: String) -> Bool {
        let names = names(in: subfolder)
        return names.count > [".", "..", ".pickup"].filter(names.contains).count
    }

    private func names(in subfolder: String) -> Set<String> {
        if let known = found.withValue({ $0[subfolder] }) { return known }
        var names: Set<String> = []
        if let directory = opendir(subfolder.isEmpty ? library : library + "/" + subfolder) {
            while let entry = readdir(directory) {
                let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                    pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) {
                        SystemPath.string(cString: $0)
                    }
                }
                names.insert(name.lowercased())
            }
            closedir(directory)
        }
        return found.withValue { found in
            if let earlier = found[subfolder] { return earlier }
            found[subfolder] = names
            return names
        }
    }
}
