import CFFmpeg
import Foundation
import Pickup

/// Exports videos for upload with FFmpeg's libraries: a remux when the source
/// already fits the preset, an x264/x265 encode otherwise; trimmed, stripped of
/// identifying metadata when asked, sized to fit a limit. The output appears
/// whole or not at all.
public struct FFmpegExporter: MediaExporter {
    /// The bounds on the pictures it decodes.
    public var limits: RenderLimits

    /// An exporter that refuses pictures past `limits`.
    public init(limits: RenderLimits = RenderLimits()) { self.limits = limits }

    /// Plans an export without doing it.
    public func plan(_ path: String, _ options: ExportOptions) throws(RenderError) -> ExportPlan {
        let info: MediaInfo
        do {
            info = try MediaProbe().probe(path: path)
        } catch {
            throw RenderError(probeError: error, path: path)
        }
        return try ExportPlan.make(for: info, options)
    }

    public func export(
        _ path: String, to output: String, _ options: ExportOptions,
        events: AsyncStream<ExportEvent>.Continuation? = nil
    ) async throws(RenderError) -> ExportResult {
        let began = Date()
        let plan = try self.plan(path, options)
        events?.yield(.planned(plan))
        let folder = (output as NSString).deletingLastPathComponent
        let temporary =
            (folder.isEmpty ? "." : folder) + "/.pickup-export-\(UUID().uuidString).\(options.container.fileExtension)"
        // Locked while it is written: a sweep by a later run removes it only once this one is gone.
        let lock = RenderTemporaries.makeLocked(temporary)
        guard lock >= 0 else {
            throw RenderError(.writeFailed, "cannot write: \(String(cString: strerror(errno)))", path: output)
        }
        defer {
            unlink(temporary)
            close(lock)
        }
        var bitRate: Int?
        if options.maxBytes != nil, case .encode(_, _, _, let cap) = plan.video { bitRate = cap }
        // A size limit gets a second try at a lower rate if the encoder overshot.
        for attempt in 0..<2 {
            let session = ExportSession(
                input: path, output: temporary, plan: plan, options: options, limits: limits, bitRate: bitRate)
            try session.run { events?.yield(.progress($0)) }
            let bytes = FFmpegExporter.size(of: temporary)
            if let maxBytes = options.maxBytes, bytes > maxBytes {
                guard attempt == 0, let rate = bitRate else {
                    throw RenderError(
                        .impossible, "the export came out at \(bytes) bytes, over the limit of \(maxBytes)", path: path,
                        hint: "Allow a larger size, choose a smaller preset, or trim the video shorter.")
                }
                bitRate = rate * 8 / 10 * Int(Double(maxBytes) / Double(bytes) * 100) / 100
                continue
            }
            try FFmpegExporter.commit(temporary, to: output)
            let result = ExportResult(path: output, plan: plan, bytes: bytes, seconds: Date().timeIntervalSince(began))
            events?.yield(.finished(result))
            return result
        }
        throw RenderError(
            .impossible, "the export could not meet the size limit", path: path,
            hint: "Allow a larger size, choose a smaller preset, or trim the video shorter.")
    }

    /// The size of a file, 0 when it is not there.
    public static func sizeOnDisk(_ path: String) -> Int64 { size(of: path) }

    static func size(of path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// Flushes the finished file to disk and renames it into place (replacing an older output).
    static func commit(_ temporary: String, to output: String) throws(RenderError) {
        let fd = open(temporary, O_RDONLY | O_CLOEXEC)
        guard fd >= 0, fsync(fd) == 0 else {
            if fd >= 0 { close(fd) }
            throw RenderError(
                .writeFailed, "cannot flush the output: \(String(cString: strerror(errno)))", path: output)
        }
        close(fd)
        guard rename(temporary, output) == 0 else {
            throw RenderError(
                .writeFailed, "cannot move the output into place: \(String(cString: strerror(errno)))", path: output)
        }
    }
}

/// Writing a rendered image to a file.
extension RenderedImage {
    /// Writes the image to `path` atomically (a hidden temporary beside it, flushed, renamed).
    public func write(to path: String) throws(RenderError) {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/.pickup-thumb-\(UUID().uuidString)"
        defer { unlink(temporary) }
        let fd = RenderTemporaries.makeLocked(temporary)
        guard fd >= 0 else {
            throw RenderError(.writeFailed, "cannot write: \(String(cString: strerror(errno)))", path: path)
        }
        var written = 0
        let failure: Int32 = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return 0 }
            while written < raw.count {
                let n = Foundation.write(fd, base + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += n
            }
            return fsync(fd) == 0 ? 0 : errno
        }
        close(fd)
        guard failure == 0 else {
            throw RenderError(.writeFailed, "cannot write: \(String(cString: strerror(failure)))", path: path)
        }
        try FFmpegExporter.commit(temporary, to: path)
    }
}
