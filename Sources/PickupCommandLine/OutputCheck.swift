import ArgumentParser
import Foundation
import Pickup
import PickupStore

/// The one rule for every command that writes a file: an output is never one of the
/// inputs (the same file by device and inode, whatever names or links lead to it), and an
/// existing output is replaced only when `--force` says so, or, for an output Pickup named
/// after its source (a folder's thumbnails and exports), when its record (`OutputRecord`) says
/// it was made before its source changed or with other options; one made as asked from the
/// source as it is now is left as it is, and one made from another file (which `OutputNames`
/// names apart, so only when every name of the file is taken), or a file Pickup did not make, is
/// refused (`fate(of:as:inputs:force:)`).
public enum OutputCheck {
    /// The files a command reads, by identity, looked at once: each output is compared with
    /// all of them in one lookup, not a `stat` of every input (a folder of thousands run again).
    public struct Inputs: Sendable {
        let paths: [FileIdentity: String]

        public init(_ paths: [String]) {
            var found: [FileIdentity: String] = [:]
            for path in paths {
                if let identity = FileStatus(path: path)?.identity, found[identity] == nil { found[identity] = path }
            }
            self.paths = found
        }
    }

    /// What becomes of one output.
    public enum Fate: Sendable, Equatable {
        /// Nothing there: written.
        case write
        /// There, and made again: why.
        case writeAgain(Again)
        /// A file Pickup named after its source, not empty, made from it as asked, at or after
        /// the source last changed: what an earlier run made, left as it is (`--force` makes it again).
        case alreadyThere
        /// Not written: why, and what to do instead.
        case refused(message: String, hint: String)

        /// Whether an output that was there is replaced.
        public var isAgain: Bool { if case .writeAgain = self { true } else { false } }
    }

    /// Why an output that is there is made again.
    public enum Again: Sendable, Equatable {
        /// Its source changed after it was made (a photo edited since its thumbnail).
        case changed
        /// It was made with other options (another `--size`, `--trim`, `--strip-location`...).
        case askedDifferently
        /// `--force`.
        case forced

        /// In words, after "made again: ".
        public var text: String {
            switch self {
            case .changed: "the file changed since"
            case .askedDifferently: "it was made with other options"
            case .forced: "--force"
            }
        }
    }

    /// The fate of `output`. `record`: how this run makes it, for an output Pickup names after
    /// its source (nil for a name the person gave, which is never replaced without `--force`).
    public static func fate(of output: String, as record: OutputRecord?, inputs: Inputs, force: Bool) -> Fate {
        guard let existing = FileStatus(path: output) else { return .write }
        if let input = inputs.paths[existing.identity] {
            return .refused(
                message: "the output \(output) is the input \(input)",
                hint: "Pickup never writes over what it reads: name another output.")
        }
        if existing.kind == .directory {
            return .refused(message: "the output \(output) is a folder", hint: "Name a file.")
        }
        if force { return .writeAgain(.forced) }
        if let record, existing.kind == .regular {
            switch OutputRecord.read(output) {
            case .made(let made) where !made.isAsWritten(existing):
                return .refused(
                    message: "the output \(output) was changed after Pickup made it",
                    hint: "Add --force to replace it, or name another output.")
            case .made(let made):
                if made.source != record.source {
                    return .refused(
                        message: "the output \(output) was made from another file, \(made.source)",
                        hint: "Name another folder with -o, or add --force to replace it.")
                }
                if made.size != record.size || made.modified != record.modified { return .writeAgain(.changed) }
                if made.options != record.options { return .writeAgain(.askedDifferently) }
                return .alreadyThere
            case .unsupported:
                // No record can be kept here: judged by time, as an output made after its file
                // last changed is what an earlier run made.
                if record.modified > existing.modified { return .writeAgain(.changed) }
                if existing.size > 0 { return .alreadyThere }
            case .none:
                // A file Pickup did not make (or an older Pickup): never taken for an output, nor replaced.
                break
            }
        }
        let refusal = exists(output)
        return .refused(message: refusal.message, hint: refusal.hint)
    }

    /// Why an output that is there is not replaced, and what to do instead.
    public static func exists(_ output: String) -> (message: String, hint: String) {
        ("the output \(output) exists", "Add --force to replace it, or name another output.")
    }

    /// The line for an output an earlier run made of `source`, left as it is (`.alreadyThere`):
    /// `{"type":"alreadyThere","path","source"}`, or in words.
    public static func alreadyThere(_ output: String, source: String, json: Bool) -> String {
        guard json else {
            return Text.clean(
                "\(source) → \(output): already there (made as asked from the file as it is; --force makes it again)")
        }
        var object = JSONObject()
        object.add("type", "alreadyThere")
        object.add("path", output)
        object.add("source", source)
        return object.text
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
