import Foundation

/// A camera JPEG that holds more than its primary image, made from two JPEGs
/// that exiftool tagged: the primary (GPS at the Eiffel Tower, Paris) and a
/// second image (GPS at Westminster, London), both with an owner name and a
/// make; an MPF index (APP2) that points at the second image, as camera
/// previews, MPO files and Ultra HDR gain maps do; a C2PA-like APP11 segment
/// that names London; and, after the second image, a motion photo's trailer.
public enum MultiPictureJPEG {
    public static let owner = "Jane Roe"
    public static let camera = "Canon"
    public static let trailerText = "ftypmp42 motion photo trailer, London"

    /// The file's bytes.
    public static func make() throws -> [UInt8] {
        let folder = Temporary.url("mpf")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { Temporary.remove(folder) }
        let ff = "ffmpeg -hide_banner -loglevel error -y"
        let tags = "-Make=\(camera) \"-OwnerName=\(owner)\" -GPSLatitudeRef=N"
        let made = try Shell.run(
            """
            \(ff) -f lavfi -i testsrc2=size=320x240 -frames:v 1 "$D/a.jpg" && \
            \(ff) -f lavfi -i testsrc2=size=160x120 -frames:v 1 "$D/b.jpg" && \
            exiftool -q -overwrite_original \(tags) -GPSLatitude=48.8584 -GPSLongitude=2.2945 \
            -GPSLongitudeRef=E "$D/a.jpg" && \
            exiftool -q -overwrite_original \(tags) -GPSLatitude=51.5007 -GPSLongitude=0.1246 \
            -GPSLongitudeRef=W "$D/b.jpg"
            """, environment: ["D": folder.path])
        guard made.status == 0 else {
            throw FixtureError(message: "could not make the two JPEGs: \(made.errorText)")
        }
        let primary = [UInt8](try Data(contentsOf: folder.appendingPathComponent("a.jpg")))
        let second = [UInt8](try Data(contentsOf: folder.appendingPathComponent("b.jpg")))
        return build(primary: primary, second: second)
    }

    /// `primary` with an MPF index and an APP11 segment after its APP0/APP1, then `second`, then a trailer.
    static func build(primary: [UInt8], second: [UInt8]) -> [UInt8] {
        // Insert after the leading APP0/APP1 segments.
        var insertAt = 2
        while insertAt + 4 <= primary.count, primary[insertAt] == 0xFF,
            primary[insertAt + 1] == 0xE0 || primary[insertAt + 1] == 0xE1
        {
            insertAt += 2 + (Int(primary[insertAt + 2]) << 8 | Int(primary[insertAt + 3]))
        }
        let mpfLength = 2 + 4 + mpf(primaryLength: 0, secondLength: 0, secondOffset: 0).count
        let jumbf = segment(0xEB, Array("JP".utf8) + [0, 1] + Array("c2pa.location: London 51.5007 N".utf8))
        let primaryLength = primary.count + 2 + mpfLength + jumbf.count
        // MPF offsets count from the MPF segment's TIFF header (marker, length, "MPF\0").
        let tiffAt = insertAt + 8
        let index = segment(
            0xE2,
            Array("MPF".utf8) + [0]
                + mpf(primaryLength: primaryLength, secondLength: second.count, secondOffset: primaryLength - tiffAt))
        return Array(primary[..<insertAt]) + index + jumbf + Array(primary[insertAt...]) + second
            + Array(trailerText.utf8)
    }

    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var writer = ByteWriter()
        writer.append([0xFF, marker])
        writer.u16(UInt16(payload.count + 2))
        writer.append(payload)
        return writer.bytes
    }

    /// A big-endian MP index IFD: version, number of images, two MP entries.
    private static func mpf(primaryLength: Int, secondLength: Int, secondOffset: Int) -> [UInt8] {
        var w = ByteWriter()
        w.append([0x4D, 0x4D, 0x00, 0x2A])
        w.u32(8)
        w.u16(3)
        w.u16(0xB000)
        w.u16(7)
        w.u32(4)
        w.ascii("0100")
        w.u16(0xB001)
        w.u16(4)
        w.u32(1)
        w.u32(2)
        w.u16(0xB002)
        w.u16(7)
        w.u32(32)
        w.u32(UInt32(8 + 2 + 3 * 12 + 4))
        w.u32(0)
        // Primary: baseline MP primary image; second: large thumbnail.
        w.u32(0x2003_0000)
        w.u32(UInt32(primaryLength))
        w.u32(0)
        w.u32(0)
        w.u32(0x0002_0002)
        w.u32(UInt32(secondLength))
        w.u32(UInt32(secondOffset))
        w.u32(0)
        return w.bytes
    }
}
