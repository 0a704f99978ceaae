import ArgumentParser
import Pickup
import PickupCommandLine
import PickupImport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `pickup library`: what a library folder holds.
struct LibraryCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "List, show, verify, repair or remove the items of a library made by 'pickup import'.",
        usage: "pickup library DIR list|show ID|verify|repair|remove ID [--sort KEY] [--dry-run] [--yes] [--json]",
        discussion: """
            list, show and verify only read: they work on a library you may not write (another \
            user's, a read-only disk) and change nothing in it. verify checks each stored file's \
            size and SHA-256 against the catalog and lists missing, damaged and unknown files, in \
            any folder of the library. repair copies missing and damaged files again from the \
            sources they were imported from, each put in place only when its SHA-256 is the one \
            the catalog records; a file moved or renamed inside the library by hand (the same \
            size and SHA-256) is named back instead. It says which cannot be repaired (a source \
            gone or changed) and leaves other unknown files alone. remove asks first on a terminal, and without one needs \
            --yes (--yes does not ask; --dry-run says what it would remove and removes nothing).

            Exit status: 0 on success, 1 when the library or the item is not found, or verify \
            or repair leaves a problem, 2 for a usage mistake.
            """
                + Examples.text([
                    "pickup library ~/Pictures/Library list --sort taken", "pickup library Library show 3f2a9c",
                    "pickup library Library verify", "pickup library Library repair",
                    "pickup library Library remove 3f2a9c --dry-run",
                ]))

    @Argument(
        help: ArgumentHelp(
            "The library folder, then what to do: list (every item: id, kind, duration, size, date taken, "
                + "stored files), show ID (one item in full; a unique id prefix is enough), verify (read every "
                + "stored file: missing, damaged and unknown files are listed), repair (copy missing and damaged "
                + "files again from their sources) or remove ID (from the catalog, then its files).",
            valueName: "DIR list|show ID|verify|repair|remove ID"),
        completion: .directory)
    var arguments: [String] = []

    @Option(
        name: .customLong("sort"),
        help: ArgumentHelp(
            "list: the order of the items: imported (the default, oldest import first), taken (the date the "
                + "media was taken, oldest first, undated last; a date without a zone is read as UTC), size "
                + "(largest first) or name.",
            valueName: "KEY"),
        completion: .list(LibraryJob.Order.allCases.map(\.rawValue)))
    var sort: String?

    @Flag(name: [.customLong("json")], help: "Print JSON (one object a line for list, verify and repair).")
    var json = false

    @Flag(
        name: [.customLong("dry-run")],
        help: "remove: say what would be removed, and remove nothing; repair: say what would be repaired, and how.")
    var dryRun = false

    @Flag(name: [.customLong("yes"), .customShort("y")], help: "remove: do not ask first (needed without a terminal).")
    var yes = false

    func job() throws -> LibraryJob { try LibraryJob(self) }
}

/// What the command does, from its checked arguments.
struct LibraryJob: CommandJob {
    enum Action {
        case list
        case show(String)
        case verify
        case repair
        case remove(String)
    }

    /// The orders `list --sort` knows.
    enum Order: String, CaseIterable {
        case imported, taken, size, name
    }

    let folder: String
    let action: Action
    let order: Order
    let json: Bool
    let dryRun: Bool
    let yes: Bool

