import ArgumentParser
import Foundation
import Pickup
import PickupCommandLine
import PickupHTTP
import PickupImport
import PickupStore
import PickupUpload

/// Which files `pickup upload` sends: files, folders with --recursive, library items with --library.
extension UploadJob {
    /// A file to send, the library item it belongs to, and its path inside the folder named
    /// (its name, for a file named itself); a library file's SHA-256, checked against the catalog.
    struct ResolvedFile {
        var path: String
        var item: String?
        var relativePath: String
        var sha256: String? = nil
        /// Which file the path led to when it was found: a file swapped since (for a link) is not sent.
        var expected: FileIdentity? = nil
        /// Found in a folder's walk (-r), not named: sent only when it is media (`mediaOnly`).
        var walked = false
    }

    /// The files to send: each argument that is a file, the files below each folder (with
    /// --recursive), and the stored files of each library item named by its id (with
    /// --library; a Live Photo sends still and movie). Also whether some could not be read
    /// (reported), the files passed over and why (said with --json as they are found, else
    /// left to `reportLeftAlone`), and how many files in the folders the patterns did not take.
    func resolvedPaths() async throws(ValidationError) -> (
        [ResolvedFile], unreadable: Bool, leftAlone: [(path: String, reason: String)], notTaken: Int
    ) {
        var paths: [ResolvedFile] = []
        var unreadable = false
        var catalog: ImportCatalog?
        var notTaken = 0
        var leftAlone: [(path: String, reason: String)] = []
        func leaveAlone(_ path: String, _ reason: String) {
            if json { Console.out(JSONObject.leftAlone(path: path, reason: reason).text) }
            leftAlone.append((path, reason))
        }
        for argument in files {
            if let status = FileStatus(path: argument) {
                if status.kind == .directory {
                    guard recursive else {
                        throw ValidationError("\(argument) is a folder; add --recursive (-r) to upload what is in it")
                    }
                    let base = argument.hasSuffix("/") ? argument : argument + "/"
                    for entry in FileWalker(recursive: true, selection: selection).expand([argument]) {
                        switch entry {
                        case .file(let path, let identity):
                            paths.append(
                                ResolvedFile(
                                    path: path, item: nil, relativePath: String(path.dropFirst(base.count)),
                                    expected: identity, walked: true))
                        case .problem(let path, let message):
                            unreadable = true
                            notSent(
                                path, code: "sourceUnreadable", message: "\(message); it is not sent",
                                hint: "Check that the file exists and can be read.")
                        case .leftAlone(let path, let reason): leaveAlone(path, reason)
                        case .notSelected: break  // only a file named itself, never one found in a folder
                        case .notTaken(_, let count): notTaken += count
                        }
                    }
                } else if !selection.takes(argument) {
                    leaveAlone(argument, FileListOptions.notTaken)
                } else {
                    // A listed file (--files-from) is sent as one found in a folder: when it is media.
                    paths.append(
                        ResolvedFile(
                            path: argument, item: nil, relativePath: (argument as NSString).lastPathComponent,
                            expected: status.identity, walked: listed.contains(argument)))
                }
                continue
            }
            guard let library else {
                // As probe, thumb and export do: the others go on, and the run exits 1.
                unreadable = true
                notSent(
                    argument, code: "sourceUnreadable",
                    message: "no such file (a library item's id needs --library DIR); it is not sent",
                    hint: "Check the path; to upload a library item by its id, add --library DIR.")
                continue
            }
            do {
                if catalog == nil { catalog = try ImportCatalog(folder: library, readOnly: true) }
                // As for a file that is not there: said, the others go on, and the run exits 1.
                let item: ImportedItem
                let files: [StoredFile]
                if let found = try await catalog?.item(id: argument) {
                    // Every stored file goes: the photo or video, a Live Photo's movie and an
                    // iPhone's edits, as a folder's walk sends an .AAE with its photo.
                    (item, files) = (found, found.files)
                } else if let live = try await catalog?.livePhoto(formerVideoID: argument),
                    let movie = live.files.first(where: { $0.role == .livePhotoMovie && $0.sha256.hasPrefix(argument) })
                {
                    // A video item's id from before a Live Photo took its file over: that file.
                    (item, files) = (live, [movie])
                } else {
                    unreadable = true
                    // A prefix of several ids is named as such, with them, as `library show` does.
                    var fitting: [ImportedItem] = []
                    if let catalog { fitting = try await LibraryJob.fitting(argument, in: catalog, most: 5) }
                    if fitting.count > 1 {
                        notSent(
                            argument, code: "ambiguous",
                            message:
                                "'\(argument)' fits \(LibraryJob.counted(fitting, most: 5)) items of the library \(library): "
                                + LibraryJob.listed(fitting, most: 5) + "; none is sent",
                            hint: "Give more characters of the id.")
                    } else {
                        notSent(
                            argument, code: "sourceUnreadable",
                            message: "neither a file nor an item of the library \(library); it is not sent",
                            hint: "Check the id with 'pickup library \(Text.shellQuoted(library)) list'.")
                    }
                    continue
                }
                // Only the bytes the catalog records are sent: an item with a stored file missing or
                // changed is refused, said, and the others go on (the run exits 1).
                var checked: [ResolvedFile] = []
                for file in files {
                    let path = library + "/" + file.name
                    guard case .success(let found) = FileHash.sha256(ofFileAt: path), found.sha256 == file.sha256
                    else {
                        let missing = FileStatus(path: path) == nil
                        let what = missing ? "missing" : "no longer the one the catalog records (its SHA-256 differs)"
                        notSent(
                            path, code: missing ? "sourceUnreadable" : "sourceChanged",
                            message: "item \(item.id)'s file is \(what); the item is not sent",
                            hint: "'pickup library \(Text.shellQuoted(library)) repair' puts it back from its source "
                                + "when that is still there.")
                        checked = []
                        unreadable = true
                        break
                    }
                    checked.append(
                        ResolvedFile(
                            path: path, item: item.id, relativePath: (path as NSString).lastPathComponent,
                            sha256: found.sha256, expected: FileStatus(path: path)?.identity))
                }
                paths += checked
            } catch {
                throw ValidationError("cannot read the library \(library): \(error)")
            }
        }
        // Each file once, however many arguments lead to it (a folder and a file in it, a list).
        var given: Set<FileIdentity> = []
        paths = paths.filter { file in file.expected.map { given.insert($0).inserted } ?? true }
        return (paths, unreadable, leftAlone, notTaken)
    }
}

extension UploadJob {
    /// S3 credentials from a file of `KEY=value` lines, else from the environment.
    static func credentials(file: String?) throws(ValidationError) -> S3Credentials? {
        guard let file else { return S3Credentials.fromEnvironment() }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw ValidationError("cannot read the credentials file \(file)")
        }
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, !parts[0].hasPrefix("#") { values[parts[0]] = parts[1] }
        }
        guard let credentials = S3Credentials.fromEnvironment(values) else {
            throw ValidationError("\(file) lacks AWS_ACCESS_KEY_ID or AWS_SECRET_ACCESS_KEY (KEY=value lines)")
        }
        return credentials
    }
}
