import ArgumentParser
import Foundation
import Pickup
import PickupCommandLine
import PickupFFmpeg
import PickupImport

/// `pickup export`: a video made ready for upload.
struct ExportCommand: JobCommand {
    static let configuration = RenderCommands.export

    @OptionGroup var options: ExportArguments

    func job() throws -> ExportJob { try ExportJob(options) }
}

/// What the command does, from its checked arguments.
struct ExportJob: CommandJob {
    /// Each video and the file its export is written to.
    let jobs: [(file: String, output: String)]
    /// The files read, by identity: no output is written over one.
    let inputs: OutputCheck.Inputs
    /// Files in the folders named that are not videos, passed over.
    let leftAlone: [(path: String, reason: String)]
    /// How many files in the folders the --include/--exclude patterns did not take.
    let notTaken: Int
    /// The folders named that are empty, said so.
    let emptyFolders: [String]
    /// Paths in the folders that could not be read: failures, as thumb reports them.
    let unreadable: [(path: String, message: String)]
    /// The folder the exports go to, when -o names one.
    let folder: String?
    /// Whether `-o` names the one file written (not a folder, not Pickup's name in one).
    let outputNamed: Bool
    let options: ExportOptions
    let json: Bool
    let force: Bool
    /// Plans only: nothing is written, no folder made.
    let dryRun: Bool
    let progress: ProgressOptions

