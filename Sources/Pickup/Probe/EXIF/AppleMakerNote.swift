/// Apple's EXIF maker note: `Apple iOS\0`, a version, `MM`, then an IFD at
/// byte 14 whose offsets count from the note's first byte. Tag 0x0011 holds
/// the Live Photo content identifier, tag 0x000B a burst's identifier.
enum AppleMakerNote {
    static let signature: [UInt8] = Array("Apple iOS\0".utf8)

    struct Facts {
        var contentIdentifier: String?
        var burstIdentifier: String?
    }

    static func read(in tiff: TIFFReader, at offset: Int, count: Int) -> Facts {
        var facts = Facts()
        guard let entries = ifd(in: tiff, at: offset, count: count) else { return facts }
        for entry in entries.list {
            if entry.tag == 0x0011 { facts.contentIdentifier = entries.note.string(entry) }
            if entry.tag == 0x000B { facts.burstIdentifier = entries.note.string(entry) }
        }
        return facts
    }

    private static func ifd(
        in tiff: TIFFReader, at offset: Int, count: Int
    ) -> (
        note: TIFFReader, list: [TIFFReader.Entry]
    )? {
        let end = min(tiff.bytes.count, offset + count)
        guard offset >= 0, end - offset >= 16,
            Array(tiff.bytes[offset..<offset + signature.count]) == signature,
            tiff.bytes[offset + 12] == 0x4D, tiff.bytes[offset + 13] == 0x4D
        else { return nil }
        var note = TIFFReader(
            bytes: Array(tiff.bytes[offset..<end]), littleEndian: false, origin: 0, limits: tiff.limits,
            fileBase: tiff.fileBase.map { $0 + Int64(offset) })
        guard let entries = try? note.readIFD(at: 14).entries else { return nil }
        return (note, entries)
    }
}
