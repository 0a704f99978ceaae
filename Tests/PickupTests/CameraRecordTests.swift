import Foundation
import Pickup
import PickupTestSupport
import Testing

/// Cameras that keep a picture's facts in records of their own: a FLIR thermal camera's FFF
/// records in a JPEG's APP1 segments, an old Pentax's `TAGS` and `PENT` movie atoms. The files
/// are built in code from the layouts exiftool's FLIR and Pentax modules read, and exiftool reads
/// each one too: the probe must agree with it.
@Suite("Probing camera makers' own records")
struct CameraRecordTests {
    let probe = MediaProbe()

    /// Writes `bytes` to a file and returns exiftool's `-s -n` lines for `tags`.
    func exiftool(_ bytes: [UInt8], suffix: String, _ tags: String) throws -> String {
        let path = Temporary.url("records", suffix: ".\(suffix)")
        try Data(bytes).write(to: path)
        defer { Temporary.remove(path) }
        return try Shell.run("exiftool -s -n \(tags) \"$F\"", environment: ["F": path.path]).outputText
    }

    func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (size - 1 - $0))) }
    }

    func littleEndian(_ value: UInt64, _ size: Int) -> [UInt8] { bigEndian(value, size).reversed() }

    func put(_ bytes: [UInt8], at offset: Int, in record: inout [UInt8]) {
        record.replaceSubrange(offset..<offset + bytes.count, with: bytes)
    }

    /// An FFF file as a FLIR camera writes it (big-endian, as in its JPEGs): a CameraInfo record
    /// with the model and the date, and a GPSInfo record (little-endian, always).
    func fff(seconds: UInt32, westMinutes: Int16, latitude: Double, longitude: Double, west: Bool) -> [UInt8] {
        var camera = [UInt8](repeating: 0, count: 0x400)
        put(bigEndian(2, 2), at: 0, in: &camera)
        put(Array("FLIR E60".utf8), at: 0xD4, in: &camera)
        put(bigEndian(UInt64(seconds), 4), at: 0x384, in: &camera)
        put(bigEndian(123, 4), at: 0x388, in: &camera)
        put(bigEndian(UInt64(UInt16(bitPattern: westMinutes)), 2), at: 0x38C, in: &camera)
        var gps = [UInt8](repeating: 0, count: 0x60)
        put(littleEndian(1, 4), at: 0, in: &gps)
        put(Array("N".utf8), at: 0x08, in: &gps)
        put(Array((west ? "W" : "E").utf8), at: 0x0A, in: &gps)
        put(littleEndian(latitude.bitPattern, 8), at: 0x10, in: &gps)
        put(littleEndian(longitude.bitPattern, 8), at: 0x18, in: &gps)
        put(littleEndian(UInt64(Float(12.5).bitPattern), 4), at: 0x20, in: &gps)
        var header = [UInt8](repeating: 0, count: 0x40)
        put(Array("FFF\0".utf8), at: 0, in: &header)
        put(Array("Pickup test".utf8), at: 4, in: &header)
        put(bigEndian(100, 4), at: 0x14, in: &header)
        put(bigEndian(0x40, 4), at: 0x18, in: &header)
        put(bigEndian(2, 4), at: 0x1C, in: &header)
        var directory: [UInt8] = []
        for (type, offset, length) in [(0x20, 0x80, camera.count), (0x2B, 0x80 + camera.count, gps.count)] {
            var entry = [UInt8](repeating: 0, count: 0x20)
            put(bigEndian(UInt64(type), 2), at: 0, in: &entry)
            put(bigEndian(UInt64(offset), 4), at: 0x0C, in: &entry)
            put(bigEndian(UInt64(length), 4), at: 0x10, in: &entry)
            directory += entry
        }
        return header + directory + camera + gps
    }

    /// A plain JPEG with `fff` in APP1 `FLIR` segments of `pieces`, given in `order`.
    func flirJPEG(_ fff: [UInt8], pieces: Int = 2, order: [Int]? = nil, lastIndex: [Int]? = nil) throws -> [UInt8] {
        let jpeg = try Fixtures.bytes(.jpegPlain)
        let size = (fff.count + pieces - 1) / pieces
        var segments: [[UInt8]] = []
        for index in 0..<pieces {
            let part = Array(fff[min(fff.count, index * size)..<min(fff.count, (index + 1) * size)])
            let last = lastIndex?[index] ?? pieces - 1
            let payload = Array("FLIR\0".utf8) + [1, UInt8(index), UInt8(last)] + part
            segments.append([0xFF, 0xE1] + bigEndian(UInt64(payload.count + 2), 2) + payload)
        }
        let ordered = (order ?? Array(0..<pieces)).flatMap { segments[$0] }
        return Array(jpeg.prefix(2)) + ordered + Array(jpeg.dropFirst(2))
    }

    @Test("a FLIR JPEG: the date with its zone, the model and the place from the FFF records, as exiftool reads them")
    func flir() throws {
        // 2013-04-24 12:30:52 UTC, taken at UTC+01:00 (FLIR writes minutes west: -60).
        let bytes = try flirJPEG(
            fff(seconds: 1_366_806_652, westMinutes: -60, latitude: 47.5, longitude: 122.25, west: true), pieces: 3,
            order: [2, 0, 1])
        let info = try probe.probe(bytes: bytes)
        #expect(info.creationDate?.iso8601 == "2013-04-24T13:30:52+01:00")
        #expect(info.model == "FLIR E60")
        let place = try #require(info.location)
        #expect(place.latitude == 47.5 && place.longitude == -122.25 && place.altitude == 12.5)
        let said = try exiftool(bytes, suffix: "jpg", "-DateTimeOriginal -CameraModel -GPSLatitude -GPSLongitude")
        #expect(said.contains("2013:04:24 13:30:52.123+01:00"), "\(said)")
        #expect(said.contains("FLIR E60"), "\(said)")
        #expect(said.contains("GPSLatitude                     : 47.5"), "\(said)")
    }

    @Test("FLIR records that are incomplete, disagree or lie are read as nothing: no date, no crash")
    func flirDamaged() throws {
        let records = fff(seconds: 1_366_806_652, westMinutes: 0, latitude: 10, longitude: 20, west: false)
        // The second of two pieces missing; the pieces disagreeing on their count.
        let missing = try flirJPEG(records, pieces: 2, order: [0])
        #expect(try probe.probe(bytes: missing).creationDate == nil)
        let disagreeing = try flirJPEG(records, pieces: 2, lastIndex: [1, 2])
        #expect(try probe.probe(bytes: disagreeing).creationDate == nil)
        // A directory that points past the end, and a version that is none.
        var pastEnd = records
        put(bigEndian(0xFFFF_FF00, 4), at: 0x18, in: &pastEnd)
        #expect(try probe.probe(bytes: try flirJPEG(pastEnd)).creationDate == nil)
        var noVersion = records
        put(bigEndian(7, 4), at: 0x14, in: &noVersion)
        #expect(try probe.probe(bytes: try flirJPEG(noVersion)).location == nil)
        // Random bytes after the header: whatever they say, the probe answers.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var noise = records
            for _ in 0..<16 { noise[Int.random(in: 0..<noise.count, using: &generator)] = .random(in: 0...255) }
            _ = try? probe.probe(bytes: try flirJPEG(noise))
        }
    }

    @Test("EXIF's date and place come first; FLIR's fill what EXIF lacks")
    func exifFirst() throws {
        let records = fff(seconds: 1_366_806_652, westMinutes: -60, latitude: 1, longitude: 2, west: false)
        let jpeg = try Fixtures.bytes(.jpegEXIF)
        // The FLIR segments alone, put before the EXIF one: EXIF still wins.
        let flir = try flirJPEG(records)
        let segments = flir[2..<flir.count - (try Fixtures.bytes(.jpegPlain).count - 2)]
        let mixed = Array(jpeg.prefix(2)) + segments + Array(jpeg.dropFirst(2))
        let info = try probe.probe(bytes: mixed)
        #expect(info.creationDate?.iso8601 == "2024-05-06T10:20:30-03:00")
        #expect(info.model == "iPhone 15 Pro")
        #expect(abs((info.location?.latitude ?? 0) - -22.9519) < 0.0001)
    }

    /// An MP4 (ffmpeg's, its moov last) with `atom` added to `moov/udta`.
    func movie(adding atom: [UInt8]) throws -> [UInt8] {
        var bytes = try Fixtures.bytes(.mp4MoovAtEnd)
        func u32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        func type(_ at: Int) -> String { String(decoding: bytes[at + 4..<at + 8], as: UTF8.self) }
        func grow(_ at: Int, by count: Int) {
            bytes.replaceSubrange(at..<at + 4, with: bigEndian(UInt64(u32(at) + count), 4))
        }
        var moov = 0
        while moov + 8 <= bytes.count, type(moov) != "moov" { moov += u32(moov) }
        var child = moov + 8
        while child + 8 <= moov + u32(moov), type(child) != "udta" { child += u32(child) }
        if child + 8 <= moov + u32(moov) {  // ffmpeg's udta (its ©too): the atom goes at its end
            bytes.insert(contentsOf: atom, at: child + u32(child))
            grow(child, by: atom.count)
            grow(moov, by: atom.count)
        } else {
            let udta = bigEndian(UInt64(8 + atom.count), 4) + Array("udta".utf8) + atom
            bytes.insert(contentsOf: udta, at: moov + u32(moov))
            grow(moov, by: udta.count)
        }
        return bytes
    }

    @Test("an old Pentax movie: the make from its TAGS atom, make, model and date from PENT, as exiftool reads them")
    func pentax() throws {
        var tags = Array("PENTAX DIGITAL CAMERA\0".utf8) + [UInt8](repeating: 0, count: 0xB2 - 22)
        put(littleEndian(10, 4), at: 0x26, in: &tags)
        let optio = try movie(adding: bigEndian(UInt64(8 + tags.count), 4) + Array("TAGS".utf8) + tags)
        #expect(try probe.probe(bytes: optio).make == "PENTAX DIGITAL CAMERA")
        let saidTags = try exiftool(optio, suffix: "mov", "-Make")
        #expect(saidTags.contains("PENTAX DIGITAL CAMERA"), "\(saidTags)")

        var pent = [UInt8](repeating: 0, count: 0x110)
        put(Array("PENTAX".utf8), at: 0, in: &pent)
        put(Array("Optio WG-2 GPS".utf8), at: 0x1A, in: &pent)
        put(Array("2012:08:05 16:41:27".utf8), at: 0x71, in: &pent)
        let wg2 = try movie(adding: bigEndian(UInt64(8 + pent.count), 4) + Array("PENT".utf8) + pent)
        let info = try probe.probe(bytes: wg2)
        #expect(info.make == "PENTAX" && info.model == "Optio WG-2 GPS")
        #expect(
            info.creationDate?.iso8601.hasPrefix("2012-08-05T16:41:27") == true,
            "\(String(describing: info.creationDate))")
        let said = try exiftool(wg2, suffix: "mov", "-Make -Model")
        #expect(said.contains("Optio WG-2 GPS"), "\(said)")
        // Not Pentax's: a TAGS atom of another maker is left alone.
        let other = try movie(
            adding: bigEndian(32, 4) + Array("TAGS".utf8) + Array("SOMEONE ELSE CAMERA\0\0\0\0\0".utf8))
        #expect(try probe.probe(bytes: other).make != "SOMEONE ELSE CAMERA")
    }
}
