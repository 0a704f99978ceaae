/// The formats Pickup can read, recognised from a file's first bytes.
enum SniffedFormat {
    case isobmff, jpeg, png, gif, webp, matroska, tiff, raf

    /// Looks at the first bytes (16 are enough); the extension is never consulted.
    static func detect(_ head: [UInt8]) -> SniffedFormat? {
        func starts(_ prefix: [UInt8], at index: Int = 0) -> Bool {
            head.count >= index + prefix.count && Array(head[index..<index + prefix.count]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return .matroska }
        // TIFF and DNG; BigTIFF (43 for 42) too, for the probe to say it does not read it.
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B]) { return .tiff }
        // TIFFs with a camera's own magic number: Olympus ORF ("RO", "RS") and Panasonic RW2 (85).
        if starts(Array("IIRO".utf8)) || starts(Array("IIRS".utf8)) || starts(Array("MMOR".utf8)) { return .tiff }
        if starts([0x49, 0x49, 0x55, 0x00]) { return .tiff }
        if starts(RAFProbe.magic) { return .raf }
        if head.count >= 8 {
            let type = String(decoding: head[4..<8], as: UTF8.self)
            let size = UInt32(head[0]) << 24 | UInt32(head[1]) << 16 | UInt32(head[2]) << 8 | UInt32(head[3])
            let firstBoxes: Set<String> = ["ftyp", "moov", "mdat", "free", "skip", "wide", "pnot", "styp", "meta"]
            if firstBoxes.contains(type), size == 0 || size == 1 || size >= 8 { return .isobmff }
        }
        return nil
    }

    /// A short description of bytes no format claims, for the error message.
    static func describe(_ head: [UInt8]) -> String {
        let printable = head.prefix(64).allSatisfy {
            (0x20..<0x7F).contains($0) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09
        }
        if printable, !head.isEmpty { return "the file holds plain text, not a photo or video" }
        let hex = head.prefix(8).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
        return "the first bytes (\(hex)) match no photo or video format Pickup reads"
    }
}
