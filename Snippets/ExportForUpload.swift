// A video made ready to upload: a remux when it already fits the preset (smart
// passthrough), an encode otherwise; trimmed, its place stripped, under a size limit.

import Pickup
import PickupFFmpeg

func export() async throws {
    let options = ExportOptions(
        preset: .p1920x1080, trim: 5...20, stripLocation: true,
        maxBytes: 25_000_000)
    let plan = try ExportPlan.make(
        for: try MediaProbe().probe(path: "IMG_0007.MOV"), options)
    // "the source already fits ...: remuxed, not encoded"
    print(plan.reason)
    let result = try await FFmpegExporter().export(
        "IMG_0007.MOV", to: "upload.mp4", options, events: nil)
    print(result.bytes, result.seconds)
}
