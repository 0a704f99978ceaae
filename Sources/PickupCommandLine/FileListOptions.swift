import ArgumentParser
import Foundation
import Pickup
import PickupImport

/// Where a command's files come from besides its arguments, and which files of its folders it
/// takes, shared by probe, import, upload, thumb and export: `--files-from FILE` (or the
/// argument `-`: standard input), one path a line or, with `-0`, NUL-terminated as
/// `find -print0` writes them; `--include` and `--exclude` globs, read as rsync's and rclone's.
public struct FileListOptions: ParsableArguments, Sendable {
    @Option(
        name: .customLong("files-from"),
        help: ArgumentHelp(
            "Also take the paths listed in FILE, one a line, as files found in a folder are taken ('-' reads "
                + "standard input, as the argument '-' does). A listed folder is walked only when the list names "
                + "nothing inside it, so find's output takes each file once.",
            valueName: "FILE"),
        completion: .file())
    public var filesFrom: String?

    @Flag(
        name: [.customShort("0"), .customLong("null")],
        help: "Each path in the list ends with a NUL byte, not a newline (find -print0, xargs -0).")
    public var null = false

    @Option(
        name: .customLong("include"),
        help: ArgumentHelp(
            "Only files matching GLOB ('*.heic'; with a slash, the path below the folder named: '2024/**'); "
                + "either case; repeat for any of several.", valueName: "GLOB"))
    public var include: [String] = []

    @Option(
        name: .customLong("exclude"),
        help: ArgumentHelp(
            "Leave out files matching GLOB ('*.aae', 'Thumbs/**'), even when --include takes them; repeat for more.",
            valueName: "GLOB"))
    public var exclude: [String] = []

    /// Standard input, read to its end the first time it is asked for: a command checks its
    /// arguments once to validate them and again to run, and both see the same list.
    public static let standardInput: Data = FileHandle.standardInput.readDataToEndOfFile()

    /// Nothing asked: the arguments alone, every file.
    public init() {}

    /// Why a file named itself is left alone when the patterns do not take it.
    public static let notTaken = "not taken by the --include/--exclude patterns"

    /// The line that says how many files in the folders the patterns did not take ("pickup probe:
    /// 40 files in the folders were not taken by the --include/--exclude patterns"), so a
    /// pattern that matched less than meant is noticed; nil for none.
    public static func notTakenLine(command: String, count: Int) -> String? {
        guard count > 0 else { return nil }
        return "\(command): \(count) file\(count == 1 ? "" : "s") in the folders "
            + "\(count == 1 ? "was" : "were") not taken by the --include/--exclude patterns"
    }

    /// What a closing line adds for the files a run set aside ("; 2 left alone (see above); 40
    /// not taken by the --include/--exclude patterns"), so that its count adds up to the folder;
    /// nothing for none. `said`: whether the files left alone were named above (not with `-q`).
    public static func setAside(leftAlone: Int, notTaken: Int, said: Bool = true) -> String {
        (leftAlone > 0 ? "; \(leftAlone) left alone" + (said ? " (see above)" : "") : "")
            + (notTaken > 0 ? "; \(notTaken) \(FileListOptions.notTaken)" : "")
    }

    /// Throws `missing` (what to name, in the command's words) when neither an argument nor
    /// `--files-from` names a path: for the commands that need at least one.
    public func requirePaths(_ arguments: [String], _ missing: String) throws(ValidationError) {
        guard !arguments.isEmpty || filesFrom != nil else { throw ValidationError(missing) }
    }

    /// Which files of the folders are taken.
    public var selection: FileSelection { FileSelection(include: include, exclude: exclude) }

    /// The paths to work on: `arguments`, with the argument `-` and `--files-from` replaced by
    /// the paths they list; `input` reads standard input (once: named twice, it is an error).
    public func paths(
        _ arguments: [String], input: () -> Data = { FileListOptions.standardInput }
    ) throws(ValidationError) -> [String] {
        try sources(arguments, input: input).paths
    }

