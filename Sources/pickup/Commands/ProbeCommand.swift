import ArgumentParser
import Foundation
import Pickup
import PickupCommandLine
import PickupImport
import PickupStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `pickup probe`: tells what each photo or video is.
struct ProbeCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Tell what photos and videos are: kind, size, duration, codecs, rotation, date, place.",
        discussion: """
            A file's kind comes from its bytes, never its name. Pickup reads MP4, MOV, M4A/M4V, 3GP, \
            HEIC/HEIF, AVIF, JPEG, PNG, GIF, WebP, TIFF, DNG, WebM/Matroska and cameras' raw photos (CR2, \
            CR3, NEF, ARW, RAF, RW2, ORF, PEF), and only the parts of a file that describe it (never the \
            whole file).

            With --json each file gives one object, {"type": "media", "path", ...}, with facts named as in the corpus \
            manifests: kind, container, videoCodec, audioCodec, imageCodec, width, height (stored), \
            rotation (degrees clockwise to stand upright), mirrored, orientation (EXIF), displayWidth, \
            displayHeight, duration (s), frameRate, bitDepth, hdr, creationDate (ISO 8601, with the \
            zone the file gives; creationDateZone says offset, utc or unspecified), latitude, \
            longitude, altitude (m), make, model, software, contentIdentifier, livePhoto (still or \
            movie), animated, frameCount, alpha: every key is there, null when the file does not say. A \
            file that fails gives {"type": "error", "path", "status": "failed", "error": {code, message, \
            hint, offset, element}}. Live Photos found among the files (a still and a movie with one \
            content identifier) follow as {"type": "livePhotoPair", "livePhotoPair": {...}} objects. \
            The schema of every line is in docs/json-schema/probe.json.

            Files found in a folder that are not photos or videos (an iPhone's .AAE edits, sidecars, \
            notes) are left alone ({"path", "status": "leftAlone", "reason"}), not failures; a file \
            named on the command line, or named as media (.mov, .jpg...), must be media.

            Exit status: 0 when every file was probed, 1 when any failed, 2 for a usage mistake.
            """
                + Examples.text([
                    "pickup probe IMG_0001.HEIC IMG_0001.MOV",
                    "pickup probe --recursive /media/card/DCIM",
                    "pickup probe --json Movies/ | jq 'select(.rotation == 90) | .path'",
                    "pickup probe -r DCIM --format csv --fields path,kind,duration,creationDate > card.csv",
                ]))

    @Argument(
        help: ArgumentHelp(
            "Files to probe; a folder stands for the files in it (hidden files are skipped).", valueName: "FILE|DIR"),
        completion: .file())
    var arguments: [String] = []

    @Flag(
        name: [.customLong("recursive"), .customShort("r")],
        help: "Also probe the files in folders below the folders given.")
    var recursive = false

    @Flag(
        name: [.customLong("follow-links")],
        help: "Follow symbolic links that lead out of the folders named (not followed by default).")
    var followLinks = false

    @Flag(name: [.customLong("json")], help: "Print one JSON object a line (JSON Lines) instead of a table.")
    var json = false

    @Option(
        name: [.customLong("format")],
        help: ArgumentHelp(
            "csv or tsv: a header row of field names, then one row a file (as exiftool -T: - where TSV has no "
                + "value; a file that fails, its path only); no summary.",
            valueName: "FORMAT"),
        completion: .list(ProbeColumns.Format.allCases.map(\.rawValue)))
    var format: String?

    @Option(
        name: [.customLong("fields")],
        help: ArgumentHelp(
            "With --format (tsv if not given): only these fields, commas between, named as --json's keys "
                + "(path,kind,bytes,width,height,duration,audioChannels,creationDate...; --format alone gives every one).",
            valueName: "A,B,C"))
    var fields: String?

    @OptionGroup var files: FileListOptions

    func job() throws -> ProbeJob { try ProbeJob(self) }
}

