// A picked video made ready to upload on the device, with AVFoundation: passthrough
// when it already fits the preset, trimmed, its place stripped, under a size limit.

// snippet.hide
#if canImport(UIKit) && canImport(AVFoundation)
// snippet.show
import Foundation
import Pickup
import PickupImport
import PickupUI

func exportForUpload(
    _ item: ImportedItem, in library: ImportSession
) async throws -> URL {
    guard let file = item.primary else { throw CocoaError(.fileNoSuchFile) }
    let output = FileManager.default.temporaryDirectory
        .appendingPathComponent(UUID().uuidString + ".mp4")
    let options = ExportOptions(
        preset: .p1920x1080, trim: 0...60, stripLocation: true,
        maxBytes: 50_000_000)
    let (events, progress) = AsyncStream<ExportEvent>.makeStream()
    Task { for await event in events { print(event) } }
    let result = try await AVFoundationExporter().export(
        library.path(of: file), to: output.path, options, events: progress)
    progress.finish()
    print(result.bytes, result.seconds)
    return output
}
// snippet.hide
#endif
