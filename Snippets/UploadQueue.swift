// A queue of uploads: two at a time, each pausable and resumable, its updates ready
// to drive an upload screen.

import Foundation
import PickupUpload

func sendAll(_ paths: [String], to endpoint: URL) async throws {
    let queue = UploadQueue(
        uploader: Uploader(journal: try UploadJournal()), concurrency: 2)
    let watcher = Task {
        for await item in queue.updates {
            print(
                item.id, item.state, item.confirmed, item.size,
                item.secondsLeft ?? 0)
        }
    }
    var ids: [Int] = []
    for path in paths {
        ids.append(
            await queue.add(
                .upload(
                    path: path, to: .tus(endpoint: endpoint),
                    type: "video/quicktime")))
    }
    if let first = ids.first {
        // stops its request at once; the journal keeps its place
        await queue.pause(first)
        await queue.resume(first)  // on from the server's offset
    }
    let items = await queue.waitUntilSettled()
    print(
        items.filter { $0.state == .done }.count, "of", items.count,
        "uploaded")
    await queue.close()
    await watcher.value
}
