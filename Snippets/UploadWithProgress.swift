// Uploads with their progress on screen: a queue journaled on the device, two at a
// time, each row pausable, resumable and retryable.

// snippet.hide
#if canImport(SwiftUI) && canImport(UIKit)
// snippet.show
import Foundation
import PickupImport
import PickupUI
import PickupUpload
import SwiftUI

@MainActor
func makeUploads() throws -> UploadQueueModel {
    // Application Support/Pickup/uploads.sqlite, excluded from backup: the
    // same journal the background session uses
    let journal = try UploadJournal()
    let model = UploadQueueModel(
        queue: UploadQueue(
            uploader: Uploader(journal: journal), concurrency: 2,
            background: UIKitBackgroundTime())
    )
    model.start()  // follows the queue's updates
    return model
}

struct UploadScreen: View {
    let uploads: UploadQueueModel
    let library: ImportSession
    let items: [ImportedItem]
    // a tus server's creation URL, such as
    // https://uploads.example.com/files/
    let endpoint: URL

    var body: some View {
        VStack {
            Button("Upload \(items.count)") {
                for item in items {
                    guard let file = item.primary else { continue }
                    let job = UploadQueue.Job.upload(
                        path: library.path(of: file),
                        to: .tus(endpoint: endpoint),
                        type: item.info.container.mimeType)
                    Task { await uploads.add(job) }
                }
            }
            ProgressView(value: uploads.fractionDone)
            // one row per upload: state, speed, time left, actions
            UploadQueueView(model: uploads)
        }
    }
}
// snippet.hide
#endif
