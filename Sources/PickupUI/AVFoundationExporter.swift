#if canImport(AVFoundation)
    import AVFoundation
    import Foundation
    import Pickup

    /// The core's `MediaExporter` with `AVAssetExportSession`: Pickup's preset picks
    /// Apple's, passthrough when the plan says the source fits; trim, a size limit met by a
    /// smaller preset (never by cutting the end off), metadata filtered for sharing when
    /// location must go; written to a temporary, checked whole, and moved into place.
    ///
    /// On iOS 18 and macOS 15 it runs `export(to:as:)` with progress from `states`; before,
    /// `exportAsynchronously` with `progress` polled four times a second. Both stop when
    /// the calling task is cancelled. The session never leaves the calling task.
    @available(iOS 16.0, macOS 13.0, *)
    public struct AVFoundationExporter: MediaExporter {
        /// An exporter on AVAssetExportSession.
        public init() {}

        static func presetName(_ preset: ExportPreset) -> String {
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
        ///
        /// A size limit is met by the preset (`PresetExport`: the largest whose estimate fits), never
        /// with `fileLengthLimit`, at which AVFoundation stops writing and still reports success
        /// (`AVAssetExportSession.h`: "the length of the output file should be tested"); an output
        /// shorter than the plan or over the limit is refused and removed.
        ///
        /// On iPhone the export runs inside background time, so it finishes when the person
        /// leaves the app: `ProcessInfo`'s expiring activity (``ExpiringActivityTime``), which app
        /// extensions may use too (a share extension that makes a video smaller before sending it).
        public func export(
            _ path: String, to output: String, _ options: ExportOptions, events: AsyncStream<ExportEvent>.Continuation?
        ) async throws(RenderError) -> ExportResult {
            #if canImport(UIKit)
                let background: any BackgroundTimeGranting = ExpiringActivityTime()
            #else
                let background: any BackgroundTimeGranting = NoBackgroundTime()
            #endif
            do {
                return try await BackgroundTime.run("Pickup: exporting a video", granting: background) {
                    try await AVFoundationExporter().exportNow(path, to: output, options, events: events)
                }
            } catch let error as RenderError {
                throw error
            } catch {
                throw RenderError(.cancelled, "the export was cancelled", path: path)
            }
        }

        func exportNow(
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
            let folder = (output as NSString).deletingLastPathComponent
            let temporary = URL(fileURLWithPath: folder.isEmpty ? "." : folder)
                .appendingPathComponent(".pickup-export-\(UUID().uuidString).\(options.container.fileExtension)")
            defer { try? FileManager.default.removeItem(at: temporary) }
            let session = AVExportSession(source: URL(fileURLWithPath: path), options: options, events: events)
            let written = try await PresetExport.run(session, plan: plan, options: options, to: temporary.path)
            do {
                _ = try FileManager.default.replaceItemAt(URL(fileURLWithPath: output), withItemAt: temporary)
            } catch {
                throw RenderError(.writeFailed, "the export could not be moved into place", path: output)
            }
            events?.yield(.progress(1))
            let result = ExportResult(
                path: output, plan: plan, bytes: written.bytes, seconds: Date().timeIntervalSince(began))
            events?.yield(.finished(result))
            return result
        }
    }

    /// `AVAssetExportSession` as a `PresetExportSession`: one session per call, made and used in
    /// that call only.
    @available(iOS 16.0, macOS 13.0, *)
    struct AVExportSession: PresetExportSession {
        let source: URL
        let options: ExportOptions
        let events: AsyncStream<ExportEvent>.Continuation?

        func make(_ preset: ExportPreset) -> AVAssetExportSession? {
            let session = AVAssetExportSession(
                asset: AVURLAsset(url: source), presetName: AVFoundationExporter.presetName(preset))
            guard let session else { return nil }
            if let trim = options.trim {
                let start = CMTime(seconds: trim.lowerBound, preferredTimescale: 600)
                // An open range (`START...infinity`) runs to the end, as the whole file's does.
                session.timeRange =
                    trim.upperBound.isFinite
                    ? CMTimeRange(start: start, end: CMTime(seconds: trim.upperBound, preferredTimescale: 600))
                    : CMTimeRange(start: start, duration: .positiveInfinity)
            }
            // Untrimmed, `timeRange` is left as it is: the whole asset ("If timeRange is not set on
            // the export session, timeRange will be assumed to be the full time range of the
            // asset", AVAssetExportSession.h, estimateOutputFileLengthWithCompletionHandler:).
            if options.stripLocation { session.metadataItemFilter = .forSharing() }
            session.shouldOptimizeForNetworkUse = true
            return session
        }

        static func fileType(_ container: ExportContainer) -> AVFileType { container == .mov ? .mov : .mp4 }

        func estimatedBytes(_ preset: ExportPreset) async -> Int64? {
            guard let session = make(preset) else { return nil }
            return try? await session.estimatedOutputFileLengthInBytes
        }

        /// `AVAssetExportSession.h:198`: setting a file type "not among the session's supported file
        /// types will result in an NSInvalidArgumentException", so it is asked first.
        func supports(_ container: ExportContainer, _ preset: ExportPreset) async -> Bool {
            make(preset)?.supportedFileTypes.contains(AVExportSession.fileType(container)) ?? false
        }

        func export(
            _ preset: ExportPreset, as container: ExportContainer, to path: String
        ) async throws(RenderError)
            -> ExportedFile
        {
            guard let session = make(preset) else {
                throw RenderError(.unsupported, "AVFoundation has no export session for this file", path: source.path)
            }
            let url = URL(fileURLWithPath: path)
            let type = AVExportSession.fileType(container)
            do {
                if #available(iOS 18.0, macOS 15.0, *) {
                    try await AVFoundationExporter.exportWithStates(session, to: url, as: type, events: events)
                } else {
                    try await AVFoundationExporter.exportPolling(session, to: url, as: type, events: events)
                }
            } catch {
                if Task.isCancelled { throw RenderError(.cancelled, "the export was cancelled", path: source.path) }
                throw RenderError(.writeFailed, (error as NSError).localizedDescription, path: source.path)
            }
            let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
            let duration = try? await AVURLAsset(url: url).load(.duration).seconds
            return ExportedFile(bytes: bytes, duration: duration)
        }
    }

    @available(iOS 16.0, macOS 13.0, *)
    extension AVFoundationExporter {
        /// iOS 18: Apple's async export, cancelled with the task; progress from the session's
        /// `states`, a sequence that is itself `Sendable`, watched beside it. The session is
        /// handed over (`sending`): nothing here touches it once the export has it.
        @available(iOS 18.0, macOS 15.0, *)
        static func exportWithStates(
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
        static func exportPolling(
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
