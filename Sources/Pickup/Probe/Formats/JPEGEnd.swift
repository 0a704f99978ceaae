#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether a JPEG's image data is whole: it ends with the end-of-image marker (FF D9). A copy
/// cut short ends inside the scan, without it: decoders then show the rest of the picture as
/// grey or garbage, and the file would be kept as if it were good.
///
/// Data after the image is common and is not a cut: zero padding, Samsung's trailer (ending
/// "SEFT"), a motion photo's movie, a second picture (a gain map). Only a file with no end
/// marker anywhere after its first scan is cut short, and only a file that does not end with
/// the marker is read that far.
enum JPEGEnd {
    /// How much of the file is read at a time when looking for the marker: a small block first
    /// (what follows an image is short, as a rule, and a small photo's tail is then still in the
    /// probe's window, not read again), then larger ones.
    static let firstBlock = 4 << 10
    static let block = 64 << 10

    /// Whether `bytes` hold FF D9 anywhere.
    static func holdsEndMarker(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.count >= 2 else { return false }
            var offset = 0
            while offset < buffer.count - 1 {
                guard let found = memchr(base + offset, 0xFF, buffer.count - 1 - offset) else { return false }
                let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if base[at + 1] == 0xD9 { return true }
                offset = at + 1
            }
            return false
        }
    }

    /// Throws `truncated` when the image data that starts at `scan` (its SOS marker) never ends.
    static func check(_ source: ByteSource, scanAt scan: Int64) throws(ProbeError) {
        let tailCount = Int(min(source.size - scan, 64))
        guard tailCount > 0 else { return }
        var tail = try source.read(at: source.size - Int64(tailCount), count: tailCount)
        while tail.last == 0 { tail.removeLast() }
        if tail.isEmpty || tail.suffix(2).elementsEqual([0xFF, 0xD9])
            || tail.suffix(4).elementsEqual(Array("SEFT".utf8))
        {
            return
        }
        // Something follows the image, or it is cut: an end marker after the scan says which.
        // Looked for from the end back (what follows a whole image is short, as a rule, or holds
        // the pair by chance), a block at a time, each searched for 0xFF with memchr.
        var blockEnd = source.size
        var blockSize = Int64(firstBlock)
        while blockEnd > scan {
            let blockStart = max(scan, blockEnd - blockSize)
            // One byte more than the block, so that a pair across two blocks is seen.
            let count = Int(min(blockEnd + 1, source.size) - blockStart)
            let bytes = try source.read(at: blockStart, count: count)
            if JPEGEnd.holdsEndMarker(bytes) { return }
            blockEnd = blockStart
            blockSize = Int64(block)
        }
        throw ProbeError(
            .truncated, "the image data ends without the JPEG's end marker (FF D9)", offset: source.size,
            element: "JPEG scan")
    }
}
