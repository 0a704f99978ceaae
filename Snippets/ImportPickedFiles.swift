// Picked files copied into a folder the app owns: atomic copies checked by SHA-256,
// Live Photo stills and movies kept as one item, nothing copied twice, progress and
// a clean cancel.

import Pickup
import PickupImport

let paths = ["IMG_0001.HEIC", "IMG_0001.MOV", "IMG_0002.MOV"]
do {
    let probed = try paths.map {
        (path: $0, info: try MediaProbe().probe(path: $0))
    }
    let plan = ImportPlan(
        files: probed, filter: .not(.screenshots), order: .newest, limit: 50
    )
    let session = try ImportSession(
        destination: "Library", options: ImportOptions(concurrency: 2))
    let run = session.start(plan.requests)  // run.cancel() stops cleanly
    for await event in run.events {
        if case .progress(let index, let bytes, let total) = event {
            print(index, bytes, total)
        }
    }
    for result in await run.results() {  // in the order of the plan
        switch result {
        case .imported(let item), .reused(let item), .restored(let item),
            .completed(let item, _):
            print(
                item.id, item.isLivePhoto,
                item.files.map { session.path(of: $0) })
        case .failed(let error):
            // what happened, and what to do
            print(error.message, error.hint)
        }
    }
} catch {
    print(error)
}
