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
                // take() hands each item over once: a second tap does not queue it again, and
                // deselecting it afterwards leaves its file to its upload.
                Button("Upload \(model.loader.notTaken.count) Videos") {
                    let picked = model.loader.take()
                    Task { await uploads.upload(picked, from: library) }
                }
                .disabled(model.loader.notTaken.isEmpty)
                UploadQueueView(model: queue)
            } else {
                Text(uploads.problem ?? model.problem ?? "Uploads are not ready.")
            }
        }
    }
}
