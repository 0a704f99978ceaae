import ArgumentParser
import Foundation
import Pickup
import PickupCommandLine
import PickupFFmpeg
import PickupImport

/// `pickup thumb`: thumbnails, poster frames and strips, upright.
struct ThumbCommand: JobCommand {
    static let configuration = RenderCommands.thumb

    @OptionGroup var options: ThumbArguments

    func job() throws -> ThumbJob { try ThumbJob(options) }
}

/// What the command does, from its checked arguments.
struct ThumbJob: CommandJob {
    let files: [String]
    /// The files read, by identity: no output is written over one.
    let inputs: OutputCheck.Inputs
    /// Files in the folders named that are not photos or videos, passed over.
    let leftAlone: [(path: String, reason: String)]
    /// How many files in the folders the --include/--exclude patterns did not take.
    let notTaken: Int
    /// The folders named that are empty, said so.
    let emptyFolders: [String]
    /// Paths that could not be read.
    let unreadable: [(path: String, message: String)]
    /// Whether `output` names the one image made (else it is a folder).
    let single: Bool
    let request: ThumbnailRequest
    let strip: Int?
    let output: String?
    let json: Bool
    let force: Bool
    /// Names the images only: nothing is rendered or written, no folder made.
    let dryRun: Bool
    /// No notes about files passed over (`-q`): images, plans and failures only.
    let quiet: Bool

    init(_ command: ThumbArguments) throws(ValidationError) {
        try command.files.requirePaths(command.arguments, "name at least one photo or video")
        try OutputCheck.utf8(command.output, option: "-o")
        let size = try SizeOption.parse(
            command.size, option: "--size", example: "320x240", most: 64_000_000)
        guard let time = FrameTime(parsing: command.at) else {
            let text = command.at
            let why =
                text.hasPrefix("-")
                ? "a time counts from the start, so it is 0 or more; "
                : FrameTime.percent(parsing: text) != nil
                    ? "a share of the video is 0% to 100%; "
                    : (Double(text) ?? 0) > FrameTime.latestSeconds ? "a time is at most 99999:59:59; " : ""
            throw ValidationError("--at \(text): \(why)give seconds (12.5), m:ss (1:05), a share (25%) or poster")
        }
        let asked = command.format.flatMap { ImageFormat(rawValue: $0.lowercased()) }
        if let format = command.format, asked == nil {
            throw ValidationError(
                "--format takes jpeg, png or webp, not '\(format)'"
                    + UnknownOptions.guess(format, among: ["jpeg", "png", "webp"]))
        }
        // Folders with --recursive: the media in them; files in them that are not media are left alone.
        let sources = try command.files.sources(command.arguments)
        let named = try NamedFiles(
            sources.paths, recursive: command.recursive, doing: "make thumbnails of what is in it",
            takes: MediaNames.namedAsMedia, other: "not a photo or video", selection: command.files.selection,
            listed: sources.listed, outputs: command.output)
        files = named.files
        inputs = OutputCheck.Inputs(named.files)
        leftAlone = named.leftAlone
        notTaken = named.notTaken
        emptyFolders = named.emptyFolders
        unreadable = named.unreadable
        // One file named and one image: -o names the image; otherwise (a folder or a list, even
        // of one file) -o is a folder.
        single =
            files.count == 1 && !named.searched && command.strip == nil
            && command.output.map { !$0.hasSuffix("/") && !FileWalker.isFolder($0) } ?? false
        // Several images to one image's name would make a folder named like an image: refused.
        if files.count > 1 || command.strip != nil || named.searched, let output = command.output,
            !output.hasSuffix("/"),
            !FileWalker.isFolder(output),
            ImageFormat(fileExtension: (output as NSString).pathExtension) != nil
        {
            let what =
                files.count > 1
                ? "\(files.count) files give \(files.count) images"
                : command.strip != nil ? "--strip gives several images" : "a folder or a list gives an image a file"
            throw ValidationError(
                "-o \(output) names one image, but \(what); name a folder to write them in (-o thumbs/)")
        }
        // One image to a named file: its extension says the format; a name that says another is refused.
        var format = asked ?? .jpeg
        // A new name without an extension could mean a folder: asked, not guessed.
        if single, let output = command.output, (output as NSString).pathExtension.isEmpty,
            !FileManager.default.fileExists(atPath: output)
        {
            throw ValidationError(
                "-o \(output) has no extension: name the image (\(output).\((asked ?? .jpeg).fileExtension)) or "
                    + "a folder to write it in (\(output)/)")
        }
        if single, let output = command.output, !(output as NSString).pathExtension.isEmpty {
            let named = (output as NSString).pathExtension
            guard let fromName = ImageFormat(fileExtension: named) else {
                throw ValidationError(
                    "-o \(output): pickup thumb writes JPEG, PNG or WebP, not .\(named); name the image "
                        + ".jpg, .png or .webp")
            }
            if let asked, asked != fromName {
                throw ValidationError(
                    "-o \(output) names a \(fromName.rawValue.uppercased()) image but --format is \(asked.rawValue); "
                        + "give one of them")
            }
            format = fromName
        }
        // Digits and one point (`DecimalText`: `Double` alone takes 0x0.8 and 1e-1).
        guard let quality = DecimalText.value(command.quality), (0...1).contains(quality) else {
            throw ValidationError("--quality takes a number from 0 to 1")
        }
        if command.fill && command.fit {
            throw ValidationError("choose --fill or --fit, not both")
        }
        if let count = command.strip {
            guard (1...200).contains(count) else {
                throw ValidationError("--strip takes a number of frames from 1 to 200")
            }
            strip = count
        } else {
            strip = nil
        }
        request = ThumbnailRequest(
            size: size, mode: command.fit ? .fit : .fill, format: format, quality: quality, time: time,
            tolerance: command.exact ? .exact : .keyframe)
        output = command.output
        json = command.json
        force = command.force
        dryRun = command.dryRun
        quiet = command.quiet
    }

