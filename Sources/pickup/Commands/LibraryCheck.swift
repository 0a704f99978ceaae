import Pickup
import PickupCommandLine
import PickupImport

/// `pickup library DIR verify` and `repair`: what they read, found and did, as rows or JSON Lines.
struct LibraryCheck {
    let folder: String
    let json: Bool

    /// Reads every stored file; prints what is wrong; 0 when nothing is.
    func verify(_ catalog: ImportCatalog) async throws(ImportError) -> Int32 {
        let report = try await LibraryVerifier(folder: folder, catalog: catalog).verify(progress: bar().draw)
        bar().finish()
        var output = report.findings.map(line).joined()
        if json {
            output += summary(report, repaired: nil).text + "\n"
        } else {
            output +=
                totals(report)
                + (report.isClean
                    ? "every file is intact.\n"
                    : "\(LibraryCheck.count(report.findings.count, "problem")). "
                        + hint(
                            report.findings,
                            beyondRepair: try await LibraryRepair(folder: folder, catalog: catalog).beyondRepair(
                                report.findings)) + "\n")
        }
        Console.raw(output)
        return report.isClean ? ExitStatus.success : ExitStatus.someFailed
    }

    /// Verifies, then copies missing and damaged files again from their sources, or names moved
    /// ones back; 0 when the library is whole afterwards. `dryRun`: says what the repair would
    /// do about each file, and changes nothing; 0 when it would leave the library whole.
    func repair(_ catalog: ImportCatalog, dryRun: Bool = false) async throws(ImportError) -> Int32 {
        let repair = LibraryRepair(folder: folder, catalog: catalog)
        let report: LibraryRepair.Report
        if dryRun {
            let verification = try await LibraryVerifier(folder: folder, catalog: catalog).verify(progress: bar().draw)
            report = try await repair.plan(after: verification)
        } else {
            report = try await repair.repair(progress: bar().draw)
        }
        bar().finish()
        let settled = Set(report.outcomes.map(\.finding.name)).union(report.namedBack)
        var output = report.outcomes.map { line($0, dryRun: dryRun) }.joined()
        output += report.verification.findings.filter { !settled.contains($0.name) }.map(line).joined()
        let repaired = report.outcomes.filter(\.repaired).count
        if json {
            output += summary(report.verification, repaired: dryRun ? nil : Int64(repaired)).text + "\n"
        } else if report.verification.isClean {
            output += totals(report.verification) + "every file is intact; nothing to repair.\n"
        } else if dryRun {
            output +=
                totals(report.verification)
                + "\(LibraryCheck.count(report.verification.findings.count, "problem")): \(repaired) would be repaired"
                + (report.remaining > 0 ? ", \(report.remaining) would remain" : "")
                + ". Nothing was changed (--dry-run).\n"
        } else {
            let unrepaired = report.outcomes.count - repaired
            var parts = ["\(repaired) repaired"]
            // A file moved by hand is two problems, both settled by naming it back.
            if !report.namedBack.isEmpty {
                parts.append("\(LibraryCheck.count(report.namedBack.count, "unknown file")) named back")
            }
            if unrepaired > 0 {
                parts.append(
                    "\(unrepaired) cannot be repaired (restore \(unrepaired == 1 ? "it" : "them") from a backup)")
            }
            let unknown = report.unknown.count
            if unknown > 0 {
                parts.append(
                    "\(LibraryCheck.count(unknown, "unknown file")) left alone (not in the catalog: move or "
                        + "delete \(unknown == 1 ? "it" : "them") yourself)")
            }
            let other =
                report.verification.findings.count - report.outcomes.count - unknown - report.namedBack.count
            if other > 0 { parts.append("\(other) named outside the library, left alone") }
            output +=
                totals(report.verification) + "\(LibraryCheck.count(report.verification.findings.count, "problem")): "
                + parts.joined(separator: ", ") + ".\n"
        }
        Console.raw(output)
        return report.remaining == 0 ? ExitStatus.success : ExitStatus.someFailed
    }

