// A file sent to a tus server a chunk at a time, streamed from disk, and resumed from
// the last byte the server confirmed: after a dropped connection, or in a new process.

import Foundation
import PickupUpload

func send() async throws {
    let uploader = Uploader(
        journal: try UploadJournal(),
        options: UploadOptions(chunkSize: 8 << 20)
    )
    guard let endpoint = URL(string: "https://uploads.example.com/files/")
    else { return }
    let task = uploader.start(
        path: "IMG_0001.MOV", to: .tus(endpoint: endpoint),
        type: "video/quicktime")
    for await event in task.events {
        switch event {
        case .sending(_, let sent, let size, _):
            // a few times a second: what a progress bar shows
            print("\(sent * 100 / max(size, 1))%")
        case .progress(_, let confirmed, _, _):
            // the server holds it: a resume goes on from here
            print("confirmed \(confirmed)")
        default:
            // started, retrying (with the wait and the cause), finished
            print(event)
        }
    }
    // task.cancel() stops it; the journal keeps its place
    let record = await task.result()
    if let error = record.error {
        print(error.code, error.message, error.hint)
        // Later, or after the app was killed: on from the server's offset.
        let again = await uploader.resume(id: record.id).result()
        print(again.state)
    }
}
