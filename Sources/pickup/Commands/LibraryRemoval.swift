import Pickup
import PickupCommandLine
import PickupImport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `pickup library DIR remove ID`: says what it would remove (`--dry-run`), asks first on a
/// terminal (unless `--yes`; without a terminal it needs `--yes`), then removes the item from
/// the catalog and its files.
struct LibraryRemoval {
    let folder: String
    let json: Bool
    let dryRun: Bool
    let yes: Bool

    /// Removes `item` (found already), or says what would be removed; 0 when done as asked.
    func run(_ item: ImportedItem, in catalog: ImportCatalog) async throws(ImportError) -> Int32 {
        let names = item.files.map(\.name) + (item.thumbnail.map { [$0.name] } ?? [])
        if dryRun {
            if json {
                Console.out(ItemJSON.object(item, status: "wouldRemove").text)
            } else {
                Console.out(
                    Text.clean("would remove \(item.id) (\(item.originalName)): " + names.joined(separator: ", ")))
            }
            return ExitStatus.success
        }
        // A person at a terminal is asked. Without one (a script, a pipe, --json) there is nobody
        // to ask: nothing is removed without --yes, as an answer piped in is not read for one.
        if !yes, json || isatty(STDIN_FILENO) != 1 {
            Console.error(
                Text.clean(
                    "pickup library: \(item.id) (\(item.originalName)) was not removed: remove asks first, and there "
                        + "is no terminal to ask at; add --yes to remove it without asking."))
            return ExitStatus.someFailed
        }
        if !yes {
            Console.errorRaw(
                Text.clean("Remove \(item.id) (\(item.originalName)) and its files \(names.joined(separator: ", "))? ")
                    + "[y/N] ")
            let answer = readLine()?.filter { !$0.isWhitespace }.lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                Console.error("pickup library: nothing was removed (answer y to remove, or add --yes).")
                return ExitStatus.someFailed
            }
        }
        guard let removed = try await catalog.remove(id: item.id) else {
            Console.error("pickup library: \(item.id) was removed meanwhile by another process; nothing to do.")
            return ExitStatus.someFailed
        }
        if json {
            Console.out(ItemJSON.object(removed, status: "removed").text)
        } else {
            Console.out(
                Text.clean(
                    "removed \(removed.id): " + removed.files.map(\.name).joined(separator: ", ")
                        + " (importing its source again brings it back)"))
        }
        return ExitStatus.success
    }
}
