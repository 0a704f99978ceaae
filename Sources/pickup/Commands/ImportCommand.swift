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

/// `pickup import`: takes photos and videos into a library folder.
struct ImportCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Copy photos and videos into a library folder, safely, once, in order.",
        discussion: """
            Each file is copied to a temporary file in the library (unnamed on Linux), hashed (SHA-256) \
            while it is copied, flushed to disk, then given a readable name that never overwrites another \
            (IMG_0001.JPG, IMG_0001 2.JPG...). A Live Photo's still and movie are one item. An item the \
            library already holds (the same file, or the same content) is kept, not copied again. The \
            catalog lives in DIR/.pickup/catalog.sqlite; see 'pickup library'.

            A file that fails gets its own error line; the others go on. Files in a folder that are not \
            photos or videos (.AAE edits, sidecars, notes) are left alone. Ctrl-C stops cleanly: copies in \
            flight are undone, finished items stay. Exit status: 0 when every item was imported or already \
            there, 1 when any failed, 2 for a usage mistake, 130 when interrupted (143 for SIGTERM, which \
            stops as cleanly).
            """
                + Examples.text([
                    "pickup import /media/card/DCIM --into ~/Pictures/Library",
                    "pickup import Downloads/*.mov --into Library --order newest --limit 10",
                    "pickup import Phone/ --into Library --filter 'images,!screenshots' --json",
                ]))

    @Argument(
        help: ArgumentHelp(
            "Files or folders to import; folders are scanned with everything below them.", valueName: "SOURCE"))
    var arguments: [String] = []

    /// Taken and unused: import always scans folders with everything below them, and `-r`, as
    /// probe, thumb, export and upload take it, should not fail a first try.
    @Flag(name: [.customLong("recursive"), .customShort("r")], help: .hidden)
    var recursive = false

    @Option(
        name: [.customLong("into"), .customShort("o")],
        help: ArgumentHelp("The library folder (created when missing).", valueName: "DIR"), completion: .directory)
    var into: String?

    @Option(
        name: [.customLong("filter")],
        help: ArgumentHelp(
            "Only these kinds: images, videos, livePhotos, screenshots, screenRecordings, slomoVideos, bursts, panoramas, depthPhotos. Commas: any of them; '!' excludes one from the whole selection (images,!screenshots: images that are not screenshots); repeat --filter to require all.",
            valueName: "F"),
        completion: .list([
            "images", "videos", "livePhotos", "screenshots", "screenRecordings", "slomoVideos", "bursts", "panoramas",
            "depthPhotos",
        ]))
    var filter: [String] = []

    @Option(
        name: [.customLong("limit")],
        help: ArgumentHelp(
            "Import at most N items the library does not hold yet (0: no limit): run again, the next N.",
            valueName: "N"))
    var limit = 0

    @Option(
        name: [.customLong("order")],
        help: ArgumentHelp(
            "selected (as given), newest or oldest (by creation date), name (IMG_9 before IMG_10).",
            valueName: "ORDER"),
        completion: .list(ImportOrder.allCases.map(\.rawValue)))
    var order = ImportOrder.selected.rawValue

    @Option(
        name: [.customLong("parallel")],
        help: ArgumentHelp(
            "Large items copied at once, 1 to 64; small ones, more within the same memory (up to 256).", valueName: "N")
    )
    var parallel = 2

    @Option(
        name: [.customLong("thumbnails")],
        help: ArgumentHelp(
            "Make an upright JPEG thumbnail of each item (filling WxH), kept in DIR/.pickup/thumbnails.",
            valueName: "WxH"))
    var thumbnails: String?

    @Flag(
        name: [.customLong("follow-links")],
        help: "Follow symbolic links that lead out of the folders named (not followed by default).")
    var followLinks = false

    @Flag(name: [.customLong("json")], help: "Print one JSON object a line: each item's result, in order.")
    var json = false

    @Option(
        name: .customLong("layout"),
        help: ArgumentHelp(
            "Where new items go in the library: flat (all in DIR) or date (DIR/YYYY/MM/ by the "
                + "date they were taken, DIR/undated/ when they say none).", valueName: "LAYOUT"),
        completion: .list(["flat", "date"]))
    var layout = "flat"

    @Flag(
        name: .customLong("dry-run"),
        help: ArgumentHelp(
            "Say what would be imported, what is already there and what is left alone, and the bytes; "
                + "write nothing (the library folder is not even made)."))
    var dryRun = false

    @Flag(
        name: .customLong("rehash"),
        help: ArgumentHelp(
            "Read every source again and compare it by SHA-256, even one the library knows by its path, size "
                + "and time (a changed byte that kept both is then found), and the library's copy of each item "
                + "found there (one that rotted is put back from the source); slower."))
    var rehash = false

    @OptionGroup var progress: ProgressOptions

    @OptionGroup var files: FileListOptions

    func job() throws -> ImportJob { try ImportJob(self) }
}

