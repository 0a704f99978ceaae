/// One EBML element: its ID and where its data lies.
struct EBMLElement {
    let id: UInt32
    let offset: Int64
    let dataOffset: Int64
    /// End of the data; for an element of unknown size, the end of its parent.
    let end: Int64
    let sizeKnown: Bool
    var dataSize: Int64 { end - dataOffset }
}

/// Reads EBML element headers (variable-length IDs and sizes) from a source,
/// checking each against its parent and counting them against the limits.
final class EBMLReader {
    let source: ByteSource
    let limits: ProbeLimits
    private var elementsSeen = 0

    init(source: ByteSource, limits: ProbeLimits) {
        self.source = source
        self.limits = limits
    }

    /// A variable-length integer with its length marker removed; all ones means "unknown".
    static func vint(_ r: inout ByteReader, keepMarker: Bool = false) throws(ProbeError) -> UInt64? {
        let first = try r.u8()
        guard first != 0 else { throw r.error(.malformed, "an EBML number starts with a zero byte") }
        let length = first.leadingZeroBitCount + 1
        var value = UInt64(keepMarker ? first : first & (0xFF >> length))
        var allOnes = value == UInt64(0xFF >> length)
        for _ in 1..<length {
            let byte = try r.u8()
            value = value << 8 | UInt64(byte)
            allOnes = allOnes && byte == 0xFF
        }
        return !keepMarker && allOnes ? nil : value
    }

    func element(at offset: Int64, end: Int64) throws(ProbeError) -> EBMLElement {
        elementsSeen += 1
        guard elementsSeen <= limits.maxElements else {
            throw ProbeError(.limitExceeded, "more than \(limits.maxElements) EBML elements", offset: offset)
        }
        var r = ByteReader(
            try source.readUpTo(at: offset, count: Int(min(12, end - offset))), base: offset, element: "EBML element")
        guard let rawID = try EBMLReader.vint(&r, keepMarker: true), r.position <= 4 else {
            throw ProbeError(.malformed, "an EBML element ID is longer than 4 bytes", offset: offset)
        }
        let id = UInt32(rawID)
        let size = try EBMLReader.vint(&r)
        let dataOffset = offset + Int64(r.position)
        let name = "EBML element 0x" + String(id, radix: 16, uppercase: true)
        guard let size else {
            return EBMLElement(id: id, offset: offset, dataOffset: dataOffset, end: end, sizeKnown: false)
        }
        guard size <= UInt64(end - dataOffset) else {
            let code: ProbeError.Code = end == source.size ? .truncated : .malformed
            throw ProbeError(
                code, "element claims \(size) bytes but only \(end - dataOffset) remain", offset: offset, element: name)
        }
        return EBMLElement(
            id: id, offset: offset, dataOffset: dataOffset, end: dataOffset + Int64(size), sizeKnown: true)
    }

    /// The elements inside `parent`. With `stopAtClusters`, stops after that many
    /// Clusters, and an unknown-size element ends where a Cluster or Cues begins.
    func children(of parent: EBMLElement, stopAtClusters: Int? = nil) throws(ProbeError) -> [EBMLElement] {
        var result: [EBMLElement] = []
        var offset = parent.dataOffset
        var clusters = 0
        while offset < parent.end {
            let child = try element(at: offset, end: parent.end)
            if let stop = stopAtClusters {
                if child.id == MatroskaProbe.ID.cluster || child.id == MatroskaProbe.ID.cues {
                    if !parent.sizeKnown, parent.id == MatroskaProbe.ID.cluster { break }
                    if child.id == MatroskaProbe.ID.cluster {
                        clusters += 1
                        if clusters > stop { break }
                    }
                }
            }
            result.append(child)
            // An unknown-size child can only be walked into, not over.
            guard child.sizeKnown else { break }
            offset = child.end
        }
        return result
    }

    private func data(_ element: EBMLElement, max: Int) throws(ProbeError) -> [UInt8] {
        guard element.dataSize <= Int64(max) else {
            throw ProbeError(
                .malformed, "element holds \(element.dataSize) bytes, more than \(max)", offset: element.offset,
                element: "EBML element 0x" + String(element.id, radix: 16, uppercase: true))
        }
        return try source.read(at: element.dataOffset, count: Int(element.dataSize))
    }

    func unsigned(_ element: EBMLElement) throws(ProbeError) -> UInt64 {
        try data(element, max: 8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    func signed(_ element: EBMLElement) throws(ProbeError) -> Int64 {
        let bytes = try data(element, max: 8)
        guard let first = bytes.first else { return 0 }
        var value: Int64 = first & 0x80 != 0 ? -1 : 0
        for byte in bytes { value = value << 8 | Int64(byte) }
        return value
    }

    func float(_ element: EBMLElement) throws(ProbeError) -> Double? {
        let bytes = try data(element, max: 8)
        let bits = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        switch bytes.count {
        case 4: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
        case 8: return Double(bitPattern: bits)
        default: return nil
        }
    }

    func string(_ element: EBMLElement) throws(ProbeError) -> String {
        String(decoding: try data(element, max: 4096), as: UTF8.self).trimmingNulsAndSpaces
    }
}
