#if canImport(SwiftUI)
    import PickupUpload
    import SwiftUI

    /// The upload queue: each upload's row (waiting, uploading with progress, rate and
    /// time left, paused, done, failed with "Try Again"), bound to `UploadQueueModel`.
    ///
    /// ```swift
    /// let uploads = UploadQueueModel(
    ///     queue: UploadQueue(uploader: Uploader(journal: try UploadJournal())))
    /// uploads.start()
    /// ...
    /// UploadQueueView(model: uploads)
    /// ```
    @available(iOS 17.0, macOS 14.0, *)
    public struct UploadQueueView: View {
        let model: UploadQueueModel

        /// A view of the uploads `model` follows.
        public init(model: UploadQueueModel) { self.model = model }

        /// One row per upload, with its progress and buttons.
        public var body: some View {
            List {
                if model.total > 0 {
                    ProgressView(value: model.fractionDone) { Text(Localized.string("All uploads")) }
                }
                ForEach(model.rows) { row in
                    VStack(alignment: .leading, spacing: 4) {
                        Text(row.title).font(.headline).lineLimit(1)
                        if !row.isFinished { ProgressView(value: row.progress) }
                        Text(row.status).font(.caption).foregroundStyle(.secondary)
                        HStack {
                            if row.canPause { Button(Localized.string("Pause")) { Task { await model.pause(row.id) } } }
                            if row.canResume {
                                Button(Localized.string("Resume")) { Task { await model.resume(row.id) } }
                            }
                            if row.canRetry {
                                Button(Localized.string("Try Again")) { Task { await model.retry(row.id) } }
                            }
                            if row.canCancel {
                                Button(Localized.string("Cancel"), role: .destructive) {
                                    Task { await model.cancel(row.id) }
                                }
                            }
                        }
                        .buttonStyle(.borderless)
                    }
                    .accessibilityElement(children: .contain)
                    .accessibilityLabel(Text(Localized.message(row.accessibilityLabel)))
                }
            }
            .onAppear { model.start() }
        }
    }
#endif
