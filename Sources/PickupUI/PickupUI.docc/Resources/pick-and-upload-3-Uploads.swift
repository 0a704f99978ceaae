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
    /// item's files (a Live Photo's still and its movie).
    func upload(_ picked: [PickedItem], from library: ImportSession) async {
        guard let queue, let endpoint else { return }
        for item in picked {
            for (path, type) in item.filesToSend(from: library) {
                await queue.queue.add(
                    .upload(path: path, to: .tus(endpoint: endpoint), type: type))
            }
        }
    }

    /// Removes the library's copy of every item whose files' newest uploads
    /// are all done, as the journal says (after a relaunch too), unless it is
    /// still selected (`keeping`: the picker's items, shown and playable).
    func removeUploaded(from library: ImportSession, keeping: Set<String>) async {
        guard let uploader, let records = try? await uploader.journal.all() else { return }
        // Each file's newest upload: one sent again, or a copy picked again, decides.
        var newest: [String: UploadRecord] = [:]
        for record in records.sorted(by: { $0.created < $1.created }) {
            newest[record.path] = record
        }
        for record in newest.values where record.state == .done {
            guard let item = try? await library.item(at: record.path),
                !keeping.contains(item.id),
                item.files.allSatisfy({ file in
                    // An upload from before this copy was made does not count.
                    guard let sent = newest[library.path(of: file)] else {
                        return file.role == .edits
                    }
                    return sent.state == .done && sent.created >= item.importedAt
                })
            else { continue }
            _ = try? await library.remove(item)
        }
    }
}