    func run() async -> Int32 {
        for (path, reason) in leftAlone {
            if json { Console.out(JSONObject.leftAlone(path: path, reason: reason).text) }
        }
        if !json, !quiet {
            for line in NamedFiles.leftAloneLines(
                leftAlone, command: "pickup thumb", hints: NamedFiles.outputHints, notTaken: notTaken)
            {
                Console.error(line)
            }
            for line in NamedFiles.emptyFolderLines(emptyFolders, command: "pickup thumb") { Console.error(line) }
        }
        for (path, message) in unreadable {
            fail(path, RenderError(.unreadable, message, path: path, hint: FileWalker.hint(forProblemAt: path)))
        }
        if dryRun { return plan() }
        // A folder this run makes and writes nothing in (a failure, Ctrl-C) is not left behind.
        let madeFolder = !single && output.map { !FileManager.default.fileExists(atPath: $0) } ?? false
        if !single, let output {
            guard OutputCheck.makeFolder(output, for: "pickup thumb") else { return ExitStatus.someFailed }
        }
        defer { if madeFolder, let output { rmdir(output) } }  // only an empty folder goes
        // What a killed run left in the folder the images go to.
        RenderTemporaries.sweep(single ? ((output ?? "") as NSString).deletingLastPathComponent : (output ?? "."))
        let bases = outputNames()
        // Files render on every core at once; results print in the order given. As many files
        // at once as cores: each video's decoder on one thread; fewer: on every core.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let workers = min(cores, files.count)  // none for an empty list
        let renderer = FFmpegThumbnailer(decoderThreads: workers >= cores ? 1 : 0)
        var outcomes = [Result<Rendered, RenderError>?](repeating: nil, count: files.count)
        var printed = 0
        var failed = false
        var counts = (made: 0, there: 0, failed: unreadable.count)
        await withTaskGroup(of: (Int, Result<Rendered, RenderError>).self) { group in
            var next = 0
            func start(_ index: Int) {
                group.addTask {
                    (index, await render(files[index], base: bases[index], renderer: renderer))
                }
            }
            while next < workers {
                start(next)
                next += 1
            }
            for await (index, outcome) in group {
                outcomes[index] = outcome
                while printed < files.count, let ready = outcomes[printed] {
                    switch ready {
                    case .success(.written(let images, let removed)):
                        counts.made += 1
                        for (image, path, again) in images { report(files[printed], image, path, again: again) }
                        for path in removed { reportRemoved(files[printed], path, planned: false) }
                    case .success(.alreadyThere(let paths)):
                        counts.there += 1
                        for path in paths { alreadyThere(files[printed], path) }
                    case .failure(let error):
                        failed = true
                        counts.failed += 1
                        fail(files[printed], error)
                    }
                    outcomes[printed] = nil
                    printed += 1
                }
                if next < files.count, !Task.isCancelled {
                    start(next)
                    next += 1
                }
            }
        }
        if Task.isCancelled { return 130 }
        // Several files: one closing line, as import and upload give.
        if !json, files.count + unreadable.count > 1 {
            Console.out(
                "\n\(files.count + unreadable.count) files: \(counts.made) made, \(counts.there) already there, "
                    + "\(counts.failed) failed"
                    + FileListOptions.setAside(leftAlone: leftAlone.count, notTaken: notTaken, said: !quiet) + ".")
        }
        return failed || !unreadable.isEmpty ? ExitStatus.someFailed : ExitStatus.success
    }

    /// What became of one file: its images written, or found made by an earlier run.
    enum Rendered {
        /// The images written, and those of an earlier, longer strip of the file removed.
        case written([(image: RenderedImage, path: String, again: OutputCheck.Again?)], removed: [String])
        case alreadyThere([String])
    }

