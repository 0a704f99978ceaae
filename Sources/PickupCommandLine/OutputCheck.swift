import ArgumentParser
import Foundation
import Pickup
import PickupStore

/// The one rule for every command that writes a file: an output is never one of the
/// inputs (the same file by device and inode, whatever names or links lead to it), and an
/// existing output is replaced only when `--force` says so, or, for an output Pickup named
/// after its source (a folder's thumbnails and exports), when it was made before its source
/// last changed (`outdated(_:by:)`).
public enum OutputCheck {
    /// Why `output` may not be written, and what to do instead; nil when it may be. `source`:
    /// the file Pickup named `output` after: one made before it changed is made again.
    public static func problem(
        writing output: String, reading inputs: [String], force: Bool, source: String? = nil
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
        if !force, let source, OutputCheck.outdated(output, by: source) { return nil }
        if !force {
            return ("the output \(output) exists", "Add --force to replace it, or name another output.")
        }
        return nil
    }

    /// Whether `output` is a file made before `source` last changed: an output Pickup named
    /// after it is made again (a photo edited since its thumbnail was made).
    public static func outdated(_ output: String, by source: String) -> Bool {
        guard let made = FileStatus(path: output), made.kind == .regular, let read = FileStatus(path: source)
        else { return false }
        return read.modified > made.modified
    }

    /// The line for an output an earlier run made of `source`, left as it is (`madeBefore`):
    /// `{"type":"alreadyThere","path","source"}`, or in words.
    public static func alreadyThere(_ output: String, source: String, json: Bool) -> String {
        guard json else {
            return Text.clean(
                "\(source) → \(output): already there (made after its source last changed; --force makes it again)")
        }
        var object = JSONObject()
        object.add("type", "alreadyThere")
        object.add("path", output)
        object.add("source", source)
        return object.text
    }

    /// Whether `output` is what an earlier run of a batch made of `input`: a file, not empty, not
    /// one of the inputs, last changed at or after `input`. A batch run again (a folder, a list)
    /// leaves it and says so; `--force` makes it again. One older than its source is made again.
    public static func madeBefore(_ output: String, from input: String, reading inputs: [String]) -> Bool {
        guard let made = FileStatus(path: output), made.kind == .regular, made.size > 0,
            let source = FileStatus(path: input), made.modified >= source.modified
        else { return false }
        return !inputs.contains { FileStatus(path: $0)?.isSameFile(as: made) ?? false }
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