    init(_ command: LibraryCommand) throws(ValidationError) {
        let words = command.arguments
        let actions = ["list", "show", "verify", "repair", "remove"]
        if let first = words.first, actions.contains(first), words.count >= 2, !actions.contains(words[1]) {
            // `pickup library list lib`: the folder goes first.
            let rest = ([words[1], first] + words.dropFirst(2)).map(Text.shellQuoted).joined(separator: " ")
            throw ValidationError(
                "the library folder goes before what to do: 'pickup library \(rest)', not "
                    + "'pickup library \(words.map(Text.shellQuoted).joined(separator: " "))'")
        }
        guard words.count >= 2 else {
            throw ValidationError(
                "name the library folder and what to do: list, show ID, verify, repair or remove ID")
        }
        try OutputCheck.utf8(words[0], option: "the library folder")
        folder = words[0]
        switch (words[1], words.count) {
        case ("list", 2): action = .list
        case ("show", 3): action = .show(words[2])
        case ("verify", 2): action = .verify
        case ("repair", 2): action = .repair
        case ("remove", 3): action = .remove(words[2])
        case ("show", 2), ("remove", 2):
            throw ValidationError(
                "'\(words[1])' needs the item's id (or the start of it), as 'pickup library "
                    + "\(Text.shellQuoted(words[0])) \(words[1]) ID': 'pickup library \(Text.shellQuoted(words[0])) list' "
                    + "shows the ids")
        case ("show", _), ("remove", _):
            throw ValidationError(
                "'\(words[1])' takes one id at a time, not \(words.count - 2) ("
                    + "\(words.dropFirst(2).joined(separator: " "))): run it once for each")
        default:
            let known = ["list", "show", "verify", "repair", "remove"]
            let guess = known.contains(words[1]) ? "" : UnknownOptions.guess(words[1], among: known)
            throw ValidationError(
                "expected 'list', 'show ID', 'verify', 'repair' or 'remove ID' after the folder, not "
                    + "'\(words.dropFirst().joined(separator: " "))'\(guess)")
        }
        guard let order = Order(rawValue: command.sort ?? "imported") else {
            throw ValidationError(
                "--sort takes " + Order.allCases.map(\.rawValue).joined(separator: ", ")
                    + ", not '\(command.sort ?? "")'"
                    + UnknownOptions.guess(command.sort ?? "", among: Order.allCases.map(\.rawValue)))
        }
        if command.sort != nil, case .list = action {
        } else if command.sort != nil {
            throw ValidationError("--sort goes with 'list'")
        }
        switch action {
        case .remove: break
        case .repair where !command.yes: break
        default:
            if command.dryRun || command.yes {
                throw ValidationError(
                    command.dryRun ? "--dry-run goes with 'remove ID' or 'repair'" : "--yes goes with 'remove ID'")
            }
        }
        dryRun = command.dryRun
        yes = command.yes
        self.order = order
        json = command.json
    }

    /// The items (as the catalog lists them) in the order asked for; ties keep the catalog's order.
    static func sorted(_ items: [ImportedItem], by order: Order) -> [ImportedItem] {
        let indexed = Array(items.enumerated())
        let sorted: [(offset: Int, element: ImportedItem)]
        switch order {
        case .imported:
            // The catalog lists its items in this order already (oldest import first, then by id).
            return items
        case .taken:
            // Undated items last, in the catalog's order; a date without a zone read as UTC.
            sorted = indexed.sorted { left, right in
                let a = left.element.info.creationDate?.orderingSeconds ?? Int.max
                let b = right.element.info.creationDate?.orderingSeconds ?? Int.max
                return (a, left.offset) < (b, right.offset)
            }
        case .size:
            sorted = indexed.sorted {
                (-ItemTable.bytes($0.element), $0.offset) < (-ItemTable.bytes($1.element), $1.offset)
            }
        case .name:
            sorted = indexed.sorted {
                let a = $0.element.originalName.lowercased()
                let b = $1.element.originalName.lowercased()
                return a != b ? a < b : $0.offset < $1.offset
            }
        }
        return sorted.map(\.element)
    }

    func run() async -> Int32 {
        do {
            let readOnly: Bool
            if case .remove = action, !dryRun { readOnly = false } else { readOnly = true }
            let catalog = try ImportCatalog(folder: folder, readOnly: readOnly)
            switch action {
            case .list:
                try await list(catalog)
            case .show(let id):
                guard let (item, tookOver) = try await catalog.item(idOrFormerVideo: id) else {
                    return try await notFound(id, in: catalog)
                }
                if tookOver {
                    // An id printed before a Live Photo took the video's file over still shows it.
                    Console.error(
                        Text.clean(
                            "pickup library: '\(id)' was a video item; its file is now the movie of the "
                                + "Live Photo \(item.id) (\(item.originalName)), shown here"))
                }
                if json {
                    Console.out(ItemJSON.object(item).text)
                } else {
                    Console.raw(LibraryJob.details(item))
                }
            case .verify:
                return try await LibraryCheck(folder: folder, json: json).verify(catalog)
            case .repair:
                return try await LibraryCheck(folder: folder, json: json).repair(catalog, dryRun: dryRun)
            case .remove(let id):
                guard let item = try await catalog.item(id: id) else { return try await notFound(id, in: catalog) }
                return try await LibraryRemoval(folder: folder, json: json, dryRun: dryRun, yes: yes).run(
                    item, in: catalog)
            }
            return ExitStatus.success
        } catch {
            if json {
                Console.out(
                    JSONObject.failure(
                        path: folder, code: error.code.rawValue, message: error.message, hint: error.hint
                    )
                    .text)
            } else {
                Console.error(Text.clean("pickup library: " + error.description))
            }
            return ExitStatus.someFailed
        }
    }