    /// One file's images, rendered and written, with their paths; in a folder's or a list's run
    /// again, those an earlier run made after the file last changed are left as they are.
    private func render(
        _ file: String, base: String, renderer: FFmpegThumbnailer
    ) async -> Result<Rendered, RenderError> {
        let made = record(of: file)
        let writes: [(path: String, again: OutputCheck.Again?)]
        switch decide(file, base: base, made: made) {
        case .alreadyThere(let paths): return .success(.alreadyThere(paths))
        case .refused(let error): return .failure(error)
        case .write(let planned): writes = planned
        }
        do throws(RenderError) {
            let images: [RenderedImage]
            if let strip {
                images = try await renderer.strip(of: file, count: strip, request)
            } else {
                images = [try await renderer.thumbnail(of: file, request)]
            }
            var written: [(image: RenderedImage, path: String, again: OutputCheck.Again?)] = []
            for (image, (path, why)) in zip(images, writes) {
                try image.write(to: path)
                made?.write(on: path)
                written.append((image, path, why))
            }
            // Said removed only when it is (a folder that forbids it keeps the image, unsaid).
            let removed = staleStripImages(base: base, made: made).filter { unlink($0) == 0 }
            return .success(.written(written, removed: removed))
        } catch {
            return .failure(error)
        }
    }

    /// `--dry-run`: each image that would be written, and the file it would be made from; an
    /// image that exists (without --force) fails as it would.
    private func plan() -> Int32 {
        var failed = !unreadable.isEmpty
        for (file, base) in zip(files, outputNames()) {
            // A file that does not probe (empty, cut short, not media) would fail: said now, as the
            // run would say it (export's dry run probes too).
            let facts: MediaInfo
            do {
                facts = try MediaProbe().probe(path: file)
            } catch {
                failed = true
                fail(file, RenderError(probeError: error, path: file))
                continue
            }
            if facts.container.isCameraRaw, facts.preview == nil {
                failed = true
                fail(file, RenderError.rawWithoutPreview(facts.container, path: file))
                continue
            }
            let made = single ? nil : record(of: file)
            // As the run decides: a refused image fails the file, and nothing of it is planned.
            switch decide(file, base: base, made: made) {
            case .alreadyThere(let paths):
                for path in paths { alreadyThere(file, path) }
                continue
            case .refused(let error):
                failed = true
                fail(file, error)
                continue
            case .write(let writes):
                for (path, again) in writes {
                    if json {
                        var object = JSONObject()
                        object.add("type", "plan")
                        object.add("path", path)
                        object.add("source", file)
                        object.add("madeAgain", again != nil)
                        Console.out(object.text)
                    } else {
                        let what = again.map { "would be made again (\($0.text); " } ?? "would be written ("
                        Console.out(Text.clean("\(file) → \(path): \(what)--dry-run: nothing written)"))
                    }
                }
            }
            for path in staleStripImages(base: base, made: made) { reportRemoved(file, path, planned: true) }
        }
        return failed ? ExitStatus.someFailed : ExitStatus.success
    }

    private func fail(_ file: String, _ error: RenderError) {
        RenderCommands.printFailure(error, file: file, command: "pickup thumb", json: json)
    }

    /// An image an earlier run made, left as it is.
    private func alreadyThere(_ file: String, _ path: String) {
        Console.out(OutputCheck.alreadyThere(path, source: file, json: json))
    }

    private func report(_ file: String, _ image: RenderedImage, _ path: String, again: OutputCheck.Again?) {
        if json {
            // `path`: the image written; `source`: the file it was made from.
            var object = JSONObject()
            object.add("type", "image")
            object.add("path", path)
            object.add("source", file)
            object.add("width", Int64(image.size.width))
            object.add("height", Int64(image.size.height))
            object.add("format", image.format.rawValue)
            object.add("bytes", Int64(image.data.count))
            if let time = image.time {
                object.add("time", (time * 1000).rounded() / 1000)
            } else {
                object.addNull("time")
            }
            object.add("madeAgain", again != nil)
            Console.out(object.text)
        } else {
            let at =
                image.time.map {
                    // A frame's time as a player shows it: the second it is in (0.5 s is 0:00).
                    " at " + DurationLabel.string(seconds: $0.rounded(.down)) + " (" + Text.fixed($0, 2) + " s)"
                } ?? ""
            // A picture smaller than the box is not enlarged: said, not left to be found out.
            let box = request.size
            let fillsBox = image.size.width >= box.width && image.size.height >= box.height
            let fitsBox = image.size.width == box.width || image.size.height == box.height
            let smaller =
                (request.mode == .fill ? fillsBox : fitsBox)
                ? "" : " (smaller than \(box): the picture is not enlarged)"
            let remade = again.map { " (made again: \($0.text))" } ?? ""
            Console.out(
                Text.clean(
                    "\(file) → \(path) \(image.size)\(at), \(Text.byteCount(Int64(image.data.count)))\(smaller)"
                        + remade))
        }
    }
}
