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

    /// Uploads what is loaded, in the order the person picked it: each
    /// stored file of each item (a Live Photo's still and its movie).
    func upload(_ picked: [PickedItem], from library: ImportSession) async {
        guard let queue, let endpoint else { return }
        for item in picked.compactMap(\.imported) {
            for file in item.files where file.role != .edits {
                let type =
                    file.role == .livePhotoMovie
                    ? "video/quicktime" : item.info.container.mimeType
                await queue.queue.add(
                    .upload(
                        path: library.path(of: file), to: .tus(endpoint: endpoint),
                        type: type))
            }
        }
    }

    /// Removes the library's copy of every item whose files are all
    /// uploaded, as the journal says: after a relaunch too.
    func removeUploaded(from library: ImportSession) async {
        guard let uploader,
            let done = try? await uploader.journal.all().filter({ $0.state == .done })
        else { return }
        let sent = Set(done.map(\.path))
        for record in done {
            guard let item = try? await library.item(at: record.path),
                item.files.allSatisfy({
                    $0.role == .edits || sent.contains(library.path(of: $0))
                })
            else { continue }
            _ = try? await library.remove(item)
        }
    }
}
