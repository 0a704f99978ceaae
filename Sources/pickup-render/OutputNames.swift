import Foundation
import Pickup
import PickupImport

/// How `pickup thumb` and `pickup export` name what they write.
enum OutputNames {
    /// The name each file's outputs are made from: its own, or, when two files share a name, "NAME
    /// (EXT)" with its extension (a Live Photo's `IMG_0001.HEIC` and `IMG_0001.MOV`), else "NAME
    /// (FOLDER)" with the folder's name (two cards' `IMG_0001.JPG`): never one over the other, and
    /// the same whatever order the files were given in. Two folders of one name add a short hash
    /// of the path.
    /// A name is at most 200 bytes (the file's part 150, the folder's 40), so that what is added
    /// after it (`-strip-01.webp`, `-hevc-3840x2160.mp4`) stays within a file system's 255.
    static func of(_ files: [String]) -> [String] {
        var count: [String: Int] = [:]
        for file in files { count[stem(file), default: 0] += 1 }
        var withExtension: [String: Int] = [:]
        var withFolder: [String: Int] = [:]
        for file in files where count[stem(file), default: 0] > 1 {
            withExtension[stem(file) + "\u{0}" + fileExtension(file).lowercased(), default: 0] += 1
            withFolder[stem(file) + "\u{0}" + folder(file), default: 0] += 1
        }
        return files.map { file in
            let name = stem(file)
            guard count[name, default: 0] > 1 else { return name }
            let kind = fileExtension(file)
            if !kind.isEmpty, withExtension[name + "\u{0}" + kind.lowercased(), default: 0] == 1 {
                return "\(name) (\(kind))"
            }
            let parent = folder(file)
            guard withFolder[name + "\u{0}" + parent, default: 0] > 1 else { return "\(name) (\(parent))" }
            return hashed(file)
        }
    }

    /// As `of(_:)`, with the outputs already there: a file whose outputs an earlier run made under
    /// another of its names (alone then, `IMG_0001`; beside another card's, `IMG_0001 (A)`) keeps
    /// that name, and a file whose name an earlier run gave another file's outputs (another card's
    /// `IMG_0001` alone) takes one of its other names, as it would beside that file, while no file
    /// of this run takes it. So who else was in a run neither leaves a file's outputs behind beside
    /// new ones nor fails the file. `source(name)`: the file the output named from `name` was made
    /// from (its absolute path, links resolved, as `OutputRecord` keeps it), nil when none is there
    /// or it is not Pickup's.
    static func of(_ files: [String], madeFrom source: (String) -> String?) -> [String] {
        var names = of(files)
        var taken = Set(names)
        for (index, file) in files.enumerated() {
            let own = SystemPath.resolved(file) ?? file
            let name = stem(file), kind = fileExtension(file), parent = folder(file)
            let byKind = "\(name) (\(kind))", byFolder = "\(name) (\(parent))"
            let free = [name, byKind, byFolder, hashed(file)].filter { $0 != names[index] && !taken.contains($0) }
            var chosen = free.first { source($0) == own }
            if chosen == nil, let other = source(names[index]), other != own {
                // Told apart from the other file as a run with both would: by kind, else by folder,
                // else (a folder of the same name) by folder and a hash of the path.
                let sameKind = fileExtension(other).lowercased() == kind.lowercased() || kind.isEmpty
                let sameFolder = folder(other) == parent
                chosen = free.filter { !(sameKind && $0 == byKind) && !(sameFolder && $0 == byFolder) && $0 != name }
                    .first { source($0) == nil }
            }
            guard let chosen else { continue }
            taken.remove(names[index])
            taken.insert(chosen)
            names[index] = chosen
        }
        return names
    }

    private static func stem(_ file: String) -> String {
        ImportNaming.shortened(
            ImportNaming.namePart(
                ((SystemPath.readable(file) as NSString).lastPathComponent as NSString).deletingPathExtension),
            toBytes: 150)
    }

    private static func folder(_ file: String) -> String {
        // A name given without a folder is in the current one: its own name, not ".".
        let given = (SystemPath.readable(file) as NSString).deletingLastPathComponent
        let parent =
            ((given.isEmpty || given == "." ? FileManager.default.currentDirectoryPath : given) as NSString)
            .lastPathComponent
        return parent.isEmpty ? "." : ImportNaming.shortened(ImportNaming.namePart(parent), toBytes: 40)
    }

    private static func fileExtension(_ file: String) -> String {
        ImportNaming.shortened(
            ImportNaming.namePart((SystemPath.readable(file) as NSString).pathExtension), toBytes: 16)
    }

    /// "NAME (FOLDER 1a2b3c)": for two folders of one name.
    private static func hashed(_ file: String) -> String {
        // FNV-1a of the path: stable from run to run, unlike Hasher.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in file.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        // Six hex digits always, so that the names line up (a hash with leading zeros keeps them).
        let digits = String(hash & 0xff_ffff, radix: 16)
        return "\(stem(file)) (\(folder(file)) \(String(repeating: "0", count: 6 - digits.count) + digits))"
    }
}