/// What the command does, from its checked arguments.
struct ProbeJob: CommandJob {
    let paths: [String]
    /// The paths that came from a list (`--files-from`, `-`): taken as found in a folder.
    let listed: Set<String>
    let recursive: Bool
    let followLinks: Bool
    let json: Bool
    let selection: FileSelection
    /// `--format csv|tsv` (or `--fields`): rows of the fields asked, instead of the table.
    let columns: ProbeColumns?

    init(_ command: ProbeCommand) throws(ValidationError) {
        try command.files.requirePaths(command.arguments, "name at least one file or folder to probe")
        (paths, listed) = try command.files.sources(command.arguments)
        selection = command.files.selection
        recursive = command.recursive
        followLinks = command.followLinks
        json = command.json
        if command.format != nil || command.fields != nil {
            guard !command.json else { throw ValidationError("choose --json or --format/--fields, not both") }
            guard let format = ProbeColumns.Format(rawValue: (command.format ?? "tsv").lowercased()) else {
                throw ValidationError(
                    "--format takes csv or tsv, not '\(command.format ?? "")'"
                        + UnknownOptions.guess(command.format ?? "", among: ["csv", "tsv"]))
            }
            columns = try ProbeColumns(fields: command.fields, format: format)
        } else {
            columns = nil
        }
    }

    func run() async -> Int32 {
        let entries = FileWalker(recursive: recursive, followLinks: followLinks, selection: selection).expand(paths)
        var files: [String] = []
        var failures = 0
        // Folders of folders named without -r, and nothing else to probe: a usage mistake, as
        // `upload` without -r is; the hint says what to add.
        if !recursive, ProbeJob.hintAtSubfolders(paths, entries: entries), entries.isEmpty {
            return ExitStatus.usage
        }
        for line in NamedFiles.emptyFolderLines(paths, command: "pickup probe") { Console.error(line) }
        let named = Set(paths).subtracting(listed)
        var leftAloneFiles: [String] = []
        var notTaken = 0
        var passedOver: [(path: String, reason: String)] = []
        for entry in entries {
            switch entry {
            case .file(let path, _): files.append(path)
            case .problem(let path, let message):
                failures += 1
                report(
                    ProbeError(.unreadable, message, path: path, hint: FileWalker.hint(forProblemAt: path)), path: path)
            case .leftAlone(let path, let reason): passedOver.append((path, reason))
            case .notSelected(let path): passedOver.append((path, FileListOptions.notTaken))
            case .notTaken(_, let count): notTaken += count
            }
        }
        if json {
            for (path, reason) in passedOver { Console.out(JSONObject.leftAlone(path: path, reason: reason).text) }
        } else {
            for line in NamedFiles.leftAloneLines(passedOver, command: "pickup probe") { Console.error(line) }
        }
        let table = ProbeTable()
        // CSV and TSV always begin with their header; the table's comes with its first row, so
        // that a run where every file failed shows no empty table.
        var tableHeaderDue = !json && columns == nil
        if !json, !files.isEmpty, let columns { Console.raw(columns.header) }
        var probed = 0
        // Only files with a Live Photo identifier are kept, for pairing at the end.
        var livePhotoParts: [(item: String, info: MediaInfo)] = []
        // Batches keep output flowing and memory flat for folders of thousands of files.
        let batchSize = 256
        var start = 0
        while start < files.count {
            let batch = Array(files[start..<min(files.count, start + batchSize)])
            start += batchSize
            var output = ""
            for (path, result) in zip(batch, await ParallelProbe.probe(batch)) {
                switch result {
                case .success(let info):
                    probed += 1
                    if info.livePhotoRole != nil { livePhotoParts.append((path, info)) }
                    if tableHeaderDue {
                        output += table.header
                        tableHeaderDue = false
                    }
                    output +=
                        json
                        ? ProbeJob.jsonLine(path: path, info: info)
                        : columns?.row(path: path, info: info) ?? table.row(path: path, info: info)
                case .failure(let error)
                where !named.contains(path) && MediaNames.leftAlone(after: error, path: path):
                    leftAloneFiles.append(path)
                    if json { output += JSONObject.leftAlone(path: path, reason: "not a photo or video").text + "\n" }
                case .failure(let error):
                    failures += 1
                    Console.raw(output)
                    output = columns?.row(path: path, info: nil) ?? ""
                    report(error, path: path)
                }
            }
            Console.raw(output)
        }
        let pairs = LivePhotoPairing.pairs(in: livePhotoParts)
        if json {
            for pair in pairs {
                var object = JSONObject()
                object.add("contentIdentifier", pair.contentIdentifier)
                object.add("still", pair.still)
                object.add("movie", pair.movie)
                var line = JSONObject()
                line.add("type", "livePhotoPair")
                line.add("livePhotoPair", object: object)
                Console.out(line.text)
            }
        } else if columns == nil {
            if !pairs.isEmpty {
                Console.out("\nLive Photos:")
                for pair in pairs { Console.out("  \(pair.still) + \(pair.movie)  (\(pair.contentIdentifier))") }
            }
            let total = entries.count { if case .notTaken = $0 { false } else { true } }
            // Files passed over (named ones the patterns leave out, links out of the folder) were
            // said above; the files that are not media are named here, as import names them.
            for line in NamedFiles.leftAloneLines(
                leftAloneFiles.map { ($0, "not a photo or video") }, command: "pickup probe")
            {
                Console.error(line)
            }
            let alone = leftAloneFiles.count + passedOver.count
            let aside = alone == 0 ? "" : ", \(alone) left alone (see above)"
            let patterns = notTaken == 0 ? "" : "; \(notTaken) more not taken by the --include/--exclude patterns"
            Console.out(
                (tableHeaderDue && pairs.isEmpty ? "" : "\n") + "\(total) file\(total == 1 ? "" : "s"): "
                    + "\(probed) probed\(aside), \(failures) failed\(patterns).")
        } else if let line = FileListOptions.notTakenLine(command: "pickup probe", count: notTaken) {
            Console.error(line)
        }
        return failures == 0 ? ExitStatus.success : ExitStatus.someFailed
    }

