import Pickup
import PickupStore

/// What an import of some paths takes in, decided before anything is copied: the folders
/// named walked (`FileWalker`), the library's own files passed over, each file's facts (the
/// catalog's for a file it holds unchanged, else probed on all cores), the plan (filter,
/// order, limit, Live Photo pairs, an iPhone's `.AAE` edits beside their photos), and what was
/// left alone or could not be read. `pickup import` and its dry run both start from it.
public struct ImportScan: Sendable {
    /// How the paths are walked and what is taken.
    public struct Options: Sendable {
        /// Whether symbolic links that lead out of the folders named are followed.
        public var followLinks = false
        /// Which files found in the folders are taken (`--include`, `--exclude`).
        public var selection = FileSelection.everything
        /// Only items of these kinds.
        public var filter: MediaFilter?
        /// The order items are imported in.
        public var order = ImportOrder.selected
        /// At most this many items (0: no limit).
        public var limit = 0
        /// Probe every file again, even one the catalog knows by its source (``ImportOptions/rehash``).
        public var rehash = false
        /// Sources that came from a list (`--files-from`): a file there is taken as one found in a
        /// folder, left alone when it is not media, where a file named itself must be media.
        public var listed: Set<String> = []

        /// Options: links not followed, every file taken, every kind, in the order given.
        public init(
            followLinks: Bool = false, selection: FileSelection = .everything, filter: MediaFilter? = nil,
            order: ImportOrder = .selected, limit: Int = 0, listed: Set<String> = [], rehash: Bool = false
        ) {
            self.rehash = rehash
            self.followLinks = followLinks
            self.selection = selection
            self.filter = filter
            self.order = order
            self.limit = limit
            self.listed = listed
        }
    }

    /// What to import, item by item.
    public var plan: ImportPlan
    /// Paths that could not be read, and files named or named as media that are not media, in
    /// the order found.
    public var failures: [(path: String, error: ImportError)] = []
    /// Files found in the folders that are not photos or videos (an edit that went with its
    /// item is not among them).
    public var notMedia: [String] = []
    /// Why a file inside the library it is to go into is passed over.
    public static let insideLibrary = "already inside the library it would go into"
    /// Paths passed over on purpose (a symbolic link out of the folder named, a file inside the
    /// library itself), and why.
    public var passedOver: [(path: String, reason: String)] = []
    /// Files named themselves that the selection does not take.
    public var notSelected: [String] = []
    /// How many files in the folders the selection did not take.
    public var notTaken = 0
    /// Live Photo stills named without their movie, which lies beside them unnamed: `movie`
    /// is not imported with `still` (a later import of the movie alone adds it to the item).
    public var moviesNotNamed: [(still: String, movie: String)] = []

