import ArgumentParser
import Foundation
import Pickup
import PickupCommandLine
import PickupFFmpeg

/// `pickup export`: a video made ready for upload.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = RenderCommands.export

    @OptionGroup var options: ExportArguments

    func validate() throws {
        _ = try ExportJob(options)
    }

    func run() async throws {
        try finish(await ExportJob(options).run())
    }
}

/// What the command does, from its checked arguments.
struct ExportJob {
    let file: String
    let options: ExportOptions
    let output: String
    let json: Bool
    let force: Bool
    let progress: ProgressOptions

    init(_ command: ExportArguments) throws(ValidationError) {
        guard command.arguments.count == 1, let file = command.arguments.first else {
            throw ValidationError("name one video to export")
        }
        guard let name = command.preset else {
            throw ValidationError("choose a --preset (passthrough, 1920x1080, hevc-highest...)")
        }
        guard let preset = ExportPreset(rawValue: name) else {
            throw ValidationError(
                "no preset '\(name)'; choose one of "
                    + ExportPreset.allCases.map(\.rawValue).joined(separator: ", "))
        }
        var trim: ClosedRange<Double>?
        if let text = command.trim {
            let parts = text.split(separator: "-", maxSplits: 1).map { ExportJob.seconds(String($0)) }
            guard parts.count == 2, let start = parts[0], let end = parts[1], end > start else {
                throw ValidationError("--trim takes START-END in seconds or m:ss, like 1.5-10")
            }
            trim = start...end
        }
        var maxBytes: Int64?
        if let text = command.maxSize {
            guard let bytes = ExportJob.bytes(text), bytes > 0 else {
                throw ValidationError("--max-size takes a size like 25MB, 800k or 1.5G")
            }
            maxBytes = bytes
        }
        if command.compatible, preset.codec == .hevc {
            throw ValidationError(
                "--compatible makes H.264 for players without HEVC, but \(preset.rawValue) encodes HEVC; "
                    + "choose an H.264 preset (such as \(preset == .hevc3840x2160 ? "3840x2160" : "1920x1080")) "
                    + "or leave out --compatible")
        }
        // The output's extension says the container; a name that says another format is refused.
        var container: ExportContainer = command.mov ? .mov : .mp4
        if let output = command.output, !(output as NSString).pathExtension.isEmpty {
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
        self.file = file
        let base = Text.fileNamePart(((file as NSString).lastPathComponent as NSString).deletingPathExtension)
        output = command.output ?? "\(base)-\(preset.rawValue).\(container.fileExtension)"
        json = command.json
        force = command.force
        progress = command.progress
    }

    /// Seconds from `12.5` or `m:ss(.f)` / `h:mm:ss`.
    static func seconds(_ text: String) -> Double? {
        var total = 0.0
        for part in text.split(separator: ":", omittingEmptySubsequences: false) {
            guard let value = Double(part), value >= 0 else { return nil }
            total = total * 60 + value
        }
        return text.isEmpty ? nil : total
    }

    /// Bytes from `25MB`, `800k`, `1.5G`, `1000` (decimal units, as disks count).
    static func bytes(_ text: String) -> Int64? {
        let lower = text.lowercased().replacingOccurrences(of: "b", with: "")
        let units: [(String, Double)] = [("k", 1e3), ("m", 1e6), ("g", 1e9)]
        for (suffix, scale) in units where lower.hasSuffix(suffix) {
            return Double(lower.dropLast()).map { Int64($0 * scale) }
        }
        return Int64(lower)
    }

    func run() async -> Int32 {
        if let problem = OutputCheck.problem(writing: output, reading: [file], force: force) {
            return report(RenderError(.writeFailed, problem, path: file))
        }
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
        for await event in events {
            switch event {
            case .planned(let plan):
                if json {
                    // `path`: the file to be written; `source`: the file it is made from.
                    var object = JSONObject()
                    object.add("type", "plan")
                    object.add("path", output)
                    object.add("source", file)
                    object.add("plan", plan.isPassthrough ? "remux" : "encode")
                    object.add("reason", plan.reason)
                    Console.out(object.text)
                } else if !progress.quiet {
                    Console.error(Text.clean("\(file): \(plan.reason)"))
                }
            case .progress(let fraction):
                if bar != nil {
                    bar?.draw(
                        itemsDone: 0, bytesDone: Int64(fraction * Double(sourceBytes)),
                        current: (file as NSString).lastPathComponent)
                } else if !json, progress.showsProgress, Int(fraction * 10) > lastTenth {
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
            return 130
        }
        switch result {
        case .success(let done):
            if json {
                var object = JSONObject()
                object.add("type", "export")
                object.add("path", done.path)
                object.add("source", file)
                object.add("bytes", done.bytes)
                object.add("seconds", (done.seconds * 100).rounded() / 100)
                Console.out(object.text)
            } else {
                Console.out(
                    Text.clean(
                        "\(file) → \(done.path) \(Text.byteCount(done.bytes)) in \(Text.fixed(done.seconds, 2)) s"))
            }
            return ExitStatus.success
        case .failure(let failure):
            return report((failure as? RenderError) ?? RenderError(.cancelled, "the export stopped"))
        }
    }

    private func report(_ error: RenderError) -> Int32 {
        if json {
            Console.out(
                JSONObject.failure(path: file, code: error.code.rawValue, message: error.message, hint: error.hint).text
            )
        } else {
            Console.error(Text.clean("pickup export: \(file): \(error.message). \(error.hint)"))
        }
        return ExitStatus.someFailed
    }
}