    init(_ command: ExportArguments) throws(ValidationError) {
        try command.files.requirePaths(
            command.arguments, "name a video to export (or, with --recursive, a folder of them)")
        try OutputCheck.utf8(command.output, option: "-o")
        // Folders with --recursive: the videos in them; other files are left alone.
        let sources = try command.files.sources(command.arguments)
        let named = try NamedFiles(
            sources.paths, recursive: command.recursive, doing: "export the videos in it",
            takes: { MediaNames.videoExtensions.contains(($0 as NSString).pathExtension.lowercased()) },
            other: "not a video", selection: command.files.selection, listed: sources.listed, outputs: command.output)
        let files = named.files
        let leftAlone = named.leftAlone
        notTaken = named.notTaken
        emptyFolders = named.emptyFolders
        // One video named to a named file; several, or those of a folder or a list (even one),
        // into a folder (-o, or here).
        let outputIsFolder = command.output.map { $0.hasSuffix("/") || FileWalker.isFolder($0) } ?? false
        let several = files.count > 1 || named.searched
        if several, let output = command.output, !outputIsFolder, !(output as NSString).pathExtension.isEmpty {
            throw ValidationError(
                "-o \(output): with \(files.count > 1 ? "several videos" : "a folder or a list"), -o names a folder "
                    + "to write their exports in")
        }
        let folder = command.output.flatMap { several || outputIsFolder ? $0 : nil }
        self.folder = folder
        outputNamed = folder == nil && command.output != nil && files.count == 1
        guard let name = command.preset else {
            throw ValidationError("choose a --preset (passthrough, 1920x1080, hevc-highest...)")
        }
        guard let preset = ExportPreset(rawValue: name) else {
            throw ValidationError(
                "no preset '\(name)'" + UnknownOptions.guess(name, among: ExportPreset.allCases.map(\.rawValue))
                    + "; choose one of "
                    + ExportPreset.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let trim = try command.trim.map(ExportJob.trim)
        var maxBytes: Int64?
        if let text = command.maxSize { maxBytes = try ExportJob.bytes(text) }
        if command.compatible, preset.codec == .hevc {
            throw ValidationError(
                "--compatible makes H.264 for players without HEVC, but \(preset.rawValue) encodes HEVC; "
                    + "choose an H.264 preset (such as \(preset == .hevc3840x2160 ? "3840x2160" : "1920x1080")) "
                    + "or leave out --compatible")
        }
        // The output's extension says the container; a name that says another format is refused.
        var container: ExportContainer = command.mov ? .mov : .mp4
        // A new name without an extension could mean a folder: asked, not guessed.
        if folder == nil, let output = command.output, (output as NSString).pathExtension.isEmpty,
            !FileManager.default.fileExists(atPath: output)
        {
            throw ValidationError(
                "-o \(output) has no extension: name the export (\(output).\(container.fileExtension)) or a "
                    + "folder to write it in (\(output)/)")
        }
        if folder == nil, let output = command.output, !(output as NSString).pathExtension.isEmpty {
            let named = (output as NSString).pathExtension.lowercased()
            switch named {
            case "mp4", "m4v":
                guard !command.mov else {
                    throw ValidationError("-o \(output) names an MP4 file but --mov asks for QuickTime; give one")
                }
                container = .mp4
            case "mov", "qt": container = .mov
            default:
                throw ValidationError(
                    "-o \(output): pickup export writes MP4 or QuickTime (.mov), not .\(named); "
                        + "name the output .mp4 or .mov")
            }
        }
        options = ExportOptions(
            preset: preset, container: container, trim: trim, stripLocation: command.stripLocation,
            maxBytes: maxBytes, compatible: command.compatible)
        func path(_ base: String) -> String {
            let name = "\(base)-\(preset.rawValue).\(container.fileExtension)"
            return folder.map { ($0 as NSString).appendingPathComponent(name) } ?? name
        }
        // With what earlier runs made (`OutputNames`).
        let names = OutputNames.of(files) { OutputRecord.source(of: path($0)) }
        jobs = zip(files, names).map { file, base in
            if folder == nil, files.count == 1, let output = command.output { return (file, output) }
            return (file, path(base))
        }
        inputs = OutputCheck.Inputs(files)
        self.leftAlone = leftAlone
        unreadable = named.unreadable
        json = command.json
        force = command.force
        dryRun = command.dryRun
        progress = command.progress
    }

    /// The range `--trim` names: `START-END`, `START-` (to the end: an infinite upper bound) or
    /// `-END` (from the start), each time in seconds or m:ss.
    static func trim(_ text: String) throws(ValidationError) -> ClosedRange<Double> {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let usage = "give START-END in seconds or m:ss, like 1.5-10 or 0:05-1:30 (0:05- for the rest of the video)"
        guard parts.count == 2, !(parts[0].isEmpty && parts[1].isEmpty) else {
            throw ValidationError("--trim \(text) is not a time range: \(usage)")
        }
        guard let start = parts[0].isEmpty ? 0 : FrameTime.seconds(parsing: parts[0]),
            let end = parts[1].isEmpty ? .infinity : FrameTime.seconds(parsing: parts[1])
        else {
            throw ValidationError(
                "--trim \(text): a time is not seconds or m:ss (seconds and minutes after a colon are under 60, "
                    + "at most 99999:59:59); " + usage)
        }
        guard end > start else {
            throw ValidationError(
                end == start
                    ? "--trim \(text) is empty: it ends where it starts; give an END after START"
                    : "--trim \(text) ends before it starts; give START first, like \(parts[1])-\(parts[0])")
        }
        return start...end
    }

    /// `--max-size`: a number (digits and one point: `Double` would also read `0x10` and `1e3`),
    /// then a unit: k, M, G, T (thousands) or KiB, MiB, GiB, TiB (1024s), any case, B optional;
    /// or whole bytes. Each way it can be wrong is said.
    static func bytes(_ text: String) throws(ValidationError) -> Int64 {
        let example = "like 25MB, 800k, 1.5G or 25MiB, or whole bytes"
        // Taken whatever it looks like (`-5M`): an option in its place means the size is missing.
        if text.hasPrefix("--") { throw ValidationError("--max-size needs a size before \(text): give one \(example)") }
        var lower = Substring(text.lowercased().replacingOccurrences(of: " ", with: ""))
        if lower.hasSuffix("b") { lower = lower.dropLast() }
        let binary = lower.hasSuffix("i")
        if binary { lower = lower.dropLast() }
        let units: [Character: Double] = ["k": 1, "m": 2, "g": 3, "t": 4]
        var scale: Double?
        if let unit = lower.last, let power = units[unit] {
            scale = pow(binary ? 1024 : 1000, power)
            lower = lower.dropLast()
        } else if binary || lower.last.map({ !$0.isNumber && $0 != "." }) == true {
            throw ValidationError(
                "--max-size \(text): the unit is k, M, G or T (or KiB, MiB, GiB, TiB); give a size \(example)")
        }
        guard let value = DecimalText.value(lower) else {
            let sign = text.trimmingCharacters(in: .whitespaces).hasPrefix("-") ? "a size is above 0; " : ""
            throw ValidationError("--max-size \(text): \(sign)give a size \(example)")
        }
        guard scale != nil || value == value.rounded() else {
            throw ValidationError("--max-size \(text): bytes are whole; give a unit for a fraction (1.5M)")
        }
        let bytes = value * (scale ?? 1)
        // Past 9 EB a Double is no Int64.
        guard bytes < 9e18 else {
            throw ValidationError("--max-size \(text): more than any file holds; give a size \(example)")
        }
        guard bytes >= 1 else { throw ValidationError("--max-size \(text): a size is above 0; give one \(example)") }
        return Int64(bytes)
    }

    func run() async -> Int32 {
        for (path, reason) in leftAlone where json {
            Console.out(JSONObject.leftAlone(path: path, reason: reason).text)
        }
        if !json, !progress.quiet {
            for line in NamedFiles.leftAloneLines(
                leftAlone, command: "pickup export", hints: NamedFiles.outputHints, notTaken: notTaken)
            {
                Console.error(line)
            }
            for line in NamedFiles.emptyFolderLines(emptyFolders, command: "pickup export") { Console.error(line) }
        }
        // A folder this run makes and writes nothing in (a failure, Ctrl-C) is not left behind.
        let madeFolder = folder.map { !dryRun && !FileManager.default.fileExists(atPath: $0) } ?? false
        if let folder, !dryRun {
            guard OutputCheck.makeFolder(folder, for: "pickup export") else { return ExitStatus.someFailed }
        }
        defer { if madeFolder, let folder { rmdir(folder) } }  // only an empty folder goes
        // What a killed export left in these folders goes (once each, not per video).
        if !dryRun {
            for place in Set(jobs.map { ($0.1 as NSString).deletingLastPathComponent }) {
                RenderTemporaries.sweep(place)
            }
        }
        var failed = !unreadable.isEmpty
        for (path, message) in unreadable {
            _ = report(RenderError(.unreadable, message, path: path, hint: FileWalker.hint(forProblemAt: path)), path)
        }
        var counts = (exported: 0, there: 0, failed: unreadable.count)
        for (file, output) in jobs {
            // Pickup's own name for an output (not -o's file) may be one an earlier run made.
            let made = OutputRecord(source: file, options: "export \(options)")
            let fate = OutputCheck.fate(of: output, as: outputNamed ? nil : made, inputs: inputs, force: force)
            let status = await export(file, to: output, fate: fate, made: made)
            // Stopped by a signal (128 and its number: Ctrl-C, SIGTERM): the rest are not begun.
            if status > 128 { return status }
            if status != ExitStatus.success {
                failed = true
                counts.failed += 1
            } else if fate == .alreadyThere {
                counts.there += 1
            } else {
                counts.exported += 1
            }
        }
        // Several videos: one closing line, as import and upload give.
        if !json, !dryRun, jobs.count + unreadable.count > 1 {
            Console.out(
                "\n\(jobs.count + unreadable.count) videos: \(counts.exported) exported, \(counts.there) already there, "
                    + "\(counts.failed) failed"
                    + FileListOptions.setAside(leftAlone: leftAlone.count, notTaken: notTaken, said: !progress.quiet)
                    + ".")
        }
        return failed ? ExitStatus.someFailed : ExitStatus.success
    }

    /// One video's export, as its output's `fate` allows: its plan, its progress, and the file
    /// written or the error.
    private func export(_ file: String, to output: String, fate: OutputCheck.Fate, made: OutputRecord?) async -> Int32 {
        switch fate {
        case .write: break
        case .alreadyThere:
            // Run again, an export an earlier run made is left as it is.
            Console.out(OutputCheck.alreadyThere(output, source: file, json: json))
            return ExitStatus.success
        case .writeAgain(let why):
            // Made before its video last changed (trimmed, edited), or with other options: made
            // again, and said so.
            if !json {
                Console.error(
                    Text.clean("\(file): \(output) \(dryRun ? "would be" : "is") made again: \(why.text)"))
            }
        case .refused(let message, let hint):
            return report(RenderError(.writeFailed, message, path: file, hint: hint), file)
        }
        let again = fate.isAgain
        if dryRun { return plan(file, to: output, madeAgain: again) }
        let (events, continuation) = AsyncStream<ExportEvent>.makeStream()
        let exporter = FFmpegExporter()
        let work = Task { () async throws(RenderError) -> ExportResult in
            defer { continuation.finish() }
            return try await exporter.export(file, to: output, options, events: continuation)
        }
        let interrupted = InterruptWatch { work.cancel() }
        // The bar counts the source's bytes, by media time, so that its rate is the source read a second.
        let sourceBytes = max(1, FFmpegExporter.sizeOnDisk(file))
        var bar: ProgressBar? =
            !json && progress.showsProgress && Console.errorIsTerminal
            ? ProgressBar(totalItems: 1, totalBytes: sourceBytes) : nil
        var lastTenth = -1
        // Without a terminal, a line each tenth, once the export has taken two seconds: a remux
        // that is done at once says only that it is done.
        let began = ContinuousClock.now
        for await event in events {
            switch event {
            case .planned(let plan):
                if json {
                    Console.out(ExportJob.planLine(plan, file: file, output: output, madeAgain: again).text)
                } else if !progress.quiet {
                    Console.error(Text.clean("\(file): \(plan.reason)"))
                }
            case .progress(let fraction):
                if bar != nil {
                    bar?.draw(
                        itemsDone: 0, bytesDone: Int64(fraction * Double(sourceBytes)),
                        current: Text.clean((file as NSString).lastPathComponent))
                } else if !json, progress.showsProgress, Int(fraction * 10) > lastTenth,
                    began.duration(to: .now) >= .seconds(2)
                {
                    lastTenth = Int(fraction * 10)
                    Console.error(Text.clean("\(file): \(lastTenth * 10)%"))
                }
            case .finished: break
            }
        }
        bar?.finish()
        let result = await work.result
        interrupted.stop()
        if interrupted.fired {
            Console.error("pickup export: interrupted; nothing was written")
            return interrupted.status
        }
        switch result {
        case .success(let done):
            made?.write(on: done.path)
            if json {
                var object = JSONObject()
                object.add("type", "export")
                object.add("path", done.path)
                object.add("source", file)
                object.add("bytes", done.bytes)
                object.add("seconds", (done.seconds * 100).rounded() / 100)
                object.add("madeAgain", again)
                Console.out(object.text)
            } else {
                Console.out(
                    Text.clean(
                        "\(file) → \(done.path) \(Text.byteCount(done.bytes)) in \(Text.fixed(done.seconds, 2)) s"))
            }
            return ExitStatus.success
        case .failure(let failure):
            return report((failure as? RenderError) ?? RenderError(.cancelled, "the export stopped"), file)
        }
    }

    /// `--dry-run`: the plan alone (the probe's facts against the preset), nothing written.
    private func plan(_ file: String, to output: String, madeAgain: Bool) -> Int32 {
        do throws(RenderError) {
            let plan = try FFmpegExporter().plan(file, options)
            if json {
                Console.out(ExportJob.planLine(plan, file: file, output: output, madeAgain: madeAgain).text)
            } else {
                let how = plan.isPassthrough ? "would copy its streams as they are" : "would re-encode it"
                Console.out(Text.clean("\(file) → \(output): \(how) (\(plan.reason))"))
            }
            return ExitStatus.success
        } catch {
            return report(error, file)
        }
    }

    /// `{"type": "plan", "path": the file to be written, "source": the file it is made from, ...,
    /// "madeAgain": whether it replaces an export made before its video last changed}`.
    static func planLine(_ plan: ExportPlan, file: String, output: String, madeAgain: Bool) -> JSONObject {
        var object = JSONObject()
        object.add("type", "plan")
        object.add("path", output)
        object.add("source", file)
        object.add("plan", plan.isPassthrough ? "remux" : "encode")
        object.add("reason", plan.reason)
        object.add("madeAgain", madeAgain)
        return object
    }

    private func report(_ error: RenderError, _ file: String) -> Int32 {
        RenderCommands.printFailure(error, file: file, command: "pickup export", json: json)
        return ExitStatus.someFailed
    }
}
