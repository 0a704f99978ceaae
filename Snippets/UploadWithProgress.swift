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
    let loader: PickedItemLoader
    // a tus server's creation URL, such as
    // https://uploads.example.com/files/
    let endpoint: URL

    var body: some View {
        VStack {
            Button("Upload \(loader.notTaken.count)") {
                // each loaded item once; a Live Photo's still and movie
                for item in loader.take() {
                    for (path, type) in item.filesToSend(from: library) {
                        let job = UploadQueue.Job.upload(
                            path: path, to: .tus(endpoint: endpoint),
                            type: type)
                        Task { await uploads.add(job) }
                    }
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
