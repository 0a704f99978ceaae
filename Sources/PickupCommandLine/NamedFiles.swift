import ArgumentParser
import Foundation
import Pickup
import PickupImport
import PickupStore

/// The files a command's arguments name, for the commands that take folders with
/// `-r/--recursive` (thumb, export): files as they are; each folder's files below it that the
/// command takes, the others left alone, with why; a folder without `--recursive` is a usage
/// mistake that says to add it.
public struct NamedFiles {
    /// The files to work on, in order.
    public var files: [String] = []
    /// Files in the folders that the command passes over, and why.
    public var leftAlone: [(path: String, reason: String)] = []
    /// Paths in the folders that could not be read, and why.
    public var unreadable: [(path: String, message: String)] = []
    /// How many files in the folders the `--include`/`--exclude` patterns did not take.
    public var notTaken = 0
    /// Whether some file was looked for in a folder or a list (`--files-from`): then `-o` names a
    /// folder however many files were found, as it would for the same command on a fuller card.
    public var searched = false
    /// The folders named that are empty (hidden files aside).
    public var emptyFolders: [String] = []

    /// `arguments` expanded; `takes` says which files in a folder the command works on, `other`
    /// why it passes over the rest, `doing` what `-r` would do ("make thumbnails of what is in it");
    /// `selection` which files are taken at all (`--include`, `--exclude`); a file in `listed`
    /// (from `--files-from`) is taken as one found in a folder.
    ///
    /// `outputs`: the folder `-o` names for the command's outputs. A file found
    /// in a folder that Pickup made (its record says so), or that lies in `outputs`, is left
    /// alone: a run again on a card with its thumbnails or exports inside it does not take them
    /// for photos and videos to work on. Named itself, such a file is taken.
    public init(
        _ arguments: [String], recursive: Bool, doing: String, takes: (String) -> Bool, other: String,
        selection: FileSelection = .everything, listed: Set<String> = [], outputs: String? = nil
    ) throws(ValidationError) {
        let outputFolder = outputs.map { SystemPath.absolute($0) + "/" }
        func isOutput(_ path: String) -> Bool {
            if let outputFolder, SystemPath.absolute(path).hasPrefix(outputFolder) { return true }
            if case .made = OutputRecord.read(path) { return true }
            return false
        }
        // Each file once, however many arguments lead to it (a folder and a file in it).
        var given: Set<FileIdentity> = []
        func isNew(_ identity: FileIdentity?) -> Bool {
            guard let identity else { return true }
            return given.insert(identity).inserted
        }
        for argument in arguments {
            if listed.contains(argument) { searched = true }
            guard FileWalker.isFolder(argument) else {
                if listed.contains(argument), selection.takes(argument), !takes(argument) {
                    leftAlone.append((argument, other))
                } else if selection.takes(argument) {
                    if isNew(FileStatus(path: argument)?.identity) { files.append(argument) }
                } else {
                    leftAlone.append((argument, FileListOptions.notTaken))
                }
                continue
            }
            guard recursive else { throw ValidationError("\(argument) is a folder; add --recursive (-r) to \(doing)") }
            searched = true
            if NamedFiles.hiddenFiles(inEmptyFolder: argument) != nil { emptyFolders.append(argument) }
            for entry in FileWalker(recursive: true, selection: selection).expand([argument]) {
                switch entry {
                case .file(let path, _) where takes(path) && isOutput(path):
                    leftAlone.append((path, NamedFiles.anOutput))
                case .file(let path, let identity) where takes(path): if isNew(identity) { files.append(path) }
                case .file(let path, _): leftAlone.append((path, other))
                case .leftAlone(let path, let reason): leftAlone.append((path, reason))
                case .notSelected: break  // only a file named itself, never one found in a folder
                case .notTaken(_, let count): notTaken += count
                case .problem(let path, let message): unreadable.append((path, message))
                }
            }
        }
    }

    /// A line for each folder in `named` that is empty (hidden files aside): a folder named like
    /// a file (`x.jpg/`), or an empty card, said rather than passed over in silence.
    public static func emptyFolderLines(_ named: [String], command: String) -> [String] {
        named.compactMap { path in
            hiddenFiles(inEmptyFolder: path).map { hidden in
                Text.clean("\(command): \(path) is an empty folder" + (hidden == 0 ? "" : " (hidden files aside)"))
            }
        }
    }

    /// How many hidden files `path` holds when it is a folder that holds nothing else; nil
    /// when it is no folder, or holds other files or folders.
    static func hiddenFiles(inEmptyFolder path: String) -> Int? {
        guard FileWalker.isFolder(path), let names = try? FileManager.default.contentsOfDirectory(atPath: path),
            names.allSatisfy({ $0.hasPrefix(".") })
        else { return nil }
        return names.count
    }

    /// Why a file found in a folder is left alone: Pickup made it, as a thumbnail or an export.
    public static let anOutput = "an output Pickup made"

    /// What to do to take such a file all the same.
    public static let outputHints = [anOutput: "name a file itself to take it"]

    /// The reasons said of one file, as said of several.
    static let plurals = [
        "not a photo or video": "not photos or videos", "not a video": "not videos", "not a photo": "not photos",
        anOutput: "outputs Pickup made",
    ]

    /// What was left alone, one line for each reason, in the order first seen: "pickup export:
    /// left alone 12 files (not a video): a.jpg, b.jpg, ...", so that a folder of photos gives
    /// one line, not one a photo; `hints` what to do, by reason (after the names); then how many
    /// files `notTaken` says the patterns did not take.
    public static func leftAloneLines(
        _ leftAlone: [(path: String, reason: String)], command: String, hints: [String: String] = [:],
        notTaken: Int = 0
    ) -> [String] {
        var reasons: [String] = []
        var paths: [String: [String]] = [:]
        for (path, reason) in leftAlone {
            if paths[reason] == nil { reasons.append(reason) }
            paths[reason, default: []].append(path)
        }
        let counted = FileListOptions.notTakenLine(command: command, count: notTaken).map { [$0] } ?? []
        return reasons.map { reason in
            let found = paths[reason] ?? []
            let shown = found.prefix(2).joined(separator: ", ") + (found.count > 2 ? ", ..." : "")
            let why = found.count == 1 ? reason : plurals[reason] ?? reason
            return Text.clean(
                "\(command): left alone \(found.count) file\(found.count == 1 ? "" : "s") (\(why)): \(shown)"
                    + (hints[reason].map { "; " + $0 } ?? ""))
        } + counted
    }
}
