// The rules of a picker, decided from each file's facts: what it accepts, how many,
// in which order.

import Pickup

var selection = Selection(
    policy: SelectionPolicy<String>(limit: 10, ordered: true))
let filter = MediaFilter.any(of: [.images, .livePhotos])
do {
    let info = try MediaProbe().probe(path: "IMG_0001.HEIC")
    try selection.add("IMG_0001.HEIC", matches: filter.matches(info))
    print(selection.badge(for: "IMG_0001.HEIC") ?? 0)  // 1: its order badge
} catch {
    // "You can select up to 10 items. Remove one to choose another."
    print(error)
}
