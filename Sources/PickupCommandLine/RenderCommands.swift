import Foundation
import Pickup

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The commands that run in `pickup-render` (the tool that links FFmpeg), and
/// how `pickup` reaches it: it sits in the same folder as `pickup`.
public enum RenderCommands {
    public static let thumbAbstract =
        "Make thumbnails and poster frames of photos and videos, always upright; strips for scrubbing."
    public static let exportAbstract =
        "Export a video for upload: presets as AVAssetExportSession's, trim, strip location, size limit."

    /// `pickup-render` beside the running executable, or on the PATH.
    public static func helperPath() -> String? {
        var candidates: [String] = []
        if let own = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append((own as NSString).deletingLastPathComponent + "/pickup-render")
        }
        if let first = CommandLine.arguments.first, first.contains("/") {
            candidates.append((first as NSString).deletingLastPathComponent + "/pickup-render")
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(String(folder) + "/pickup-render")
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// One file's failure as `command` ("pickup thumb") prints it: a JSON failure line (with
    /// `interrupted` for Ctrl-C), or the message and what to do on standard error.
    public static func printFailure(_ error: RenderError, file: String, command: String, json: Bool) {
        if json {
            let line = JSONObject.failure(
                path: file, error: JSONObject.error(error), interrupted: error.code == .cancelled)
            Console.out(line.text)
        } else {
            Console.error(Text.clean("\(command): \(file): \(error.message). \(error.hint)"))
        }
    }

    static let missing =
        "pickup: pickup-render (thumbnails and export) is not beside pickup; build it with 'swift build' "
        + "or install both tools to the same folder."

    /// Replaces this process with `pickup-render ARGUMENTS` (same output, same exit status).
    public static func replaceProcess(_ arguments: [String]) -> Int32 {
        guard let helper = helperPath() else {
            Console.error(missing)
            return ExitStatus.someFailed
        }
        var argv: [UnsafeMutablePointer<CChar>?] = (["pickup"] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(helper, argv)
        Console.error("pickup: cannot start \(helper): \(String(cString: strerror(errno)))")
        return ExitStatus.someFailed
    }

    /// Runs `pickup-render ARGUMENTS` and waits; its standard error passes through,
    /// its standard output is returned. Cancelling the task interrupts it as Ctrl-C does
    /// (SIGINT: it stops, writes nothing, and exits 130): `Process` starts it in a process group
    /// of its own, which a terminal's Ctrl-C does not reach.
    public static func run(_ arguments: [String]) async -> (status: Int32, output: String) {
        guard let helper = helperPath() else { return (ExitStatus.someFailed, "") }
        let started = LockedValue<Int32>(0)
        return await withTaskCancellationHandler {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: helper)
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.standardError
            let done = AsyncStream<Int32>.makeStream()
            process.terminationHandler = { finished in
                done.continuation.yield(finished.terminationStatus)
                done.continuation.finish()
            }
            do {
                try process.run()
            } catch {
                return (ExitStatus.someFailed, "")
            }
            started.withValue { $0 = process.processIdentifier }
            // Cancelled before the process had an identifier to signal: it is stopped now.
            if Task.isCancelled { kill(process.processIdentifier, SIGINT) }
            // Read everything before waiting, so that a full pipe cannot block the helper.
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            var status: Int32 = ExitStatus.someFailed
            for await code in done.stream { status = code }
            return (status, String(decoding: data, as: UTF8.self))
        } onCancel: {
            let pid = started.withValue { $0 }
            if pid > 0 { kill(pid, SIGINT) }
        }
    }
}
