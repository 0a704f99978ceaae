import Pickup
import PickupCommandLine

/// The readable table `pickup probe` prints: one row a file.
struct ProbeTable {
    private let columns: [(title: String, width: Int)] = [
        ("KIND", 11), ("SIZE", 8), ("TIME", 7), ("PIXELS", 14), ("CODEC", 17), ("TAKEN", 26), ("PLACE", 21),
        ("FILE", 0),
    ]

    var header: String { line(columns.map(\.title)) }

    func row(path: String, info: MediaInfo) -> String {
        var kind = info.kind.rawValue
        if let role = info.livePhotoRole { kind = "live " + role.rawValue }
        if info.animated { kind = "animated" }
        var pixels = "-"
        if let width = info.displayWidth, let height = info.displayHeight {
            pixels = "\(width)x\(height)"
            if info.rotation != .none { pixels += " r\(info.rotation.degrees)" }
        }
        let codecs = [info.videoCodec ?? info.imageCodec, info.audioCodec].compactMap { $0 }
        let taken = ProbeTable.taken(info.creationDate)
        var place = "-"
        if let location = info.location {
            place = Text.fixed(location.latitude, 4) + "," + Text.fixed(location.longitude, 4)
        }
        return line([
            kind, Text.byteCount(info.fileSize), info.duration.map { DurationLabel.string(seconds: $0) } ?? "-",
            pixels, codecs.isEmpty ? "-" : codecs.joined(separator: "/"), taken, place, Text.clean(path),
        ])
    }

    /// A date as the TAKEN columns show it: `2026-06-21 19:42:05 +02:00`, `... Z` for UTC, no
    /// zone when the file gives none; `-` for none.
    static func taken(_ date: MediaDate?) -> String {
        guard let date else { return "-" }
        let iso = date.iso8601
        let zone = String(iso.dropFirst(19))
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(8)) + (zone.isEmpty ? "" : " " + zone)
    }

    private func line(_ cells: [String]) -> String {
        var text = ""
        for (cell, column) in zip(cells, columns) {
            text += column.width > 0 ? Text.pad(cell, column.width) + " " : cell
        }
        return text + "\n"
    }
}
