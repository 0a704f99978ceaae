/// Probes Fujifilm's RAF raw photos. The header names the camera and where a JPEG
/// preview lies; the preview carries the photo's EXIF (camera, time, place,
/// orientation), read as a JPEG of its own. The sensor's data is never read, and the
/// picture's size is not taken from the preview, which is smaller than the photo.
enum RAFProbe {
    /// "FUJIFILMCCD-RAW ": the first 16 bytes of every RAF.
    static let magic = Array("FUJIFILMCCD-RAW ".utf8)
    /// The header's fixed part: magic, versions and camera name, then the offsets and lengths
    /// (big-endian) of the JPEG preview (at 84), the sensor's header (at 92) and its data (at 100).
    static let headerSize = 108

    static func probe(_ source: ByteSource, limits: ProbeLimits) throws(ProbeError) -> MediaInfo {
        let head = try source.readUpTo(at: 0, count: headerSize)
        guard head.count == headerSize else {
            throw ProbeError(
                .truncated, "the RAF header needs \(headerSize) bytes but the file has \(source.size)", offset: 0,
                element: "RAF header")
        }
        var reader = ByteReader(Array(head[84..<108]), base: 84, element: "RAF header")
        var parts: [(offset: Int64, length: Int64)] = []
        for _ in 0..<3 { parts.append((Int64(try reader.u32()), Int64(try reader.u32()))) }
        // Every part the header places must be in the file: a copy cut short loses the sensor's
        // data at the end.
        for (index, part) in parts.enumerated() where part.length > 0 {
            guard part.offset >= Int64(headerSize), part.offset <= source.size, part.length <= source.size - part.offset
            else {
                let what = ["the JPEG preview", "the sensor's header", "the sensor's data"][index]
                throw ProbeError(
                    .truncated,
                    "\(what) lies at bytes \(part.offset)–\(part.offset + part.length), past the end of the "
                        + "\(source.size)-byte file: it was cut short", offset: Int64(84 + 8 * index),
                    element: "RAF header")
            }
        }
        var info = MediaInfo(kind: .image, container: .raf, fileSize: source.size)
        info.imageCodec = "raf"
        info.exifOrientation = 1
        let camera = String(decoding: head[28..<60], as: UTF8.self).trimmingNulsAndSpaces
        info.model = camera.isEmpty ? nil : camera
        // The preview's facts; a preview that cannot be read leaves the photo without them.
        let (offset, length) = parts[0]
        if length > 0 { info.preview = ByteRange(offset: offset, length: length) }
        guard length > 0,
            let preview = try? JPEGProbe.probe(WindowByteSource(source, offset: offset, length: length), limits: limits)
        else { return info }
        info.make = preview.make
        info.model = preview.model ?? info.model
        info.software = preview.software
        info.creationDate = preview.creationDate
        info.location = preview.location
        info.exifOrientation = preview.exifOrientation ?? 1
        info.orientation = preview.orientation
        return info
    }
}
