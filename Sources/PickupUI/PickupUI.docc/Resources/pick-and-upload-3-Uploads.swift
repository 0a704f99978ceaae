import PickupImport
import PickupUI
import PickupUpload
import SwiftUI

/// The upload queue and its journal, made once at launch.
@MainActor
@Observable
final class Uploads {
    static let shared = Uploads()

    let queue: UploadQueueModel?
    let uploader: Uploader?
    var problem: String?
    @ObservationIgnored private var sent: [Int: ImportedItem] = [:]

    /// Your tus server's creation URL.
    let endpoint = URL(string: "https://uploads.example.com/files/")

    init() {
        var uploader: Uploader?
        do {
            // Application Support/Pickup/uploads.sqlite
            let journal = try UploadJournal()
            var options = UploadOptions()
            options.headers = ["Authorization": "Bearer YOUR-TOKEN"]
            uploader = Uploader(journal: journal, options: options)
        } catch {
            problem = "\(error)"
        }
        self.uploader = uploader
        queue = uploader.map {
            UploadQueueModel(
                queue: UploadQueue(uploader: $0, concurrency: 2, background: UIKitBackgroundTime()))
        }
    }

    /// Follows the queue, and brings back what an earlier run left.
    func start() async {
        guard let queue else { return }
        queue.start()
        _ = try? await queue.queue.restoreUnfinished()
    }

    /// Uploads what is loaded, in the order the person picked it.
    func upload(_ picked: [PickedItem], from library: ImportSession) async {
        guard let queue, let endpoint else { return }
        for item in picked.compactMap(\.imported) {
            guard let file = item.primary else { continue }
            let id = await queue.queue.add(
                .upload(
                    path: library.path(of: file), to: .tus(endpoint: endpoint),
                    type: item.info.container.mimeType))
            sent[id] = item
        }
    }

    /// Removes the library's copy of every item whose upload is done.
    func removeUploaded(from library: ImportSession) async {
        guard let queue else { return }
        for upload in await queue.queue.all() where upload.state == .done {
            guard let item = sent.removeValue(forKey: upload.id) else { continue }
            _ = try? await library.remove(item)
        }
    }
}
