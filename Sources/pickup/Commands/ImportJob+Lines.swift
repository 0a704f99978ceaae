import Pickup
import PickupCommandLine
import PickupImport
import PickupStore

/// The lines `pickup import` prints of each item and of the whole run, in words and as JSON.
extension ImportJob {
    /// "; 3 not taken by --filter, 12 past --limit" (nothing when neither left an item out).
    static func leftOut(_ plan: ImportPlan) -> String {
        var parts: [String] = []
        if plan.filteredOut > 0 { parts.append("\(plan.filteredOut) not taken by --filter") }
        if plan.pastLimit > 0 { parts.append("\(plan.pastLimit) past --limit") }
        return parts.isEmpty ? "" : "; " + parts.joined(separator: ", ")
    }

    /// A source file's size in bytes (0 when it cannot be read now).
    static func size(_ path: String) -> Int64 { FileStatus(path: path)?.size ?? 0 }

    func report(path: String, error: ImportError) {
        if json {
            Console.raw(ImportJob.jsonError(path: path, error: error))
        } else {
            Console.error(Text.clean("pickup import: " + error.description))
        }
    }

    /// What the run wrote: "Wrote 1.2 GB. ", or with clones "Wrote 0 B (3 files cloned, no new space). ".
    static func written(_ results: [ImportResult]) -> String {
        var bytes: Int64 = 0
        var shared: [CopyMethod: Int] = [:]
        for result in results {
            switch result {
            case .imported(let item), .restored(let item), .completed(let item, _):
                // A completed item's files it held before were not written again.
                let added = result.added.map(Set.init)
                for file in item.files where added?.contains(file.name) ?? true {
                    bytes += file.bytesWritten
                    if let method = file.method, method.sharesBlocks { shared[method, default: 0] += 1 }
                }
            case .reused, .failed: break
            }
        }
        let clones = shared.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            "\($0.value) \($0.value == 1 ? "file" : "files") \($0.key.rawValue)"
        }
        return "Wrote \(Text.byteCount(bytes))"
            + (clones.isEmpty ? "" : " (" + clones.joined(separator: ", ") + ", no new space)") + ". "
    }

    /// The status as `--json` gives it: camelCase, as every command's statuses.
    static func jsonStatus(_ result: ImportResult) -> String {
        if case .reused = result { return "alreadyThere" }
        return status(result)
    }

    static func status(_ result: ImportResult) -> String {
        switch result {
        case .imported: return "imported"
        case .reused: return "already there"
        case .restored: return "restored"
        case .completed: return "completed"
        case .failed: return "failed"
        }
    }

    static func progressLine(_ request: ImportRequest, _ result: ImportResult) -> String {
        switch result {
        case .imported(let item): return "imported \(request.path) -> \(item.primary?.name ?? "?")"
        case .reused(let item): return "already there \(request.path) (\(item.id))"
        case .restored(let item): return "restored \(request.path) -> \(item.primary?.name ?? "?")"
        case .completed(let item, let added):
            return "completed \(item.id) from \(request.path): added " + added.joined(separator: ", ")
        case .failed(let error): return "failed \(request.path): \(error.message)"
        }
    }

    static func jsonLine(_ request: ImportRequest, _ result: ImportResult) -> String {
        guard let item = result.item else {
            return jsonError(path: request.path, error: result.error ?? ImportError(.cancelled, "not imported"))
        }
        var object = ItemJSON.object(item, status: ImportJob.jsonStatus(result), path: request.path)
        if let added = result.added { object.add("added", strings: added) }
        return object.text + "\n"
    }

    /// A file found in a folder that is not media: not imported, not a failure.
    static func jsonError(path: String, error: ImportError) -> String {
        JSONObject.failure(path: path, code: error.code.rawValue, message: error.message, hint: error.hint).text + "\n"
    }
}
