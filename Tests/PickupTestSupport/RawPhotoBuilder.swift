/// Builds cameras' raw photos in code, laid out as their formats are: what a probe reads
/// (headers, EXIF, previews), with stand-in bytes for the sensor's data.
public enum RawPhotoBuilder {
    /// A Fujifilm RAF: its header (camera name, where the JPEG preview and the sensor's parts
    /// lie), the preview, then the sensor's header and data; `cutAt` keeps only that many bytes.
    public static func raf(preview: [UInt8], camera: String = "X-T5", cutAt: Int? = nil) -> [UInt8] {
        var w = ByteWriter()
        w.ascii("FUJIFILMCCD-RAW 0201FF129502")
        w.ascii(camera)
        w.append([UInt8](repeating: 0, count: max(0, 60 - 28 - camera.utf8.count)))
        w.ascii("0100")
        w.append([UInt8](repeating: 0, count: 84 - 64))
        let previewAt = 108
        let sensorHeaderAt = previewAt + preview.count
        let sensorAt = sensorHeaderAt + 64
        for (offset, length) in [(previewAt, preview.count), (sensorHeaderAt, 64), (sensorAt, 4096)] {
            w.u32(UInt32(offset))
            w.u32(UInt32(length))
        }
        w.append(preview)
        w.append([UInt8](repeating: 0x11, count: 64 + 4096))
        return cutAt.map { Array(w.bytes.prefix($0)) } ?? w.bytes
    }
}