/// What the command does, from its checked arguments.
struct ImportJob: CommandJob {
    let sources: [String]
    let destination: String
    /// What is taken from the sources, and in what order (the walk, the filter, the limit).
    let scanning: ImportScan.Options
    /// How the library takes it (items at once, the layout, `--rehash`).
    let importing: ImportOptions
    let json: Bool
    let thumbnails: PixelSize?
    let progress: ProgressOptions
    let dryRun: Bool

    init(_ command: ImportCommand) throws(ValidationError) {
        try command.files.requirePaths(command.arguments, "name at least one file or folder to import")
        guard let destination = command.into else {
            throw ValidationError("say where to import with --into DIR")
        }
        let (sources, listed) = try command.files.sources(command.arguments)
        self.sources = sources
        try OutputCheck.utf8(destination, option: "--into")
        try ImportJob.checkLibrary(destination, sources: sources)
        self.destination = destination
        var filters: [MediaFilter] = []
        for text in command.filter {
            do {
                filters.append(try MediaFilter(parsing: text))
            } catch {
                // "unknown filter 'imgaes' (did you mean 'images'?); use ..."
                let guess = UnknownOptions.guess(error.name, among: MediaFilter.named.keys)
                throw ValidationError(
                    error.description.replacingOccurrences(of: "'\(error.name)';", with: "'\(error.name)'\(guess);"))
            }
        }
        let filter = filters.isEmpty ? nil : (filters.count == 1 ? filters[0] : .all(of: filters))
        let limit = command.limit
        guard limit >= 0 else {
            throw ValidationError("--limit takes a whole number, 0 or more")
        }
        guard let order = ImportOrder(rawValue: command.order) else {
            throw ValidationError(
                "--order takes selected, newest, oldest or name, not '\(command.order)'"
                    + UnknownOptions.guess(command.order, among: ImportOrder.allCases.map(\.rawValue)))
        }
        if let text = command.thumbnails {
            thumbnails = try SizeOption.parse(text, option: "--thumbnails", example: "256x256", most: 16_000_000)
        } else {
            thumbnails = nil
        }
        let parallel = try OptionRange.whole(command.parallel, 1...64, flag: "--parallel")
        json = command.json
        progress = command.progress
        dryRun = command.dryRun
        guard let layout = ImportLayout(rawValue: command.layout) else {
            throw ValidationError(
                "--layout takes flat or date, not '\(command.layout)'"
                    + UnknownOptions.guess(command.layout, among: ImportLayout.allCases.map(\.rawValue)))
        }
        scanning = ImportScan.Options(
            followLinks: command.followLinks, selection: command.files.selection, filter: filter, order: order,
            limit: limit, listed: listed, rehash: command.rehash)
        importing = ImportOptions(concurrency: parallel, layout: layout, rehash: command.rehash)
    }

