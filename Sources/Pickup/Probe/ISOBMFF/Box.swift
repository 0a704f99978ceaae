/// One ISO BMFF box header: where the box lies in the file and what it is.
struct Box {
    let type: FourCC
    /// Offset of the box's first byte (its size field).
    let offset: Int64
    let headerSize: Int
    /// Total size, header included.
    let size: Int64

    var payloadOffset: Int64 { offset + Int64(headerSize) }
    var payloadSize: Int64 { size - Int64(headerSize) }
    var end: Int64 { offset + size }
    var name: String { "box '\(type)'" }
}

/// Reads box headers and payloads from a byte source, checking every size
/// against the range that holds it and counting boxes against the limits.
final class BoxReader {
    let source: ByteSource
    let limits: ProbeLimits
    private(set) var boxesSeen = 0

    init(source: ByteSource, limits: ProbeLimits) {
        self.source = source
        self.limits = limits
    }

    /// The header of the box at `offset`, which must end by `end`.
    ///
    /// A size of 0 means "to the end of the enclosing range"; a size of 1 means
    /// a 64-bit size follows. `uuid` boxes carry 16 more header bytes.
    func header(at offset: Int64, end: Int64) throws(ProbeError) -> Box {
        boxesSeen += 1
        guard boxesSeen <= limits.maxElements else {
            throw ProbeError(.limitExceeded, "more than \(limits.maxElements) boxes", offset: offset)
        }
        guard end - offset >= 8 else {
            throw ProbeError(.truncated, "a box header needs 8 bytes but only \(end - offset) remain", offset: offset)
        }
        var reader = ByteReader(try source.read(at: offset, count: 8), base: offset)
        let size32 = try reader.u32()
        let type = try reader.fourCC()
        var headerSize = 8
        var size = Int64(size32)
        if size32 == 1 {
            guard end - offset >= 16 else {
                throw ProbeError(.truncated, "a 64-bit box size is cut off", offset: offset, element: "box '\(type)'")
            }
            var large = ByteReader(try source.read(at: offset + 8, count: 8), base: offset + 8)
            let size64 = try large.u64()
            guard size64 <= UInt64(Int64.max) else {
                throw ProbeError(.malformed, "box claims \(size64) bytes", offset: offset, element: "box '\(type)'")
            }
            size = Int64(size64)
            headerSize = 16
        } else if size32 == 0 {
            size = end - offset
        }
        if type == "uuid" { headerSize += 16 }
        guard size >= Int64(headerSize) else {
            throw ProbeError(
                .malformed, "box size \(size) is smaller than its \(headerSize)-byte header", offset: offset,
                element: "box '\(type)'")
        }
        guard size <= end - offset else {
            let code: ProbeError.Code = end == source.size ? .truncated : .malformed
            let room =
                end == source.size ? "the file ends after \(end - offset)" : "its parent leaves only \(end - offset)"
            throw ProbeError(
                code, "box claims \(size) bytes but \(room)", offset: offset, element: "box '\(type)'")
        }
        return Box(type: type, offset: offset, headerSize: headerSize, size: size)
    }

    /// The boxes directly inside `range`, in order.
    func children(from start: Int64, to end: Int64) throws(ProbeError) -> [Box] {
        var boxes: [Box] = []
        var offset = start
        while end - offset >= 8 {
            let box = try header(at: offset, end: end)
            boxes.append(box)
            offset = box.end
        }
        return boxes
    }

    /// The boxes inside `box`, skipping `skip` payload bytes first (4 for a full box such as `meta`).
    func children(of box: Box, skip: Int = 0) throws(ProbeError) -> [Box] {
        try children(from: box.payloadOffset + Int64(skip), to: box.end)
    }

    /// The whole payload of `box`, refused past the structure limit.
    func payload(of box: Box) throws(ProbeError) -> ByteReader {
        guard box.payloadSize <= Int64(limits.maxStructureBytes) else {
            throw ProbeError(
                .limitExceeded,
                "box holds \(box.payloadSize) bytes, more than the \(limits.maxStructureBytes) Pickup reads",
                offset: box.offset, element: box.name)
        }
        let bytes = try source.read(at: box.payloadOffset, count: Int(box.payloadSize))
        return ByteReader(bytes, base: box.payloadOffset, element: box.name)
    }

    /// The first `count` bytes of the payload (fewer when the payload is shorter).
    func prefix(of box: Box, count: Int) throws(ProbeError) -> ByteReader {
        let bytes = try source.read(at: box.payloadOffset, count: Int(min(Int64(count), box.payloadSize)))
        return ByteReader(bytes, base: box.payloadOffset, element: box.name)
    }
}

extension Array where Element == Box {
    func first(_ type: FourCC) -> Box? { first { $0.type == type } }
    func all(_ type: FourCC) -> [Box] { filter { $0.type == type } }
}