    /// What to do about the problems verify found; `beyondRepair`: the missing or damaged files
    /// with no source still there that repair could copy them from again.
    private func hint(_ findings: [LibraryVerifier.Finding], beyondRepair: [LibraryVerifier.Finding]) -> String {
        let broken = findings.filter { $0.problem == .missing || $0.problem == .damaged }.count
        let gone = beyondRepair.count
        let unknown = findings.contains { $0.problem == .unknown && $0.pairedWith == nil }
        let moved = findings.filter { $0.problem == .missing && $0.pairedWith != nil }.count
        var hints: [String] = []
        if gone < broken {
            let what =
                moved == 0
                ? "copy missing and damaged files again from their sources"
                : moved == broken
                    ? "name the moved \(moved == 1 ? "file" : "files") back"
                    : "name moved files back and copy the other missing and damaged ones again from their sources"
            hints.append("Run 'pickup library \(Text.clean(Text.shellQuoted(folder))) repair' to \(what)")
        }
        if gone > 0 {
            let names = Text.clean(
                beyondRepair.prefix(3).map(\.name).joined(separator: ", ") + (gone > 3 ? ", ..." : ""))
            hints.append(
                (hints.isEmpty ? "" : "for ")
                    + (gone == broken
                        ? (broken == 1 ? "its source is" : "their sources are")
                        : "\(gone) of them, the sources are") + " gone or changed (\(names)): restore "
                    + (gone == 1 ? "it" : "them") + " from a backup, or import "
                    + (gone == 1 ? "its source" : "their sources") + " again from where "
                    + (gone == 1 ? "it is" : "they are") + " now ('pickup import PATH --into "
                    + Text.shellQuoted(folder) + "' puts back the same bytes)")
        }
        if unknown { hints.append((hints.isEmpty ? "Move" : "move") + " or delete the unknown files yourself") }
        if hints.isEmpty { return "Restore the library from a backup." }
        let text = hints.joined(separator: "; ") + "."
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    private func totals(_ report: LibraryVerifier.Report) -> String {
        "\(LibraryCheck.count(report.items, "item")), \(LibraryCheck.count(report.files, "file")), "
            + "\(Text.byteCount(report.bytesRead)) read: "
    }

    private func summary(_ report: LibraryVerifier.Report, repaired: Int64?) -> JSONObject {
        var object = JSONObject()
        object.add("type", "summary")
        object.add("items", Int64(report.items))
        object.add("files", Int64(report.files))
        object.add("bytesRead", report.bytesRead)
        object.add("problems", Int64(report.findings.count))
        if let repaired { object.add("repaired", repaired) }
        return object
    }

    /// A JSON line's start for a finding: its type, then which item, file and problem.
    private static func object(_ type: String, _ finding: LibraryVerifier.Finding) -> JSONObject {
        var object = JSONObject()
        object.add("type", type)
        object.add("item", finding.itemID as String?)
        object.add("name", finding.name)
        object.add("problem", finding.problem.rawValue)
        if let paired = finding.pairedWith { object.add("pairedWith", paired) }
        if let original = finding.copyOf { object.add("copyOf", original) }
        return object
    }

    private func line(_ finding: LibraryVerifier.Finding) -> String {
        if json {
            var object = LibraryCheck.object("finding", finding)
            object.add("detail", finding.detail)
            return object.text + "\n"
        }
        return Text.pad(finding.problem.rawValue, 15) + Text.pad(finding.itemID ?? "-", 14)
            + Text.clean(finding.name + ": " + finding.detail) + "\n"
    }

    /// What became of one file, or with `dryRun` what would (`wouldRepair`; nothing repaired).
    private func line(_ outcome: LibraryRepair.Outcome, dryRun: Bool) -> String {
        let finding = outcome.finding
        if json {
            var object = LibraryCheck.object("repair", finding)
            object.add("repaired", outcome.repaired && !dryRun)
            if dryRun { object.add("wouldRepair", outcome.repaired) }
            object.add("source", outcome.source)
            object.add("detail", outcome.detail)
            return object.text + "\n"
        }
        let status =
            dryRun
            ? (outcome.repaired ? "would repair" : "cannot repair") : (outcome.repaired ? "repaired" : "not repaired")
        return Text.pad(status, 15) + Text.pad(finding.itemID ?? "-", 14)
            + Text.clean(finding.name + " (" + finding.problem.rawValue + "): " + outcome.detail) + "\n"
    }

    /// On a terminal, a bar over the bytes to read (known from the first report on).
    private let progress = LockedValue<ProgressBar?>(nil)

    private func bar() -> (draw: @Sendable (Int64, Int64) -> Void, finish: () -> Void) {
        let showBar = !json && Console.errorIsTerminal
        let progress = self.progress
        return (
            { read, total in
                guard showBar else { return }
                progress.withValue { bar in
                    if bar == nil { bar = ProgressBar(totalItems: 1, totalBytes: max(1, total)) }
                    bar?.draw(itemsDone: 0, bytesDone: read, current: "verifying")
                }
            },
            { progress.withValue { $0?.finish() } }
        )
    }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
