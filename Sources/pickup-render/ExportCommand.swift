import Foundation
import Pickup
import PickupCommandLine
import PickupFFmpeg

/// `pickup export`: a video made ready for upload.
struct ExportCommand: Command {
    static let spec = CommandSpec(
        name: "export",
        abstract: RenderCommands.exportAbstract,
        synopsis:
            "FILE --preset NAME [-o OUT] [--trim START-END] [--strip-location] [--max-size SIZE] [--mov] [--compatible] [--force] [--json]",
        arguments: [("FILE", "A video (MP4, MOV, M4V, 3GP, WebM, MKV).")],
        options: [
            .init(
                names: ["--preset"], value: "NAME",
                help: "passthrough, low, medium, highest, 640x480, 960x540, 1280x720, 1920x1080, 3840x2160, "
                    + "hevc-1920x1080, hevc-3840x2160 or hevc-highest."),
            .init(names: ["--output", "-o"], value: "OUT", help: "The file to write (default NAME-PRESET.mp4 here)."),
            .init(
                names: ["--trim"], value: "START-END",
                help: "Keep only this part: seconds or m:ss, like 1.5-10 or 0:05-1:30."),
            .init(
                names: ["--strip-location"], value: nil,
                help: "Leave out the location, make, model, software and content identifier."),
            .init(names: ["--max-size"], value: "SIZE", help: "The largest file to write: 25MB, 800k, 1.5G or bytes."),
            .init(names: ["--mov"], value: nil, help: "Write QuickTime (.mov) instead of MP4."),
            .init(names: ["--compatible"], value: nil, help: "Turn HEVC into H.264 even when it would fit."),
            .init(names: ["--force"], value: nil, help: "Replace the output if it exists already."),
            .init(names: ["--json"], value: nil, help: "Print the plan and the result as JSON objects."),
        ],
        discussion: """
            When the video already fits the preset (codec, size, bit rate) it is remuxed, not encoded:
            fast and lossless. Otherwise it is encoded with x264 or x265 at constant quality, capped at
            the preset's bit rate, and audio that is not AAC becomes AAC. The creation date and the
            rotation are kept. With --max-size the bit rate is planned to fit. The output is written
            to a hidden file beside it and renamed when complete: a failure or Ctrl-C leaves nothing.
            An output that exists is not replaced without --force, and the input is never written over.

            Exit status: 0 when the export is written, 1 when it failed, 2 for a usage mistake,
            130 when interrupted.
            """,
        examples: [
            "pickup export IMG_0001.MOV --preset 1920x1080 -o upload.mp4",
            "pickup export clip.mov --preset passthrough --trim 0:05-0:20 --strip-location",
            "pickup export long.mp4 --preset highest --max-size 25MB --compatible",
        ])

    let file: String
    let options: ExportOptions
    let output: String
    let json: Bool
    let force: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 1, let file = arguments.positionals.first else {
            throw UsageError(message: "name one video to export", command: "export")
        }
        guard let name = arguments.value("--preset") else {
            throw UsageError(message: "choose a --preset (passthrough, 1920x1080, hevc-highest...)", command: "export")
        }
        guard let preset = ExportPreset(rawValue: name) else {
            throw UsageError(
                message: "no preset '\(name)'; choose one of "
                    + ExportPreset.allCases.map(\.rawValue).joined(separator: ", "), command: "export")
        }
        var trim: ClosedRange<Double>?
        if let text = arguments.value("--trim") {
            let parts = text.split(separator: "-", maxSplits: 1).map { ExportCommand.seconds(String($0)) }
            guard parts.count == 2, let start = parts[0], let end = parts[1], end > start else {
                throw UsageError(message: "--trim takes START-END in seconds or m:ss, like 1.5-10", command: "export")
            }
            trim = start...end
        }
        var maxBytes: Int64?
        if let text = arguments.value("--max-size") {
            guard let bytes = ExportCommand.bytes(text), bytes > 0 else {
                throw UsageError(message: "--max-size takes a size like 25MB, 800k or 1.5G", command: "export")
            }
            maxBytes = bytes
        }
        let container: ExportContainer = arguments.has("--mov") ? .mov : .mp4
        options = ExportOptions(
            preset: preset, container: container, trim: trim, stripLocation: arguments.has("--strip-location"),
            maxBytes: maxBytes, compatible: arguments.has("--compatible"))
        self.file = file
        let base = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        output = arguments.value("--output") ?? "\(base)-\(preset.rawValue).\(container.fileExtension)"
        json = arguments.has("--json")
        force = arguments.has("--force")
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
        var bar: ProgressBar? = !json && Console.errorIsTerminal ? ProgressBar(totalItems: 1, totalBytes: 1000) : nil
        var lastTenth = -1
        for await event in events {
            switch event {
            case .planned(let plan):
                if json {
                    var object = JSONObject()
                    object.add("plan", plan.isPassthrough ? "remux" : "encode")
                    object.add("reason", plan.reason)
                    Console.out(object.text)
                } else {
                    Console.error("\(file): \(plan.reason)")
                }
            case .progress(let fraction):
                if bar != nil {
                    bar?.draw(
                        itemsDone: 0, bytesDone: Int64(fraction * 1000), current: (file as NSString).lastPathComponent)
                } else if !json, Int(fraction * 10) > lastTenth {
                    lastTenth = Int(fraction * 10)
                    Console.error("\(file): \(lastTenth * 10)%")
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
                object.add("path", file)
                object.add("output", done.path)
                object.add("bytes", done.bytes)
                object.add("seconds", (done.seconds * 100).rounded() / 100)
                Console.out(object.text)
            } else {
                Console.out("\(file) → \(done.path) \(Text.byteCount(done.bytes)) in \(Text.fixed(done.seconds, 2)) s")
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
            Console.error("pickup export: \(file): \(error.message). \(error.hint)")
        }
        return ExitStatus.someFailed
    }
}