    /// No item has this id: when the prefix fits several, their ids and names, so that the next
    /// try can be exact.
    private func notFound(_ id: String, in catalog: ImportCatalog) async throws(ImportError) -> Int32 {
        let candidates = try await LibraryJob.fitting(id, in: catalog, most: 10)
        let message: String
        let hint: String
        let live = candidates.isEmpty ? try await catalog.livePhoto(formerVideoID: id) : nil
        if let live {
            message =
                "'\(id)' was a video item in \(folder); its file is now the movie of the Live Photo "
                + "\(live.id) (\(live.originalName))"
            hint = "Use the Live Photo's id, \(live.id): it holds the still and the movie."
        } else if candidates.count > 1 {
            message =
                "'\(id)' fits \(LibraryJob.counted(candidates, most: 10)) items in \(folder): "
                + LibraryJob.listed(candidates, most: 10)
            hint = "Give more characters of the id."
        } else {
            message = "no item '\(id)' in \(folder)"
            hint = "Run 'pickup library \(Text.shellQuoted(folder)) list' for the items' ids."
        }
        if json {
            Console.out(
                JSONObject.failure(
                    path: folder, code: live != nil ? "takenOver" : candidates.count > 1 ? "ambiguous" : "notFound",
                    message: message, hint: hint
                ).text)
        } else {
            Console.error(Text.clean("pickup library: \(message). \(hint)"))
        }
        return ExitStatus.someFailed
    }

    /// The items whose id begins with `id` (none for an empty one), at most `most` and one more
    /// (to tell "more than `most`"): what a prefix of several fits.
    static func fitting(_ id: String, in catalog: ImportCatalog, most: Int) async throws(ImportError) -> [ImportedItem]
    {
        try await catalog.items(idPrefix: id, limit: most + 1)
    }

    /// How many items `fitting(_:in:most:)` found, in words: "3", or "more than 10".
    static func counted(_ items: [ImportedItem], most: Int) -> String {
        items.count > most ? "more than \(most)" : String(items.count)
    }

    /// The first `most` of `items` as `ID (NAME)`, with `...` when there are more.
    static func listed(_ items: [ImportedItem], most: Int) -> String {
        items.prefix(most).map { "\($0.id) (\($0.originalName))" }.joined(separator: ", ")
            + (items.count > most ? ", ..." : "")
    }

    static func details(_ item: ImportedItem) -> String {
        var rows: [(String, String)] = [
            ("item", item.id), ("kind", item.isLivePhoto ? "live photo" : item.kind.rawValue),
            ("from", item.originalPath), ("imported", date(item.importedAt)),
        ]
        for file in item.files {
            rows.append(
                ("file", "\(file.name)  \(Text.byteCount(file.size))  sha256 \(file.sha256)  (\(file.role.rawValue))"))
        }
        if let thumbnail = item.thumbnail {
            rows.append(("thumbnail", "\(thumbnail.name)  \(thumbnail.width)x\(thumbnail.height)"))
        }
        // The item's kind is shown above (a Live Photo's as such): not again among the facts.
        for (name, value) in item.info.facts where name != "kind" {
            let shown: String
            switch value {
            case .string(let string): shown = string
            case .int(let number): shown = String(number)
            case .double(let number): shown = String(number)
            case .bool(let flag): shown = flag ? "yes" : "no"
            }
            rows.append((name, shown))
        }
        // Keys in one column, as wide as the longest key, values beside them.
        let width = (rows.map(\.0.count).max() ?? 0) + 2
        return rows.map { Text.pad($0.0, width) + Text.clean($0.1) + "\n" }.joined()
    }

    static func date(_ seconds: Double) -> String {
        let iso = MediaDate(utcSecondsSince1970: Int(seconds)).iso8601
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5))
    }
}
