/// Apple's EXIF maker note: `Apple iOS\0`, a version, `MM`, then an IFD at
/// byte 14 whose offsets count from the note's first byte. Tag 0x0011 holds
/// the Live Photo content identifier.
enum AppleMakerNote {
    static let signature: [UInt8] = Array("Apple iOS\0".utf8)

    static func contentIdentifier(in tiff: TIFFReader, at offset: Int, count: Int) -> String? {
        let end = min(tiff.bytes.count, offset + count)
        guard offset >= 0, end - offset >= 16,
            Array(tiff.bytes[offset..<offset + signature.count]) == signature,
            tiff.bytes[offset + 12] == 0x4D, tiff.bytes[offset + 13] == 0x4D
        else { return nil }
        var note = TIFFReader(
            bytes: Array(tiff.bytes[offset..<end]), littleEndian: false, origin: 0, limits: tiff.limits,
            fileBase: tiff.fileBase.map { $0 + Int64(offset) })
        guard let entries = try? note.readIFD(at: 14).entries else { return nil }
        for entry in entries where entry.tag == 0x0011 {
            return note.string(entry)
        }
        return nil
    }
}
