#if canImport(AVFoundation)
    import AVFoundation
    import Foundation
    import Pickup

    /// The core's `MediaExporter` with `AVAssetExportSession`: Pickup's preset picks
    /// Apple's, passthrough when the plan says the source fits; trim, a size limit,
    /// metadata filtered for sharing when location must go; written to a temporary
    /// and moved into place.
    ///
    /// On iOS 18 and macOS 15 it runs `export(to:as:)` with progress from `states`; before,
    /// `exportAsynchronously` with `progress` polled four times a second. Both stop when
    /// the calling task is cancelled. The session never leaves the calling task.
    @available(iOS 16.0, macOS 13.0, *)
    public struct AVFoundationExporter: MediaExporter {
        /// An exporter on AVAssetExportSession.
        public init() {}

        static func presetName(_ plan: ExportPlan, _ preset: ExportPreset) -> String {
            if plan.video == .copy { return AVAssetExportPresetPassthrough }
            switch preset {
            case .passthrough: return AVAssetExportPresetPassthrough
            case .low: return AVAssetExportPresetLowQuality
            case .medium: return AVAssetExportPresetMediumQuality
            case .highest: return AVAssetExportPresetHighestQuality
            case .p640x480: return AVAssetExportPreset640x480
            case .p960x540: return AVAssetExportPreset960x540
            case .p1280x720: return AVAssetExportPreset1280x720
            case .p1920x1080: return AVAssetExportPreset1920x1080
            case .p3840x2160: return AVAssetExportPreset3840x2160
            case .hevc1920x1080: return AVAssetExportPresetHEVC1920x1080
            case .hevc3840x2160: return AVAssetExportPresetHEVC3840x2160
            case .hevcHighest: return AVAssetExportPresetHEVCHighestQuality
            }
        }

        /// Exports `path` to `output` as the plan for `options` says, reporting to `events`; the output appears whole
        /// or not at all.
        public func export(
            _ path: String, to output: String, _ options: ExportOptions, events: AsyncStream<ExportEvent>.Continuation?
        ) async throws(RenderError) -> ExportResult {
            let began = Date()
            let info: MediaInfo
            do {
                info = try MediaProbe().probe(path: path)
            } catch {
                throw RenderError(probeError: error, path: path)
            }
            let plan = try ExportPlan.make(for: info, options)
            events?.yield(.planned(plan))
            let asset = AVURLAsset(url: URL(fileURLWithPath: path))
            guard
                let session = AVAssetExportSession(
                    asset: asset, presetName: AVFoundationExporter.presetName(plan, options.preset))
            else { throw RenderError(.unsupported, "AVFoundation has no export session for this file", path: path) }
            if let trim = options.trim {
                session.timeRange = CMTimeRange(
                    start: CMTime(seconds: trim.lowerBound, preferredTimescale: 600),
                    end: CMTime(seconds: trim.upperBound, preferredTimescale: 600))
            }
            if let maxBytes = options.maxBytes { session.fileLengthLimit = maxBytes }
            if options.stripLocation { session.metadataItemFilter = .forSharing() }
            session.shouldOptimizeForNetworkUse = true
            let type: AVFileType = options.container == .mov ? .mov : .mp4
            let folder = (output as NSString).deletingLastPathComponent
            let temporary = URL(fileURLWithPath: folder.isEmpty ? "." : folder)
                .appendingPathComponent(".pickup-export-\(UUID().uuidString).\(options.container.fileExtension)")
            defer { try? FileManager.default.removeItem(at: temporary) }
            do {
                if #available(iOS 18.0, macOS 15.0, *) {
                    try await Self.exportWithStates(session, to: temporary, as: type, events: events)
                } else {
                    try await Self.exportPolling(session, to: temporary, as: type, events: events)
                }
                _ = try FileManager.default.replaceItemAt(URL(fileURLWithPath: output), withItemAt: temporary)
            } catch {
                if Task.isCancelled { throw RenderError(.cancelled, "the export was cancelled", path: path) }
                throw RenderError(.writeFailed, error.localizedDescription, path: path)
            }
            events?.yield(.progress(1))
            let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int64) ?? 0
            let result = ExportResult(path: output, plan: plan, bytes: bytes, seconds: Date().timeIntervalSince(began))
            events?.yield(.finished(result))
            return result
        }

        /// iOS 18: Apple's async export, cancelled with the task; progress from the session's
        /// `states`, a sequence that is itself `Sendable`, watched beside it. The session is
        /// handed over (`sending`): nothing here touches it once the export has it.
        @available(iOS 18.0, macOS 15.0, *)
        private static func exportWithStates(
            _ session: sending AVAssetExportSession, to url: URL, as type: AVFileType,
            events: AsyncStream<ExportEvent>.Continuation?
        ) async throws {
            let states = session.states(updateInterval: 0.25)
            let watcher = Task {
                for await state in states {
                    if case .exporting(let progress) = state { events?.yield(.progress(progress.fractionCompleted)) }
                }
            }
            defer { watcher.cancel() }
            try await session.export(to: url, as: type)
        }

        /// iOS 16 and 17: `exportAsynchronously`, its end awaited here while `progress` is
        /// read four times a second; a cancelled task cancels the export.
        private static func exportPolling(
            _ session: AVAssetExportSession, to url: URL, as type: AVFileType,
            events: AsyncStream<ExportEvent>.Continuation?
        ) async throws {
            session.outputURL = url
            session.outputFileType = type
            let finished = LockedValue(false)
            start(session, finished: finished)
            var cancelled = false
            while !finished.current {
                try? await Task.sleep(nanoseconds: 250_000_000)
                if Task.isCancelled, !cancelled {
                    cancelled = true
                    session.cancelExport()
                }
                events?.yield(.progress(Double(session.progress)))
            }
            switch session.status {
            case .completed: return
            case .cancelled: throw CancellationError()
            default:
                throw session.error
                    ?? NSError(
                        domain: AVFoundationErrorDomain, code: AVError.unknown.rawValue,
                        userInfo: [NSLocalizedDescriptionKey: "the export ended without finishing"])
            }
        }

        /// Starts the callback export; its end sets `finished`. Not async: the polling loop, not
        /// Apple's async `export()`, waits for it, so that progress can be read meanwhile.
        private static func start(_ session: AVAssetExportSession, finished: LockedValue<Bool>) {
            session.exportAsynchronously { finished.withValue { $0 = true } }
        }
    }
#endif
