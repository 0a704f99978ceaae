import Foundation

/// An export through a system session that offers presets but no bit-rate control
/// (`AVAssetExportSession` on Apple platforms), seen through a small protocol so that its
/// decisions run everywhere.
public protocol PresetExportSession: Sendable {
    /// What the session guesses a preset would write, in bytes (nil or 0 when it cannot say:
    /// `AVAssetExportSession.h:370`, "the estimated output file length in bytes, if it can be
    /// determined; 0 otherwise").
    func estimatedBytes(_ preset: ExportPreset) async -> Int64?
    /// Whether the session can write `container` with `preset` (`supportedFileTypes`).
    func supports(_ container: ExportContainer, _ preset: ExportPreset) async -> Bool
    /// Removes the output of a try refused as too large, before the next preset writes to the
    /// same path: the session does not write over a file (`AVError.h:57`,
    /// `AVErrorFileAlreadyExists`). By default, the file at `path` is removed.
    func removeOutput(at path: String)
    /// Exports with `preset` into `container` at `path`; returns what the output holds.
    func export(
        _ preset: ExportPreset, as container: ExportContainer, to path: String
    ) async throws(RenderError)
        -> ExportedFile
}

extension PresetExportSession {
    /// Removes the file at `path`.
    public func removeOutput(at path: String) { try? FileManager.default.removeItem(atPath: path) }
}

/// What an export wrote: its size and the duration a player shows.
public struct ExportedFile: Sendable, Hashable {
    /// Bytes written.
    public var bytes: Int64
    /// Seconds the output lasts (nil when it cannot be read back).
    public var duration: Double?

    /// An output of `bytes` lasting `duration` seconds.
    public init(bytes: Int64, duration: Double?) {
        self.bytes = bytes
        self.duration = duration
    }
}

/// How a preset-only export meets a plan: the preset, a size limit met by choosing a smaller
/// preset (never by cutting the video short: `fileLengthLimit` "stops writing" when reached and
/// the export still succeeds), and the output checked whole before it is kept.
public enum PresetExport {
    /// The presets to try for `preset` under a size limit, largest first: the one asked, then the
    /// smaller H.264 sizes.
    public static func ladder(from preset: ExportPreset) -> [ExportPreset] {
        let sizes: [ExportPreset] = [.p3840x2160, .p1920x1080, .p1280x720, .p960x540, .p640x480, .low]
        let start: Int
        switch preset {
        case .passthrough, .highest, .hevcHighest: start = 0
        case .hevc3840x2160: start = 0
        case .hevc1920x1080: start = 1
        case .medium: start = 4
        default: start = sizes.firstIndex(of: preset) ?? 0
        }
        return [preset] + sizes[start...].filter { $0 != preset }
    }

    /// Runs the export for `plan`: the preset the plan's options name (passthrough when the plan
    /// copies the video); with a size limit, the first preset of the ladder whose estimate fits.
    /// The output must last the plan's duration (within a frame or two) and, with a limit, fit
    /// it; an output over the limit is made again with the next smaller preset, and one that
    /// stopped early is refused (and removed by the caller), never kept cut short.
    public static func run(
        _ session: some PresetExportSession, plan: ExportPlan, options: ExportOptions, to path: String
    ) async throws(RenderError) -> ExportedFile {
        var candidates = plan.video == .copy ? [ExportPreset.passthrough] : [options.preset]
        if let limit = options.maxBytes, plan.video != .copy {
            // Presets whose estimate fits first, largest first; those the session cannot
            // estimate (0 or nil) after them: each is tried and its output checked.
            var fits: [ExportPreset] = []
            var unknown: [ExportPreset] = []
            for preset in ladder(from: options.preset) {
                let estimate = await session.estimatedBytes(preset) ?? 0
                if estimate <= 0 { unknown.append(preset) } else if estimate <= limit { fits.append(preset) }
            }
            candidates = fits + unknown
            guard !candidates.isEmpty else {
                throw RenderError(
                    .impossible, "no export preset fits \(limit) bytes for this video",
                    hint: "Allow a larger size, or trim the video shorter.")
            }
        }
        var supported: [ExportPreset] = []
        for preset in candidates where await session.supports(options.container, preset) { supported.append(preset) }
        guard !supported.isEmpty else {
            throw RenderError(
                .unsupported, "the system cannot write \(options.container.rawValue) with \(candidates[0].rawValue)",
                hint: "Choose another container or preset.")
        }
        var refused: RenderError?
        for preset in supported {
            // The output refused before (over the limit) is in the way of the next preset's.
            if refused != nil { session.removeOutput(at: path) }
            let output = try await session.export(preset, as: options.container, to: path)
            do {
                try check(output, plan: plan, maxBytes: options.maxBytes)
                return output
            } catch  where error.code == .impossible && options.maxBytes != nil {
                // Over the limit: the next, smaller preset may fit.
                refused = error
            }
        }
        throw refused ?? RenderError(.impossible, "no export preset fits the size limit")
    }

    /// Refuses an output that is shorter than planned or larger than the limit.
    public static func check(_ output: ExportedFile, plan: ExportPlan, maxBytes: Int64?) throws(RenderError) {
        if let duration = output.duration, plan.duration > 0, duration < plan.duration - max(0.1, plan.duration * 0.01)
        {
            throw RenderError(
                .writeFailed,
                "the export stopped early: \(formatted(duration)) s of \(formatted(plan.duration)) s were written",
                hint: "Nothing was kept. Allow a larger size, or export again.")
        }
        if let maxBytes, output.bytes > maxBytes {
            throw RenderError(
                .impossible, "the export wrote \(output.bytes) bytes, more than the \(maxBytes) allowed",
                hint: "Nothing was kept. Choose a smaller preset, allow a larger size, or trim the video.")
        }
    }

    /// Seconds to the hundredth, as the message says them (a header's 2^62 s as it is, never an
    /// Int past its range).
    static func formatted(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return String(seconds) }
        return String(Double(Int(seconds * 100)) / 100)
    }
}
