import Pickup

/// An export session that behaves as Apple documents `AVAssetExportSession` (iPhoneOS 26.2
/// SDK, `AVAssetExportSession.h`), for `PresetExport`'s tests. It decides nothing of Pickup's.
final class FakeExportSession: PresetExportSession {
    /// Bytes per second each preset writes, and what the session estimates
    /// (`estimateOutputFileLengthWithCompletionHandler:`, line 370: "the estimated output file
    /// length in bytes, if it can be determined; 0 otherwise"). An estimate is only that: the
    /// output's length "should be tested" (line 353), so a fake estimate may be off.
    let rates: [ExportPreset: Int64]
    let estimates: [ExportPreset: Int64]
    let duration: Double
    /// The file types the session writes (line 328, `supportedFileTypes`).
    let supported: Set<ExportContainer>
    /// When set, the export ends early and still succeeds (a session given `fileLengthLimit`
    /// stops there, line 353; the adapter never sets it, so this stands for any export that
    /// reports success with less than the whole video).
    let stopsAt: Int64?
    let exported = LockedValue<[ExportPreset]>([])
    /// The paths an export wrote and nothing removed since: the session does not write over a
    /// file (`AVError.h:57`, `AVErrorFileAlreadyExists`: the export fails).
    let written = LockedValue<Set<String>>([])

    init(
        rates: [ExportPreset: Int64], estimates: [ExportPreset: Int64]? = nil, duration: Double,
        supported: Set<ExportContainer> = [.mp4, .mov], stopsAt: Int64? = nil
    ) {
        self.rates = rates
        self.estimates = estimates ?? rates.mapValues { $0 * Int64(duration) }
        self.duration = duration
        self.supported = supported
        self.stopsAt = stopsAt
    }

    func estimatedBytes(_ preset: ExportPreset) async -> Int64? { estimates[preset] ?? 0 }

    func supports(_ container: ExportContainer, _ preset: ExportPreset) async -> Bool { supported.contains(container) }

    func removeOutput(at path: String) { _ = written.withValue { $0.remove(path) } }

    func export(
        _ preset: ExportPreset, as container: ExportContainer, to path: String
    ) async throws(RenderError)
        -> ExportedFile
    {
        guard let rate = rates[preset] else {
            throw RenderError(.unsupported, "no such preset in this fake")
        }
        guard written.withValue({ $0.insert(path).inserted }) else {
            throw RenderError(.writeFailed, "Cannot Save (AVErrorFileAlreadyExists, -11823)", path: path)
        }
        exported.withValue { $0.append(preset) }
        let full = rate * Int64(duration)
        if let stopsAt, full > stopsAt {
            return ExportedFile(bytes: stopsAt, duration: duration * Double(stopsAt) / Double(full))
        }
        return ExportedFile(bytes: full, duration: duration)
    }
}
