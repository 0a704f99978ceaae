import ArgumentParser
import Foundation
import Pickup
import PickupStore

/// The one rule for every command that writes a file: an output is never one of the
/// inputs (the same file by device and inode, whatever names or links lead to it), and an
/// existing output is replaced only when `--force` says so.
public enum OutputCheck {
    /// Why `output` may not be written, and what to do instead; nil when it may be.
    public static func problem(
        writing output: String, reading inputs: [String], force: Bool
    ) -> (message: String, hint: String)? {
        guard let existing = FileStatus(path: output) else { return nil }
        for input in inputs {
            if let read = FileStatus(path: input), read.isSameFile(as: existing) {
                return (
                    "the output \(output) is the input \(input)",
                    "Pickup never writes over what it reads: name another output."
                )
            }
        }
        if existing.kind == .directory { return ("the output \(output) is a folder", "Name a file.") }
        if !force {
            return ("the output \(output) exists", "Add --force to replace it, or name another output.")
        }
        return nil
    }

    /// Refuses a path to write to (`-o`, `--into`, `--journal`) that holds bytes that are not
    /// UTF-8 (a Latin-1 name typed in a shell): Pickup reads such names, but writes under UTF-8
    /// names only, and would otherwise make a folder named with other bytes than those typed.
    public static func utf8(_ path: String?, option: String) throws(ValidationError) {
        guard let path, SystemPath.hasRawBytes(path) else { return }
        throw ValidationError(
            "\(option) \(Text.clean(path)) holds bytes that are not UTF-8; Pickup reads such names but writes "
                + "only UTF-8 ones: give it a UTF-8 name (\(SystemPath.readable(path)), say)")
    }

    /// Makes the folder outputs go into; when it cannot, says so on stderr as `command`
    /// ("pickup thumb") and returns false.
    public static func makeFolder(_ folder: String, for command: String) -> Bool {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return true
        } catch {
            Console.error(Text.clean("\(command): cannot make the folder \(folder): \(error.localizedDescription)"))
            return false
        }
    }
}
