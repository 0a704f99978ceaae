/// Reads TIFF-structured metadata (EXIF blocks, maker notes): IFDs of
/// 12-byte entries whose values sit inline or at an offset.
///
/// Every offset and count is checked against the block; IFDs already visited
/// are never read again, so an IFD that links to itself cannot loop.
struct TIFFReader {
    struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: UInt32
        /// Where the value lies in the block (inline or at its offset).
        let valueOffset: Int
    }

    let bytes: [UInt8]
    let littleEndian: Bool
    /// Offsets are relative to this position in `bytes`.
    let origin: Int
    let limits: ProbeLimits
    /// Offset of `bytes[0]` in the file, for messages (nil when unknown).
    let fileBase: Int64?
    private(set) var visited: Set<Int> = []

    static func isHeader(_ data: [UInt8], at index: Int) -> Bool {
        guard index >= 0, index + 4 <= data.count else { return false }
        let head = (data[index], data[index + 1], data[index + 2], data[index + 3])
        return head == (0x49, 0x49, 0x2A, 0x00) || head == (0x4D, 0x4D, 0x00, 0x2A)
    }

    /// A reader for a block that starts with a TIFF header; returns it and IFD0's offset.
    static func open(
        _ bytes: [UInt8], limits: ProbeLimits, fileBase: Int64? = nil
    ) throws(ProbeError) -> (
        TIFFReader, Int
    ) {
        guard isHeader(bytes, at: 0) else {
            throw ProbeError(
                .malformed, "EXIF data does not start with a TIFF header", offset: fileBase, element: "EXIF")
        }
        let reader = TIFFReader(
            bytes: bytes, littleEndian: bytes[0] == 0x49, origin: 0, limits: limits, fileBase: fileBase)
        return (reader, Int(reader.u32(at: 4) ?? 0))
    }

    init(bytes: [UInt8], littleEndian: Bool, origin: Int, limits: ProbeLimits, fileBase: Int64?) {
        self.bytes = bytes
        self.littleEndian = littleEndian
        self.origin = origin
        self.limits = limits
        self.fileBase = fileBase
    }

    func u16(at index: Int) -> UInt16? {
        guard index >= 0, index + 2 <= bytes.count else { return nil }
        let a = UInt16(bytes[index]), b = UInt16(bytes[index + 1])
        return littleEndian ? b << 8 | a : a << 8 | b
    }

    func u32(at index: Int) -> UInt32? {
        guard index >= 0, index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for i in 0..<4 {
            let byte = UInt32(bytes[littleEndian ? index + 3 - i : index + i])
            value = value << 8 | byte
        }
        return value
    }

    private func error(_ code: ProbeError.Code, _ message: String, at index: Int, tag: UInt16? = nil) -> ProbeError {
        let element = tag.map { "EXIF tag 0x" + String($0, radix: 16, uppercase: true) } ?? "EXIF"
        return ProbeError(code, message, offset: fileBase.map { $0 + Int64(index) }, element: element)
    }

    /// The entries of the IFD at `offset` (relative to the origin), and the next IFD's offset.
    /// Returns no entries for an IFD already read (a loop).
    mutating func readIFD(at offset: Int) throws(ProbeError) -> (entries: [Entry], next: Int) {
        let start = origin + offset
        guard !visited.contains(start) else { return ([], 0) }
        guard visited.count < 64 else {
            throw error(.limitExceeded, "more than 64 IFDs", at: start)
        }
        visited.insert(start)
        guard let count16 = u16(at: start) else {
            throw error(
                .truncated, "IFD at offset \(offset) lies outside the \(bytes.count)-byte EXIF block", at: start)
        }
        let count = Int(count16)
        guard count <= limits.maxIFDEntries else {
            throw error(.limitExceeded, "IFD lists \(count) entries, more than \(limits.maxIFDEntries)", at: start)
        }
        guard start + 2 + count * 12 <= bytes.count else {
            throw error(.truncated, "IFD lists \(count) entries but the EXIF block ends first", at: start)
        }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for i in 0..<count {
            let at = start + 2 + i * 12
            guard let tag = u16(at: at), let type = u16(at: at + 2), let n = u32(at: at + 4) else { break }
            let size = TIFFReader.typeSize(type) * Int(n)
            let valueOffset: Int
            if size <= 4 {
                valueOffset = at + 8
            } else {
                guard let pointer = u32(at: at + 8) else { continue }
                valueOffset = origin + Int(pointer)
                // A value that does not fit in the block is skipped, not trusted.
                guard valueOffset + size <= bytes.count, valueOffset >= 0 else { continue }
            }
            entries.append(Entry(tag: tag, type: type, count: n, valueOffset: valueOffset))
        }
        let next = Int(u32(at: start + 2 + count * 12) ?? 0)
        return (entries, next)
    }

    static func typeSize(_ type: UInt16) -> Int {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11, 13: return 4
        case 5, 10, 12: return 8
        default: return 0
        }
    }

    func string(_ entry: Entry) -> String? {
        guard entry.type == 2 || entry.type == 7, entry.count > 0 else { return nil }
        let end = min(bytes.count, entry.valueOffset + Int(min(entry.count, 4096)))
        guard entry.valueOffset < end else { return nil }
        var slice = bytes[entry.valueOffset..<end]
        if let nul = slice.firstIndex(of: 0) { slice = slice[..<nul] }
        let text = String(decoding: slice, as: UTF8.self).trimmingNulsAndSpaces
        return text.isEmpty ? nil : text
    }

    /// `UserComment`: an 8-byte character-code prefix (`ASCII\0\0\0`, `UNICODE\0`...), then text.
    func userComment(_ entry: Entry) -> String? {
        guard entry.type == 7 || entry.type == 2, entry.count > 8 else { return nil }
        let start = entry.valueOffset + 8
        let end = min(bytes.count, entry.valueOffset + Int(min(entry.count, 4096)))
        guard start < end else { return nil }
        let code = String(decoding: bytes[entry.valueOffset..<start], as: UTF8.self)
        let body = Array(bytes[start..<end])
        let text: String
        if code.hasPrefix("UNICODE") {
            let units = stride(from: 0, to: body.count - 1, by: 2).map { index -> UInt16 in
                let a = UInt16(body[index]), b = UInt16(body[index + 1])
                return littleEndian ? b << 8 | a : a << 8 | b
            }
            text = String(decoding: units, as: UTF16.self)
        } else {
            text = String(decoding: body, as: UTF8.self)
        }
        let trimmed = text.trimmingNulsAndSpaces
        return trimmed.isEmpty ? nil : trimmed
    }

    func integer(_ entry: Entry) -> Int? {
        switch entry.type {
        case 1, 7: return entry.valueOffset < bytes.count ? Int(bytes[entry.valueOffset]) : nil
        case 3: return u16(at: entry.valueOffset).map(Int.init)
        case 4, 13: return u32(at: entry.valueOffset).map(Int.init)
        case 8: return u16(at: entry.valueOffset).map { Int(Int16(bitPattern: $0)) }
        case 9: return u32(at: entry.valueOffset).map { Int(Int32(bitPattern: $0)) }
        default: return nil
        }
    }

    /// The `index`th rational of an entry (RATIONAL or SRATIONAL).
    func rational(_ entry: Entry, index: Int = 0) -> Double? {
        guard entry.type == 5 || entry.type == 10, index < entry.count else { return nil }
        let at = entry.valueOffset + index * 8
        guard let n = u32(at: at), let d = u32(at: at + 4), d != 0 else { return nil }
        if entry.type == 10 { return Double(Int32(bitPattern: n)) / Double(Int32(bitPattern: d)) }
        return Double(n) / Double(d)
    }
}
