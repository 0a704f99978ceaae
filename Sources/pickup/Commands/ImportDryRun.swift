import Foundation
import PickupCommandLine
import PickupImport
import PickupStore

/// `pickup import --dry-run`: what the import would do, found as the import finds it.
extension ImportJob {
    /// What an import would do, item by item, and in all; nothing is written. `catalog`: the
    /// library's, opened to read when there is one (the scan read it too).
    func dryRunReport(
        _ plan: ImportPlan, library: String, catalog: ImportCatalog?, leftAlone: Int, notTaken: Int, failed: Int
    ) async {
        // Spelled as the import's own closing line spells it: absolute.
        let shownLibrary =
            library.hasPrefix("/") ? library : FileManager.default.currentDirectoryPath + "/" + library
        var newItems = 0
        var there = 0
        var restoring = 0
        var completing = 0
        var bytes: Int64 = 0
        var output = ""
        // What the import would find: this very file, the same content under another name, or
        // the same content as a file imported earlier in this run.
        let previews = await ImportPreview.run(plan.requests, catalog: catalog, rehash: importing.rehash)
        for (request, answer) in zip(plan.requests, previews) {
            let paths = request.parts.map(\.path)
            let size = paths.reduce(Int64(0)) { $0 + (FileStatus(path: $1)?.size ?? 0) }
            let preview = (try? answer.get()) ?? .wouldImport
            let status: String
            let what: String
            var written = size  // what the import would write for it
            switch preview {
            case .wouldImport:
                (status, what) = ("wouldImport", "would import")
                newItems += 1
                bytes += size
            case .alreadyThere(let item):
                (status, what) = ("alreadyThere", "already there as \(item.id)")
                there += 1
                written = 0
            case .sameAsEarlier(let index):
                (status, what) = ("alreadyThere", "already there once \(plan.requests[index].path) is imported")
                there += 1
                written = 0
            case .wouldRestore(let item):
                (status, what) = ("wouldRestore", "would restore \(item.id) (a stored file is missing or damaged)")
                restoring += 1
                bytes += size
            case .wouldComplete(let item):
                // What the item lacks; a lone movie completing its still is all of the request.
                let lacking = request.parts.filter { part in !item.files.contains { $0.role == part.role } }
                let adding = lacking.isEmpty ? request.parts : lacking
                let names = adding.map { ($0.path as NSString).lastPathComponent }.joined(separator: " and ")
                let them = adding.count == 1 ? "it" : "them"
                (status, what) = ("wouldComplete", "would add \(names) to \(item.id), which lacks \(them)")
                written = adding.reduce(Int64(0)) { $0 + ImportJob.size($1.path) }
                bytes += written
                completing += 1
            }
            if json {
                var object = JSONObject()
                object.add("type", "dryRun")
                object.add("path", request.path)
                object.add("livePhotoMovie", request.livePhotoMovie)
                object.add("edits", request.edits)
                object.add("status", status)
                object.add("bytes", size)
                object.add("id", preview.item?.id)
                if case .sameAsEarlier(let index) = preview { object.add("sameAs", plan.requests[index].path) }
                output += object.text + "\n"
            } else {
                let others = paths.dropFirst().map { " + " + $0 }.joined()
                let shownSize =
                    written == size || written == 0 ? Text.byteCount(size) : Text.byteCount(written) + " to add"
                output += Text.clean("\(what): \(request.path)\(others) (\(shownSize))") + "\n"
            }
        }
        if !json {
            output +=
                "\nDry run: \(newItems) item\(newItems == 1 ? "" : "s") would be imported, "
                + "\(there) already there, " + (restoring > 0 ? "\(restoring) would be restored, " : "")
                + (completing > 0 ? "\(completing) would be completed, " : "")
                + "\(leftAlone) left alone" + (plan.skipped.isEmpty ? "" : ", \(plan.skipped.count) listed twice")
                + (failed > 0 ? ", \(failed) \(failed == 1 ? "file" : "files") that would fail (see above)" : "")
                + ImportJob.leftOut(plan) + FileListOptions.setAside(leftAlone: 0, notTaken: notTaken)
                + "; \(Text.byteCount(bytes)) to write. Nothing was written. Library: \(shownLibrary)\n"
        }
        Console.raw(output)
    }
}
