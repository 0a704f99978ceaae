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
struct LibraryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "List, show, verify or remove the items of a library folder made by 'pickup import'.",
        usage: "pickup library DIR list|show ID|verify|remove ID [--json]",
        discussion: """
            list, show and verify only read: they work on a library you may not write (another \
            user's, a read-only disk) and change nothing in it. verify checks each stored file's \
            size and SHA-256 against the catalog; 'pickup import' of the same sources puts back a \
            missing or damaged file.

            Exit status: 0 on success, 1 when the library or the item is not found or verify finds \
            a problem, 2 for a usage mistake.
            """
                + Examples.text([
                    "pickup library ~/Pictures/Library list", "pickup library Library show 3f2a9c",
                    "pickup library Library verify", "pickup library Library remove 3f2a9c",
                ]))

    @Argument(
        help: ArgumentHelp(
            "The library folder, then what to do: list (every item: id, kind, duration, size, stored files), "
                + "show ID (one item in full; a unique id prefix is enough), verify (read every stored file: "
                + "missing, damaged and unknown files are listed) or remove ID (from the catalog, then its files).",
            valueName: "DIR list|show ID|verify|remove ID"))
    var arguments: [String] = []

    @Option(
        name: .customLong("sort"),
        help: ArgumentHelp(
            "list: the order of the items: imported (the default, oldest import first), taken (the date the "
                + "media was taken, oldest first, undated last), size (largest first) or name.",
            valueName: "KEY"))
    var sort: String?

    @Flag(name: [.customLong("json")], help: "Print JSON (one object a line for list and verify).")
    var json = false

    func validate() throws {
        _ = try LibraryJob(self)
    }

    func run() async throws {
        try finish(await LibraryJob(self).run())
    }
}

/// What the command does, from its checked arguments.
struct LibraryJob {
    enum Action {
        case list
        case show(String)
        case verify
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

    init(_ command: LibraryCommand) throws(ValidationError) {
        let words = command.arguments
        guard words.count >= 2 else {
            throw ValidationError("name the library folder and what to do: list, show ID, verify or remove ID")
        }
        folder = words[0]
        switch (words[1], words.count) {
        case ("list", 2): action = .list
        case ("show", 3): action = .show(words[2])
        case ("verify", 2): action = .verify
        case ("remove", 3): action = .remove(words[2])
        default:
            throw ValidationError("expected 'list', 'show ID', 'verify' or 'remove ID' after the folder")
        }
        guard let order = Order(rawValue: command.sort ?? "imported") else {
            throw ValidationError(
                "--sort takes " + Order.allCases.map(\.rawValue).joined(separator: ", ")
                    + ", not '\(command.sort ?? "")'")
        }
        if command.sort != nil, case .list = action {
        } else if command.sort != nil {
            throw ValidationError("--sort goes with 'list'")
        }
        self.order = order
        json = command.json
    }

