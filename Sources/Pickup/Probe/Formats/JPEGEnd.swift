/// Whether a JPEG's image data is whole: it ends with the end-of-image marker (FF D9). A copy
/// cut short ends inside the scan, without it: decoders then show the rest of the picture as
/// grey or garbage, and the file would be kept as if it were good.
///
/// Data after the image is common and is not a cut: zero padding, Samsung's trailer (ending
/// "SEFT"), a motion photo's movie, a second picture (a gain map). Only a file with no end
/// marker anywhere after its first scan is cut short, and only a file that does not end with
/// the marker is read that far.
enum JPEGEnd {
    /// How much of the file is read at a time when looking for the marker.
    static let block = 1 << 20

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
        var offset = scan
        var previous: UInt8 = 0
        while offset < source.size {
            let bytes = try source.read(at: offset, count: Int(min(Int64(block), source.size - offset)))
            for byte in bytes {
                if previous == 0xFF, byte == 0xD9 { return }
                previous = byte
            }
            offset += Int64(bytes.count)
        }
        throw ProbeError(
            .truncated, "the image data ends without the JPEG's end marker (FF D9)", offset: source.size,
            element: "JPEG scan")
    }
}