    /// The paths to work on, as ``paths(_:input:)`` gives them, and which of them came from a
    /// list: a listed file is taken as one found in a folder (a note or an `.AAE` in `find`'s
    /// output is left alone, not a failure), where a file named itself must be what the command takes.
    public func sources(
        _ arguments: [String], input: () -> Data = { FileListOptions.standardInput }
    ) throws(ValidationError) -> (paths: [String], listed: Set<String>) {
        let stdinNamed = arguments.filter { $0 == "-" }.count + (filesFrom == "-" ? 1 : 0)
        guard stdinNamed <= 1 else {
            throw ValidationError(
                "standard input ('-') can be read once: name it either as an argument or as --files-from")
        }
        if null, filesFrom == nil, stdinNamed == 0 {
            throw ValidationError("-0 reads a list of paths: add --files-from FILE, or '-' for standard input")
        }
        var paths: [String] = []
        var listed: Set<String> = []
        func take(_ found: [String]) {
            paths += found
            listed.formUnion(found)
        }
        for argument in arguments {
            if argument == "-" { take(try list(input(), from: "standard input")) } else { paths.append(argument) }
        }
        if let filesFrom {
            if filesFrom == "-" {
                take(try list(input(), from: "standard input"))
            } else {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: filesFrom, isDirectory: &isFolder), isFolder.boolValue {
                    throw ValidationError(
                        "--files-from \(filesFrom) is a folder; it takes a file that lists paths, one a line "
                            + "(name the folder itself as an argument to take what is in it)")
                }
                guard let data = FileListOptions.contents(of: filesFrom) else {
                    let reason =
                        FileManager.default.fileExists(atPath: filesFrom) ? "it may not be read" : "no such file"
                    throw ValidationError("cannot read the list of files \(filesFrom): \(reason); check the path")
                }
                take(try list(data, from: filesFrom))
            }
        }
        return (paths, listed)
    }

    /// The lists read from a path, by path: a pipe (`--files-from <(find …)`, a FIFO) can be read
    /// once only, and a command reads its list to check its arguments and again to run.
    private static let readLists = LockedValue<[String: Data]>([:])

    /// The bytes of the file at `path`, read to its end whatever it is (a file, a pipe, a
    /// device); nil when it cannot be opened or read.
    static func contents(of path: String) -> Data? {
        if let read = readLists.withValue({ $0[path] }) { return read }
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() ?? Data() else { return nil }
        readLists.withValue { $0[path] = data }
        return data
    }

    /// The paths in a list: lines (a trailing `\r` dropped) or NUL-terminated, empty ones skipped;
    /// a folder with other listed paths below it is dropped, as `find` lists each folder before
    /// what it holds: the list names the files to take, and walking the folder too would take
    /// them twice (and what the list left out).
    func list(_ data: Data, from source: String) throws(ValidationError) -> [String] {
        var paths: [String] = []
        for piece in data.split(separator: null ? 0 : 10, omittingEmptySubsequences: false) {
            var bytes = Array(piece)
            if !null, bytes.last == 13 { bytes.removeLast() }
            if bytes.isEmpty { continue }
            // A path that is not UTF-8 (a Latin-1 name) is kept as `SystemPath` spells it.
            paths.append(SystemPath.string(fromBytes: bytes))
        }
        if !null, paths.contains(where: { $0.contains("\0") }) {
            throw ValidationError("\(source) holds NUL bytes: add -0 to read a NUL-terminated list")
        }
        // A path as a folder is named, trailing slashes dropped (`photos/` is `photos`; `/` stays).
        func trimmed(_ path: String) -> Substring {
            var folder = Substring(path)
            while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
            return folder
        }
        var holders: Set<Substring> = []  // every folder some listed path is below
        for path in paths {
            let own = trimmed(path)
            var end = own.endIndex
            while let slash = own[..<end].lastIndex(of: "/") {
                holders.insert(own[..<slash])
                end = slash
            }
        }
        return paths.filter { !holders.contains(trimmed($0)) }
    }
}
