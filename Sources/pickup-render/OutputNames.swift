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
        func stem(_ file: String) -> String {
            ImportNaming.shortened(
                ImportNaming.namePart(
                    ((SystemPath.readable(file) as NSString).lastPathComponent as NSString).deletingPathExtension),
                toBytes: 150)
        }
        func folder(_ file: String) -> String {
            // A name given without a folder is in the current one: its own name, not ".".
            let given = (SystemPath.readable(file) as NSString).deletingLastPathComponent
            let parent =
                ((given.isEmpty || given == "." ? FileManager.default.currentDirectoryPath : given) as NSString)
                .lastPathComponent
            return parent.isEmpty ? "." : ImportNaming.shortened(ImportNaming.namePart(parent), toBytes: 40)
        }
        func fileExtension(_ file: String) -> String {
            ImportNaming.shortened(
                ImportNaming.namePart((SystemPath.readable(file) as NSString).pathExtension), toBytes: 16)
        }
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
            // FNV-1a of the path: stable from run to run, unlike Hasher.
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in file.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            // Six hex digits always, so that the names line up (a hash with leading zeros keeps them).
            let digits = String(hash & 0xff_ffff, radix: 16)
            return "\(name) (\(parent) \(String(repeating: "0", count: 6 - digits.count) + digits))"
        }
    }
}
