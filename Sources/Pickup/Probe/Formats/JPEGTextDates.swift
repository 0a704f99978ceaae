/// The dates a JPEG may carry outside EXIF: XMP's (APP1 `http://ns.adobe.com/xap/1.0/`) and
/// IPTC's (APP13 `Photoshop 3.0`, resource 0x0404). Editors and news agencies often write only
/// these; exiftool reads them, and so does the probe, after EXIF's own.
enum JPEGTextDates {
    /// The APP1 header of an XMP packet.
    static let xmpHeader = Array("http://ns.adobe.com/xap/1.0/\u{0}".utf8)
    /// The APP13 header of Photoshop's image resources.
    static let photoshopHeader = Array("Photoshop 3.0\u{0}".utf8)

    /// The first date of an XMP packet, by the properties that say when the picture was taken
    /// (`exif:DateTimeOriginal`, `photoshop:DateCreated`, then `xmp:CreateDate`), written as an
    /// attribute (`exif:DateTimeOriginal="..."`, or in single quotes) or an element
    /// (`<exif:DateTimeOriginal>...`).
    static func xmpDate(_ packet: [UInt8]) -> MediaDate? {
        for property in ["exif:DateTimeOriginal", "photoshop:DateCreated", "xmp:CreateDate"] {
            let name = Array(property.utf8)
            let forms: [([UInt8], UInt8)] = [
                (name + Array("=\"".utf8), UInt8(ascii: "\"")), (name + Array("='".utf8), UInt8(ascii: "'")),
                (name + Array(">".utf8), UInt8(ascii: "<")),
            ]
            for (opening, closing) in forms {
                guard let start = find(opening, in: packet) else { continue }
                let valueStart = start + opening.count
                let end = packet[valueStart...].prefix(64).firstIndex(of: closing) ?? valueStart
                let text = String(decoding: packet[valueStart..<end], as: UTF8.self)
                if let date = MediaDate(parsing: text) { return date }
            }
        }
        return nil
    }

    /// IPTC's DateCreated (2:55, `CCYYMMDD`) and TimeCreated (2:60, `HHMMSS±HHMM`) from Photoshop's
    /// image resources; a date without a time is not taken (the probe reports moments).
    static func iptcDate(_ resources: [UInt8]) -> MediaDate? {
        guard let block = iptcBlock(resources) else { return nil }
        var date: String?
        var time: String?
        var index = block.startIndex
        // Each dataset: 0x1C, record, number, a two-byte size, the value (extended sizes are not dates).
        while index + 5 <= block.endIndex, block[index] == 0x1C {
            let record = block[index + 1]
            let number = block[index + 2]
            let size = Int(block[index + 3]) << 8 | Int(block[index + 4])
            guard size < 0x8000, index + 5 + size <= block.endIndex else { return nil }
            let value = String(decoding: block[(index + 5)..<(index + 5 + size)], as: UTF8.self)
            if record == 2, number == 55 { date = value }
            if record == 2, number == 60 { time = value }
            index += 5 + size
        }
        guard let date, date.utf8.count == 8, let time, time.utf8.count >= 6 else { return nil }
        let d = Array(date)
        let t = Array(time)
        var text = "\(String(d[0..<4]))-\(String(d[4..<6]))-\(String(d[6..<8]))T"
        text += "\(String(t[0..<2])):\(String(t[2..<4])):\(String(t[4..<6]))" + String(t[6...])
        return MediaDate(parsing: text)
    }

    /// The IPTC-NAA resource (0x0404) among Photoshop's `8BIM` resources.
    private static func iptcBlock(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var index = 0
        while index + 12 <= bytes.count, bytes[index..<index + 4].elementsEqual("8BIM".utf8) {
            let id = Int(bytes[index + 4]) << 8 | Int(bytes[index + 5])
            // A Pascal string, padded to an even length with its length byte.
            let nameLength = Int(bytes[index + 6])
            var at = index + 6 + nameLength + 1
            if (nameLength + 1) % 2 != 0 { at += 1 }
            guard at + 4 <= bytes.count else { return nil }
            let size = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            at += 4
            guard size >= 0, size <= bytes.count - at else { return nil }
            if id == 0x0404 { return bytes[at..<at + size] }
            index = at + size + size % 2
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var index = 0
        while index + needle.count <= haystack.count {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
