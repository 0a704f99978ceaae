// What a photo or video is, from its bytes: kind, container, upright size, rotation,
// duration, capture date with its time zone, place and Live Photo identifier.

import Pickup

let path = CommandLine.arguments.dropFirst().first ?? "IMG_0001.MOV"
do {
    let info = try MediaProbe().probe(path: path)
    print(info.kind, info.container)  // video mov
    // 1080 1920: upright
    print(info.displayWidth ?? 0, info.displayHeight ?? 0)
    print(info.rotation.degrees, info.orientation.mirrored)  // 90 false
    print(DurationLabel.string(seconds: info.duration ?? 0))  // 0:07
    print(info.creationDate?.iso8601 ?? "-")  // 2024-05-06T10:20:30+09:00
    print(info.location?.latitude ?? 0, info.contentIdentifier ?? "-")
} catch {
    // A ProbeError: its code, message, path, offset, element and hint.
    print(error)
}
