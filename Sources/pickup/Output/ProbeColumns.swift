import ArgumentParser
import Foundation
import Pickup
import PickupCommandLine

/// `pickup probe --format csv|tsv`: a header row of field names, then one row a file, as
/// exiftool -T and ffprobe -show_entries users read them. The fields are probe's --json keys
/// (`path` and `MediaInfo.factNames`); a fact the file does not give is an empty cell in CSV
/// and `-` in TSV (as exiftool -T writes it). A file that could not be probed still gets its
/// row, its path and nothing else (its error goes to standard error), so rows match the files.
struct ProbeColumns {
    enum Format: String, CaseIterable {
        case csv, tsv
    }

    /// Every field --fields takes, in --json's order.
    static let names = ["path"] + MediaInfo.factNames

    let fields: [String]
    let format: Format

    /// The fields named with commas (nil: every one); an unknown one is a usage mistake.
    init(fields text: String?, format: Format) throws(ValidationError) {
        self.format = format
        guard let text else {
            fields = ProbeColumns.names
            return
        }
        let asked = text.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0).trimmingCharacters(in: .whitespaces)
        }
        for name in asked where !ProbeColumns.names.contains(name) {
            throw ValidationError(
                "--fields: no field '\(name)'\(UnknownOptions.guess(name, among: ProbeColumns.names)); choose among "
                    + ProbeColumns.names.joined(separator: ", "))
        }
        fields = asked
    }

    var header: String { line(fields) }

    /// The row of the file at `path`; `info` nil: a file that could not be probed.
    func row(path: String, info: MediaInfo?) -> String {
        let facts = info?.facts ?? []
        let known = Dictionary(facts.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let missing = format == .tsv ? "-" : ""
        return line(
            fields.map { name in
                if name == "path" { return Text.rawBytesShown(path) }
                switch known[name] {
                case .string(let value): return value
                case .int(let value): return String(value)
                case .double(let value): return String(value)
                case .bool(let value): return value ? "true" : "false"
                case nil: return missing
                }
            })
    }

    /// CSV as RFC 4180 writes it (a cell with a comma, a quote or a line break in quotes, its
    /// quotes doubled); TSV with tabs and line breaks in a cell written \t, \n and \r.
    private func line(_ cells: [String]) -> String {
        switch format {
        case .csv:
            return cells.map { cell in
                cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                    ? "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : cell
            }.joined(separator: ",") + "\r\n"
        case .tsv:
            return cells.map { cell in
                cell.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
                    .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
            }.joined(separator: "\t") + "\n"
        }
    }
}