    /// A folder named without --recursive whose files are all in subfolders: says to add -r,
    /// and returns whether it did.
    static func hintAtSubfolders(_ paths: [String], entries: [FileWalker.Entry]) -> Bool {
        var hinted = false
        for path in paths where FileStatus(path: path)?.kind == .directory {
            let base = path.hasSuffix("/") ? path : path + "/"
            let found = entries.contains {
                if case .file(let file, _) = $0 { return file.hasPrefix(base) }
                return false
            }
            // Listed again only when the walk found no file in it: the rare case the hint is for.
            if found { continue }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            let folders = names.filter { !$0.hasPrefix(".") && FileStatus(path: base + $0)?.kind == .directory }
            if !folders.isEmpty {
                hinted = true
                Console.error(
                    "pickup probe: \(path) holds no files, only folders (\(folders.sorted().prefix(3).joined(separator: ", "))"
                        + (folders.count > 3 ? ", ..." : "") + "); add -r (--recursive) to probe what is in them")
            }
        }
        return hinted
    }

    private func report(_ error: ProbeError, path: String) {
        if json {
            Console.raw(ProbeJob.jsonLine(path: path, error: error))
        } else {
            Console.error(Text.clean("pickup probe: " + error.description))
        }
    }

    static func jsonLine(path: String, info: MediaInfo) -> String {
        var object = JSONObject()
        object.add("type", "media")
        object.add("path", path)
        object.add("status", "probed")
        object.addFacts(of: info)
        return object.text + "\n"
    }

    static func jsonLine(path: String, error: ProbeError) -> String {
        // Where in the file: the byte offset and the box, tag or chunk (null when not known).
        JSONObject.failure(path: path, error: JSONObject.error(error)).text + "\n"
    }
}
