import PickupUI
import PickupUpload
import SwiftUI

@MainActor
struct UploadsScreen: View {
    let model: AppModel
    let uploads: Uploads

    var body: some View {
        VStack {
            if let library = model.library, let queue = uploads.queue {
                Button("Upload \(model.loader.ready.count) Videos") {
                    Task { await uploads.upload(model.loader.ready, from: library) }
                }
                .disabled(model.loader.ready.isEmpty)
                UploadQueueView(model: queue)
            } else {
                Text(uploads.problem ?? model.problem ?? "Uploads are not ready.")
            }
        }
    }
}