    /// The items (as the catalog lists them) in the order asked for; ties keep the catalog's order.
    static func sorted(_ items: [ImportedItem], by order: Order) -> [ImportedItem] {
        let indexed = Array(items.enumerated())
        func size(_ item: ImportedItem) -> Int64 { item.files.reduce(0) { $0 + $1.size } }
        let sorted: [(offset: Int, element: ImportedItem)]
        switch order {
        case .imported:
            // The catalog lists its items in this order already (oldest import first, then by id).
            return items
        case .taken:
            // Undated items last, in the catalog's order.
            sorted = indexed.sorted { left, right in
                let a = left.element.info.creationDate?.secondsSince1970 ?? Int.max
                let b = right.element.info.creationDate?.secondsSince1970 ?? Int.max
                return (a, left.offset) < (b, right.offset)
            }
        case .size: sorted = indexed.sorted { (-size($0.element), $0.offset) < (-size($1.element), $1.offset) }
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
            if case .remove = action { readOnly = false } else { readOnly = true }
            let catalog = try ImportCatalog(folder: folder, readOnly: readOnly)
            switch action {
            case .list:
                let items = LibraryJob.sorted(try await catalog.items(), by: order)
                if json {
                    Console.raw(items.map { ItemJSON.object($0).text + "\n" }.joined())
                } else {
                    var text = ItemTable.headerRow(note: "IMPORTED (UTC)")
                    for item in items { text += ItemTable.row(item, note: LibraryJob.date(item.importedAt)) }
                    let bytes = items.reduce(Int64(0)) { $0 + $1.files.reduce(0) { $0 + $1.size } }
                    Console.raw(
                        text + "\n\(items.count) item\(items.count == 1 ? "" : "s"), \(Text.byteCount(bytes)).\n")
                }
            case .show(let id):
                guard let item = try await catalog.item(id: id) else { return notFound(id) }
                if json {
                    Console.out(ItemJSON.object(item).text)
                } else {
                    Console.raw(LibraryJob.details(item))
                }
            case .verify:
                return try await verify(catalog)
            case .remove(let id):
                guard let item = try await catalog.remove(id: id) else { return notFound(id) }
                if json {
                    Console.out(ItemJSON.object(item, status: "removed").text)
                } else {
                    Console.out("removed \(item.id): " + item.files.map(\.name).joined(separator: ", "))
                }
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

    private func verify(_ catalog: ImportCatalog) async throws(ImportError) -> Int32 {
        // On a terminal, a bar over the bytes to read (known from the first report on).
        let showBar = !json && Console.errorIsTerminal
        let bar = LockedValue<ProgressBar?>(nil)
        let report = try await LibraryVerifier(folder: folder, catalog: catalog).verify { read, total in
            guard showBar else { return }
            bar.withValue { bar in
                if bar == nil { bar = ProgressBar(totalItems: 1, totalBytes: max(1, total)) }
                bar?.draw(itemsDone: 0, bytesDone: read, current: "verifying")
            }
        }
        bar.withValue { $0?.finish() }
        var output = ""
        for finding in report.findings {
            if json {
                var object = JSONObject()
                object.add("type", "finding")
                object.add("item", finding.itemID as String?)
                object.add("name", finding.name)
                object.add("problem", finding.problem.rawValue)
                object.add("detail", finding.detail)
                output += object.text + "\n"
            } else {
                output +=
                    Text.pad(finding.problem.rawValue, 15) + Text.pad(finding.itemID ?? "-", 14) + finding.name + ": "
                    + finding.detail + "\n"
            }
        }
        if json {
            var object = JSONObject()
            object.add("type", "summary")
            object.add("items", Int64(report.items))
            object.add("files", Int64(report.files))
            object.add("bytesRead", report.bytesRead)
            object.add("problems", Int64(report.findings.count))
            output += object.text + "\n"
        } else {
            output +=
                "\(report.items) item\(report.items == 1 ? "" : "s"), \(report.files) file\(report.files == 1 ? "" : "s"), "
                + "\(Text.byteCount(report.bytesRead)) read: "
                + (report.isClean
                    ? "every file is intact.\n"
                    : "\(report.findings.count) problem\(report.findings.count == 1 ? "" : "s"). "
                        + "Import the same sources again to restore missing or damaged files.\n")
        }
        Console.raw(output)
        return report.isClean ? ExitStatus.success : ExitStatus.someFailed
    }

    private func notFound(_ id: String) -> Int32 {
        let message = "no item '\(id)' in \(folder) (or the prefix fits several)"
        if json {
            Console.out(
                JSONObject.failure(
                    path: folder, code: "notFound", message: message,
                    hint: "Run 'pickup library \(folder) list' for the items' ids."
                ).text)
        } else {
            Console.error(Text.clean("pickup library: \(message). Run 'pickup library \(folder) list'."))
        }
        return ExitStatus.someFailed
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
        for (name, value) in item.info.facts {
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
