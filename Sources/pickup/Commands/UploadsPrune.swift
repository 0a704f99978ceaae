import ArgumentParser
import Foundation
import Pickup
import PickupCommandLine
import PickupUpload

extension UploadsCommand {
    /// `pickup uploads prune`: removes the records of finished uploads from the journal.
    struct Prune: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove finished uploads (done, cancelled) from the journal; failed and paused ones stay.",
            discussion: "Each record removed is listed (--json: its upload line). A done upload removed is no "
                + "longer 'already there': the same bytes would be sent again."
                + Examples.text(["pickup uploads prune --dry-run", "pickup uploads prune --older-than 30d"]))

        @Flag(name: .customLong("dry-run"), help: "List the records that would be removed; remove nothing.")
        var dryRun = false

        @Option(
            name: .customLong("older-than"), parsing: .unconditional,
            help: ArgumentHelp(
                "Only uploads last changed longer ago than this: a number and s, m, h, d or w (90m, 30d, 2w).",
                valueName: "DURATION"))
        var olderThan: String?

        @OptionGroup var shared: JournalOptions

        func validate() throws {
            _ = try Prune.seconds(olderThan)
            try OutputCheck.utf8(shared.journal, option: "--journal")
        }

        /// Seconds from `90m`, `30d`, `2w` (nil: no limit).
        static func seconds(_ text: String?) throws(ValidationError) -> Double? {
            guard let text else { return nil }
            let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
            // Digits and one point (`DecimalText`: `Double` alone would read `0x10d` as 16 days).
            guard let unit = text.last.flatMap({ units[$0] }), let number = DecimalText.value(text.dropLast()),
                number.isFinite
            else {
                throw ValidationError(
                    "--older-than takes a number and s, m, h, d or w (90m, 30d, 2w), not '\(text)'")
            }
            return number * unit
        }

        func run() async throws {
            try finish(await prune())
        }

        private func prune() async -> Int32 {
            let path = shared.journal ?? UploadJournal.defaultPath
            guard UploadJournal.exists(at: path) else {
                if shared.journal != nil {
                    Console.error("pickup uploads: no journal at \(path); check the path given to --journal")
                    return ExitStatus.someFailed
                }
                if !shared.json { Console.out("nothing to prune (no journal at \(path))") }
                return ExitStatus.success
            }
            do {
                let journal = try UploadJournal(path: path, readOnly: dryRun)
                let age = (try? Prune.seconds(olderThan)) ?? nil
                let before = age.map { Date().timeIntervalSince1970 - $0 }
                let removed = try await journal.prune(updatedBefore: before, dryRun: dryRun)
                let kept = try await journal.all().count - (dryRun ? removed.count : 0)
                Console.raw(
                    removed.map { shared.json ? UploadRunner.line($0) : UploadRunner.summary($0) }.joined())
                if !shared.json {
                    let count = "\(removed.count) finished upload\(removed.count == 1 ? "" : "s")"
                    Console.out(
                        (dryRun ? "would remove \(count) (--dry-run: nothing removed)" : "removed \(count)")
                            + " from \(path); \(kept) kept")
                }
                return ExitStatus.success
            } catch {
                Console.error(Text.clean("pickup uploads: " + UploadHints.line(error)))
                return ExitStatus.someFailed
            }
        }
    }
}
