/// Probes GIF: the logical screen, then every block to count frames and add
/// up their delays. Frame data is skipped sub-block by sub-block.
enum GIFProbe {
    static func probe(_ source: ByteSource, limits: ProbeLimits) throws(ProbeError) -> MediaInfo {
        var info = MediaInfo(kind: .image, container: .gif, fileSize: source.size)
        info.imageCodec = "gif"
        info.exifOrientation = 1
        info.bitDepth = 8
        var stream = SequentialReader(source: source, start: 6, limits: limits)
        info.width = Int(try stream.u16le())
        info.height = Int(try stream.u16le())
        let packed = try stream.u8()
        try stream.skip(2)
        if packed & 0x80 != 0 { try stream.skip(3 << (Int(packed & 7) + 1)) }
        var frames = 0
        var delay = 0
        loop: while true {
            // A GIF cut short still shows the frames it has, as browsers do.
            guard let introducer = try? stream.u8() else { break }
            switch introducer {
            case 0x21:
                let label = try stream.u8()
                if label == 0xF9 {
                    let size = Int(try stream.u8())
                    let block = try stream.bytes(size)
                    if size >= 4 {
                        delay += Int(block[1]) | Int(block[2]) << 8
                        if block[0] & 1 != 0 { info.alpha = true }
                    }
                }
                try stream.skipSubBlocks()
            case 0x2C:
                frames += 1
                guard frames <= limits.maxFrames else {
                    throw ProbeError(.limitExceeded, "more than \(limits.maxFrames) GIF frames", offset: stream.offset)
                }
                try stream.skip(8)
                let local = try stream.u8()
                if local & 0x80 != 0 { try stream.skip(3 << (Int(local & 7) + 1)) }
                try stream.skip(1)  // LZW minimum code size
                try stream.skipSubBlocks()
            case 0x3B:
                break loop
            default:
                // Junk after the last frame is common; stop where the GIF stops making sense.
                if frames == 0 {
                    throw ProbeError(
                        .malformed, "unexpected block 0x" + String(introducer, radix: 16), offset: stream.offset - 1,
                        element: "GIF block")
                }
                break loop
            }
        }
        guard frames > 0 else { throw ProbeError(.truncated, "the GIF holds no frame", offset: stream.offset) }
        info.frameCount = frames
        info.animated = frames > 1
        if frames > 1 { info.duration = Double(delay) / 100 }
        return info
    }
}

/// Reads a source front to back through a buffer, for formats (GIF) that
/// must be walked in small steps.
struct SequentialReader {
    let source: ByteSource
    let limits: ProbeLimits
    private var buffer: [UInt8] = []
    private var bufferStart: Int64
    private var index = 0

    init(source: ByteSource, start: Int64, limits: ProbeLimits) {
        self.source = source
        self.limits = limits
        self.bufferStart = start
    }

    var offset: Int64 { bufferStart + Int64(index) }

    private mutating func fill() throws(ProbeError) {
        let next = offset
        guard next < source.size else {
            throw ProbeError(.truncated, "the file ends in the middle of a block", offset: next)
        }
        guard source.bytesRead < limits.maxBytesRead else {
            throw ProbeError(.limitExceeded, "read more than \(limits.maxBytesRead) bytes", offset: next)
        }
        buffer = try source.readUpTo(at: next, count: 256 << 10)
        bufferStart = next
        index = 0
    }

    mutating func u8() throws(ProbeError) -> UInt8 {
        if index >= buffer.count { try fill() }
        defer { index += 1 }
        return buffer[index]
    }

    mutating func u16le() throws(ProbeError) -> UInt16 {
        let low = UInt16(try u8())
        return UInt16(try u8()) << 8 | low
    }

    mutating func bytes(_ count: Int) throws(ProbeError) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(count)
        for _ in 0..<count { result.append(try u8()) }
        return result
    }

    mutating func skip(_ count: Int) throws(ProbeError) {
        var left = count
        while left > 0 {
            if index >= buffer.count { try fill() }
            let step = min(left, buffer.count - index)
            index += step
            left -= step
        }
    }

    /// Skips data sub-blocks up to the zero-length terminator.
    mutating func skipSubBlocks() throws(ProbeError) {
        while true {
            let size = Int(try u8())
            if size == 0 { return }
            try skip(size)
        }
    }
}