    /// Scans `sources` for an import into `library` (its own files are never taken);
    /// `catalog`, when there is one, gives the facts of the files it already holds.
    public static func scan(
        _ sources: [String], into library: LibraryFolder, catalog: ImportCatalog?, options: Options = Options()
    ) async -> ImportScan {
        var scan = ImportScan(plan: ImportPlan(files: []))
        var files: [String] = []
        var found: [String: FileIdentity] = [:]  // which file each path led to when the walk saw it
        var resolved: [String?] = []  // each file's path with its links resolved, looked up once
        // An iPhone's edits go with the photo they edit: patterns that take the photo
        // (`--include '*.heic'`) take its .AAE too, unless an exclude names it (the walk's rule).
        let editsAdded =
            !options.selection.include.isEmpty
            && !options.selection.include.contains { $0.lowercased().hasSuffix("aae") }
        let walker = FileWalker(recursive: true, followLinks: options.followLinks, selection: options.selection)
        let sourcePaths = SourcePaths()
        for entry in walker.expand(sources) {
            switch entry {
            case .file(let path, let identity):
                let real = sourcePaths.resolve(path)?.path
                // The library's own files are never taken, but said: one named, or a folder that
                // holds the library, would otherwise come to "0 items" with no word why.
                if let real, library.contains(resolved: real) {
                    scan.passedOver.append((path, ImportScan.insideLibrary))
                    continue
                }
                files.append(path)
                resolved.append(real)
                found[path] = identity
            case .problem(let path, let message):
                scan.failures.append((path, ImportError(.sourceUnreadable, message, path: path)))
            case .leftAlone(let path, let reason):
                scan.passedOver.append((path, reason))
            case .notSelected(let path):
                scan.notSelected.append(path)
            case .notTaken(_, let count):
                scan.notTaken += count
            }
        }
        // Files a folder holds beside its media (an iPhone's .AAE edits, sidecars, notes) are
        // left alone, not failures; a file named itself must be media.
        let named = Set(sources).subtracting(options.listed)
        var probed: [(path: String, info: MediaInfo)] = []
        let (probes, held) = await facts(of: files, resolved: resolved, knownTo: options.rehash ? nil : catalog)
        for (path, result) in zip(files, probes) {
            switch result {
            case .success(let info): probed.append((path, info))
            case .failure(let error)
            where !named.contains(path) && MediaNames.leftAlone(after: error, path: path):
                scan.notMedia.append(path)
            case .failure(let error):
                scan.failures.append((path, ImportError(probeError: error, path: path)))
            }
        }
        scan.plan = ImportPlan(
            files: probed, filter: options.filter, order: options.order, limit: options.limit, held: held)
        // A photo named itself takes its .AAE edits from beside it, as a folder's walk does.
        let walked = Set(files)
        var besideNamed: [String] = []
        for request in scan.plan.requests where named.contains(request.path) && request.edits == nil {
            for edits in ImportScan.beside(request.path, extensions: ["AAE", "aae"]) where !walked.contains(edits) {
                besideNamed.append(edits)
                found[edits] = FileStatus(path: edits, followingLinks: false)?.identity
            }
            if request.livePhotoMovie == nil, request.info.livePhotoRole == .still {
                for movie in ImportScan.beside(request.path, extensions: ["MOV", "mov"]) where !walked.contains(movie) {
                    scan.moviesNotNamed.append((request.path, movie))
                }
            }
        }
        let edits = scan.plan.attachEdits(from: scan.notMedia + besideNamed)
        scan.notMedia.removeAll { edits.contains($0) }
        // Edits taken only to go with their photo, whose photo was not taken, were never asked for.
        if editsAdded { scan.notMedia.removeAll(where: MediaNames.namedAsEdits) }
        // A file swapped (for a link, say) between the walk and its turn is refused, not copied.
        for index in scan.plan.requests.indices {
            for part in scan.plan.requests[index].parts {
                scan.plan.requests[index].expected[part.path] = found[part.path]
            }
        }
        return scan
    }

    /// The regular files beside `path` with its stem and one of these extensions (the first that
    /// is there: `IMG_0001.AAE` or `IMG_0001.aae` beside `IMG_0001.HEIC`).
    static func beside(_ path: String, extensions: [String]) -> [String] {
        // The stem: up to the name's last dot, a name that begins with its dot having none.
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/"), dot != path.startIndex,
            path[path.index(before: dot)] != "/"
        else { return [] }
        let stem = String(path[..<dot])
        for ext in extensions {
            let candidate = stem + "." + ext
            if candidate != path, FileStatus(path: candidate, followingLinks: false)?.kind == .regular {
                return [candidate]
            }
        }
        return []
    }

    /// What each file is: for a file the catalog already holds (the same path, size and
    /// modification time, its stored files intact) the facts the catalog recorded, without
    /// reading it again (and among `held`); the others probed.
    /// `resolved`: each file's path with its links resolved, when already looked up.
    static func facts(
        of files: [String], resolved: [String?]? = nil, knownTo catalog: ImportCatalog?
    ) async -> (facts: [Result<MediaInfo, ProbeError>], held: Set<String>) {
        var known: [Int: MediaInfo] = [:]
        if let catalog, let found = try? await catalog.items(importedFrom: files, resolved: resolved) {
            for (index, path) in files.enumerated() { if let item = found[path] { known[index] = item.info } }
        }
        let unknown = files.indices.filter { known[$0] == nil }
        var results = [Result<MediaInfo, ProbeError>?](repeating: nil, count: files.count)
        for (index, result) in zip(unknown, await ParallelProbe.probe(unknown.map { files[$0] })) {
            results[index] = result
        }
        let facts = files.indices.map { index in
            known[index].map { .success($0) } ?? results[index] ?? .failure(ProbeError(.unreadable, "not probed"))
        }
        return (facts, Set(known.keys.map { files[$0] }))
    }
}
