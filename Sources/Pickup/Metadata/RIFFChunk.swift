/// One chunk of a RIFF file (WebP): a four-letter name, a little-endian 32-bit size, the
/// payload, and a pad byte when the size is odd. Read by `AnimatedWebP` and `WebPPrivacy`,
/// written by both.
struct RIFFChunk {
    /// The four-letter name, such as `VP8X` or `ANMF`.
    let name: String
    /// Where the payload lies in the bytes read.
    let payload: Range<Int>
    /// Where the next chunk starts: after the payload and its pad byte (which may be missing at
    /// the very end of a file).
    let next: Int

    /// The chunk at `offset`; nil when its header is cut off or its payload runs past the end.
    init?(in bytes: [UInt8], at offset: Int) {
        guard offset >= 0, offset + 8 <= bytes.count else { return nil }
        let size =
            Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
            | Int(bytes[offset + 7]) << 24
        let start = offset + 8
        guard size <= bytes.count - start else { return nil }
        name = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
        payload = start..<start + size
        next = start + size + (size & 1)
    }

    /// A chunk's bytes: its name, its size, `data`, and a pad byte when the size is odd.
    static func bytes(_ name: String, _ data: [UInt8]) -> [UInt8] {
        Array(name.utf8) + ByteOrder.littleEndian32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
    }
}
