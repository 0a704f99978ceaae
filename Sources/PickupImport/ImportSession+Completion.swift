import Foundation
import Pickup

/// An item the catalog holds whole but without a file a request brings: a Live Photo's still
/// imported alone, then picked again with its movie (a whole card imported after one photo of
/// it). The item is completed: the files it lacks are named beside its primary file and
/// recorded with it (`ImportCatalog.record`), its other files left as they are. Reusing it, as
/// before, dropped the movie, and a card wiped after the import lost it.
extension ImportSession {
    /// The item with the request's new files named, the copies of files it has dropped; nil when
    /// the request brings no file the item lacks, or brings for a role it has other bytes than
    /// the item's (then it is not this item's file, and the item is reused as it is). On failure
    /// nothing half-done stays.
    func completing(_ item: ImportedItem, with made: Made, syncing: Bool) throws(ImportError) -> Settled? {
        let parts = made.request.parts
        guard item.isCompleted(by: parts.map(\.role), hashes: made.copies.map(\.sha256)) else { return nil }
        let held = Set(item.files.map(\.role))
        // Beside the primary file, in its folder (the layout's subfolder when it was imported).
        let folder = item.primary.map { ($0.name as NSString).deletingLastPathComponent } ?? ""
        let subfolder = folder.isEmpty ? "" : folder + "/"
        let placer = FileCopier(folder: destination + (folder.isEmpty ? "" : "/" + folder))
        var completed = item
        var placed: [String] = []
        var usedUp = 0
        do throws(ImportError) {
            for (part, copy) in zip(parts, made.copies) {
                guard !held.contains(part.role) else {
                    copy.temporary.discard()
                    usedUp += 1
                    continue
                }
                let name =
                    subfolder
                    + (try placer.place(copy.temporary, as: ImportSession.fileName(part.path), syncing: false))
                unrecorded.withValue { _ = $0.insert(name) }
                usedUp += 1
                placed.append(name)
                if syncing { placer.syncFolder() }
                completed.files.append(
                    StoredFile(
                        role: part.role, name: name, originalPath: part.path, size: copy.size, sha256: copy.sha256,
                        method: copy.method, duration: made.request.duration(of: part.role)))
            }
        } catch {
            for copy in made.copies[usedUp...] { copy.temporary.discard() }
            for name in placed { unlink(destination + "/" + name) }
            recordedNames(placed)
            throw error
        }
        return .named(completed, names: placed)
    }
}