    /// Refuses, before anything is read or made, a library that cannot be one: `--into` a file,
    /// or a new library in a folder being imported or around a file named (a mixed-up `--into`
    /// that would make a library of the card itself). An existing library is opened as it is:
    /// what lies inside it is its own.
    static func checkLibrary(_ destination: String, sources: [String]) throws(ValidationError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isFolder), !isFolder.boolValue {
            throw ValidationError(
                "--into \(destination) is a file, not a folder: name the library's folder (a new name makes one)")
        }
        let library = SystemPath.resolvedAsMade(destination)
        guard !FileManager.default.fileExists(atPath: LibraryFolder(existing: destination).catalogPath) else { return }
        for source in sources {
            let path = SystemPath.resolved(source) ?? SystemPath.absolute(source)
            let around = library == path || library.hasPrefix(path + "/")
            guard around || path.hasPrefix(library + "/") else { continue }
            let (inner, outer) = around ? (destination, source) : (source, "--into " + destination)
            throw ValidationError(
                "\(inner) lies inside \(outer): a new library would hold the files it imports. Name a library "
                    + "folder apart from what you import (--into ~/Pictures/Library)")
        }
    }

    func run() async -> Int32 {
        // An empty list (`find` that found nothing): nothing to do, and no library made for it.
        if sources.isEmpty {
            Console.error("pickup import: the list named no files; nothing to import, nothing was made")
            return ExitStatus.success
        }
        // A dry run makes nothing, not even the library folder: it reads the catalog if there is one.
        var session: ImportSession?
        if !dryRun {
            do {
                session = try ImportSession(destination: destination, options: importing)
            } catch {
                Console.error(Text.clean("pickup import: " + error.description))
                return ExitStatus.someFailed
            }
        }
        let library = session?.library ?? LibraryFolder(existing: destination)
        // A dry run reads the catalog there is, as the run would: what it holds is already there
        // and does not count against --limit.
        // (Opened to read, it makes nothing: none where there is no catalog.)
        let catalog = session?.catalog ?? (try? ImportCatalog(folder: library.path, readOnly: true))
        let scan = await ImportScan.scan(sources, into: library, catalog: catalog, options: scanning)
        var failures = scan.failures.count
        for (path, error) in scan.failures { report(path: path, error: error) }
        let plan = scan.plan
        let leftAlone = scan.notMedia
        let leftAloneCount = leftAlone.count + scan.passedOver.count
        let notMedia = "not a photo or video"
        if json {
            let all =
                scan.notSelected.map { ($0, FileListOptions.notTaken) } + scan.passedOver
                + leftAlone.map { ($0, notMedia) }
            for (path, reason) in all { Console.out(JSONObject.leftAlone(path: path, reason: reason).text) }
        } else {
            let link = "a symbolic link out of the folder named"
            let all =
                scan.notSelected.map { ($0, FileListOptions.notTaken) } + leftAlone.map { ($0, notMedia) }
                + scan.passedOver.map { ($0.path, $0.reason == ImportScan.insideLibrary ? $0.reason : link) }
            let lines = NamedFiles.leftAloneLines(
                all, command: "pickup import",
                hints: [
                    link: "--follow-links follows them",
                    ImportScan.insideLibrary:
                        "the library's own files are its items already, or files it does not know "
                        + "('pickup library \(Text.shellQuoted(destination)) verify' lists them)",
                ], notTaken: scan.notTaken)
            for line in lines { Console.error(line) }
            // An empty folder (a card's mount point with no card in it) is said, not passed over.
            for line in NamedFiles.emptyFolderLines(sources, command: "pickup import") { Console.error(line) }
            for (still, movie) in scan.moviesNotNamed {
                Console.error(
                    Text.clean(
                        "pickup import: \(movie), beside \(still), is not named, so it is not copied with it: a "
                            + "Live Photo's movie goes with its still when both are named, or their folder (the "
                            + "library joins them when it holds the movie already, or imports it later)"))
            }
        }
        for (path, error) in plan.skipped {
            report(path: path, error: error)
        }
        guard let session else {
            await dryRunReport(
                plan, library: library.path, catalog: catalog, leftAlone: leftAloneCount, notTaken: scan.notTaken,
                failed: failures)
            return failures > 0 ? ExitStatus.someFailed : ExitStatus.success
        }

        let run = session.start(plan.requests)
        let interrupted = InterruptWatch { run.cancel() }
        var bar: ProgressBar?
        let showBar = !json && progress.showsProgress && Console.errorIsTerminal
        var done = 0
        // Several items copy at once: each one's bytes are counted apart, so the bar never goes back.
        var bytesFinished: Int64 = 0
        var inFlight: [Int: (name: String, bytes: Int64, total: Int64)] = [:]
        var current = ""
        func bytesDone() -> Int64 { bytesFinished + inFlight.values.reduce(0) { $0 + $1.bytes } }
        for await event in run.events {
            switch event {
            case .planned(let items, let bytes):
                if showBar { bar = ProgressBar(totalItems: items, totalBytes: bytes) }
            case .started(let index, let name, let total):
                inFlight[index] = (name, 0, total)
                current = name
            case .progress(let index, let bytes, _):
                inFlight[index]?.bytes = bytes
                current = inFlight[index]?.name ?? current
                bar?.draw(
                    itemsDone: done, bytesDone: bytesDone(), current: current, alsoRunning: max(0, inFlight.count - 1))
            case .finished(let index, let result):
                // One stopped by Ctrl-C counts in neither bar: the bar shows what was done.
                let stopped = result.error?.code == .cancelled
                let started = inFlight.removeValue(forKey: index)
                if !stopped {
                    done += 1
                    // Its whole size, copied or already there, as the plan counted it (looked up only
                    // for an item that never started: one reused without a copy).
                    bytesFinished +=
                        started?.total ?? plan.requests[index].parts.reduce(Int64(0)) { $0 + ImportJob.size($1.path) }
                }
                bar?.draw(
                    itemsDone: done, bytesDone: bytesDone(), current: current, alsoRunning: max(0, inFlight.count - 1),
                    force: true)
                if !showBar, !json, !progress.quiet, !stopped {
                    Console.error(Text.clean(ImportJob.progressLine(plan.requests[index], result)))
                }
            case .thumbnailFailed(let index, let message):  // not asked for here: pickup-render makes them
                Console.error(Text.clean("pickup import: no thumbnail for \(plan.requests[index].path): \(message)"))
            case .completed: bar?.finish()
            }
        }
        var results = await run.results()
        interrupted.stop()
        if let thumbnails, !interrupted.fired {
            results = await ImportJob.addThumbnails(results, size: thumbnails, session: session)
        }
        let storedWidth = max(9, results.compactMap(\.item).map { Text.columns(ItemTable.storedNames($0)) }.max() ?? 0)
        // No table without a row: a folder with nothing to import gets its closing line only.
        let anyRow = results.contains { $0.item != nil }
        var output = json || !anyRow ? "" : ItemTable.importHeader(storedWidth: storedWidth)
        for (request, result) in zip(plan.requests, results) {
            if json {
                output += ImportJob.jsonLine(request, result)
            } else if let item = result.item {
                output += ItemTable.importRow(
                    item, note: ImportJob.status(result), source: request.path, storedWidth: storedWidth)
            }
            if let error = result.error {
                failures += 1
                // Stopped by Ctrl-C: counted once in the summary, not a failure line each.
                if !json, error.code != .cancelled { Console.error(Text.clean("pickup import: " + error.description)) }
            }
        }
        let stopped = results.filter { $0.error?.code == .cancelled }.count
        let imported = results.filter { if case .imported = $0 { return true } else { return false } }.count
        let reused = results.filter { if case .reused = $0 { return true } else { return false } }.count
        let restored = results.filter { if case .restored = $0 { return true } else { return false } }.count
        let completed = results.filter { if case .completed = $0 { return true } else { return false } }.count
        if !json {
            let failed = results.count - imported - reused - restored - completed - stopped
            let notImported = failures - failed - stopped  // files that never became items: unreadable, not media...
            output +=
                (output.isEmpty ? "" : "\n") + "\(plan.requests.count) item\(plan.requests.count == 1 ? "" : "s"): "
                + "\(imported) imported, \(reused) already there, "
                + (restored > 0 ? "\(restored) restored, " : "") + (completed > 0 ? "\(completed) completed, " : "")
                + "\(failed) failed"
                + (stopped > 0 ? ", \(stopped) not imported (interrupted: the same command again imports them)" : "")
                // Files that failed before they became items (empty, cut short): failures too, and
                // the exit status says so.
                + (notImported > 0
                    ? "; \(notImported) other \(notImported == 1 ? "file" : "files") failed (see above)" : "")
                + FileListOptions.setAside(leftAlone: leftAloneCount, notTaken: scan.notTaken)
                + ImportJob.leftOut(plan) + ". "
                + ImportJob.written(results) + "Library: \(session.destination)\n"
        }
        Console.raw(output)
        if interrupted.fired { return interrupted.status }
        return failures == 0 ? ExitStatus.success : ExitStatus.someFailed
    }
}

extension ImportJob {
    /// Makes the items' thumbnails in `pickup-render` (which links FFmpeg), then reads the
    /// items back from the catalog with their thumbnails.
    static func addThumbnails(
        _ results: [ImportResult], size: PixelSize, session: ImportSession
    ) async
        -> [ImportResult]
    {
        let ids = results.compactMap { $0.item?.id }
        guard !ids.isEmpty else { return results }
        let (status, _) = await RenderCommands.run(["thumbnails", session.destination, "--size", "\(size)"] + ids)
        if status != 0 { Console.error("pickup import: some thumbnails could not be made (see above)") }
        var updated: [ImportResult] = []
        for result in results {
            guard let id = result.item?.id, let item = try? await session.catalog.item(id: id) else {
                updated.append(result)
                continue
            }
            switch result {
            case .imported: updated.append(.imported(item))
            case .reused: updated.append(.reused(item))
            case .restored: updated.append(.restored(item))
            case .completed(_, let added): updated.append(.completed(item, added: added))
            case .failed: updated.append(result)
            }
        }
        return updated
    }
}
