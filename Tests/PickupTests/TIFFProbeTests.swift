import Foundation
import Pickup
import PickupTestSupport
import Testing

/// TIFF and DNG (iPhone ProRAW and RAW photos): built in code, and made at
/// test time by ffmpeg, ImageMagick and exiftool, checked against exiftool.
@Suite("Probing TIFF and DNG")
struct TIFFProbeTests {
    let probe = MediaProbe()

    /// A TIFF's IFD0 of this size (no pixels: the IFD is all a probe reads).
    static func image(width: UInt32, height: UInt32, subfileType: UInt32 = 0) -> [(UInt16, TIFFBuilder.Value)] {
        [(0x00FE, .long(subfileType)), (0x0100, .long(width)), (0x0101, .long(height)), (0x0102, .shorts([8, 8, 8]))]
    }

    /// A DNG as iPhone ProRAW lays it out: a small preview in IFD0, the raw image in a SubIFD.
    static func proRAW(littleEndian: Bool = true) -> TIFFBuilder {
        var tiff = TIFFBuilder(littleEndian: littleEndian)
        tiff.ifd0 = image(width: 1008, height: 756, subfileType: 1) + [(0xC612, .undefined([1, 6, 0, 0]))]
        tiff.subIFDs = [image(width: 8064, height: 6048), image(width: 2016, height: 1512, subfileType: 1)]
        return tiff
    }

    /// What `exiftool -n` says of a file, tag by tag.
    func exiftool(_ path: String) throws -> [String: Any] {
        let result = try Shell.run("exiftool -j -n \"$F\"", environment: ["F": path])
        let list = try JSONSerialization.jsonObject(with: Data(result.output)) as? [[String: Any]]
        return try #require(list?.first)
    }

    @Test("a TIFF is known by its first bytes, in both byte orders", arguments: [false, true])
    func plainTIFF(littleEndian: Bool) throws {
        var tiff = TIFFBuilder(littleEndian: littleEndian)
        tiff.ifd0 = Self.image(width: 640, height: 480)
        let info = try probe.probe(bytes: tiff.build())
        #expect(info.kind == .image && info.container == .tiff && info.container.mimeType == "image/tiff")
        #expect(info.width == 640 && info.height == 480 && info.bitDepth == 8)
        #expect(info.rotation == .none && info.exifOrientation == 1)
    }

    @Test("the content decides, not the name: a TIFF named .jpg is a TIFF")
    func contentDecides() throws {
        var tiff = TIFFBuilder()
        tiff.ifd0 = Self.image(width: 20, height: 10)
        let path = Temporary.path("tiff-named-jpg", suffix: ".jpg")
        try Data(tiff.build()).write(to: URL(fileURLWithPath: path))
        defer { Temporary.remove(path) }
        #expect(try probe.probe(path: path).container == .tiff)
    }

    @Test("IFD0's DNGVersion tag makes it a DNG")
    func dng() throws {
        var tiff = TIFFBuilder()
        tiff.ifd0 = Self.image(width: 4032, height: 3024) + [(0xC612, .undefined([1, 4, 0, 0]))]
        let info = try probe.probe(bytes: tiff.build())
        #expect(info.kind == .image && info.container == .dng && info.container.mimeType == "image/x-adobe-dng")
        #expect(info.width == 4032 && info.height == 3024)
    }

    @Test("a DNG's size is its full-resolution SubIFD's, not IFD0's preview", arguments: [false, true])
    func dngRawInSubIFD(littleEndian: Bool) throws {
        let info = try probe.probe(bytes: Self.proRAW(littleEndian: littleEndian).build())
        #expect(info.container == .dng)
        #expect(info.width == 8064 && info.height == 6048)
    }

    @Test("orientation 6 turns a quarter clockwise and swaps the display size")
    func orientation6() throws {
        var tiff = TIFFBuilder()
        tiff.ifd0 = Self.image(width: 64, height: 48) + [(0x0112, .short(6))]
        let info = try probe.probe(bytes: tiff.build())
        #expect(info.exifOrientation == 6 && info.rotation == .clockwise90 && !info.orientation.mirrored)
        #expect(info.displayWidth == 48 && info.displayHeight == 64)
    }

    @Test("camera, date and place come from IFD0 and its EXIF and GPS IFDs")
    func metadata() throws {
        var tiff = Self.proRAW()
        tiff.ifd0 += [(0x010F, .ascii("Apple")), (0x0110, .ascii("iPhone 15 Pro")), (0x0112, .short(8))]
        tiff.exif = [(0x9003, .ascii("2024:06:01 12:34:56")), (0x9011, .ascii("+02:00"))]
        tiff.gps = [
            (1, .ascii("N")), (2, .rationals([(48, 1), (51, 1), (3024, 100)])),
            (3, .ascii("E")), (4, .rationals([(2, 1), (17, 1), (4020, 100)])),
        ]
        let info = try probe.probe(bytes: tiff.build())
        #expect(info.make == "Apple" && info.model == "iPhone 15 Pro")
        #expect(info.rotation == .clockwise270 && info.displayWidth == 6048 && info.displayHeight == 8064)
        #expect(info.creationDate?.iso8601 == "2024-06-01T12:34:56+02:00")
        let place = try #require(info.location)
        #expect(abs(place.latitude - 48.8584) < 0.0001 && abs(place.longitude - 2.2945) < 0.0001)
    }

    @Test("EXIF and GPS pointers of type IFD (13), as some DNG writers give them, are followed")
    func ifdTypedPointers() throws {
        var tiff = TIFFBuilder()
        tiff.ifd0 = Self.image(width: 64, height: 48)
        tiff.exif = [(0x9003, .ascii("2024:06:01 12:34:56"))]
        tiff.gps = [(1, .ascii("S")), (2, .rationals([(10, 1)])), (3, .ascii("W")), (4, .rationals([(20, 1)]))]
        var bytes = tiff.build()
        // IFD0's entries: the image's four, then the EXIF and GPS pointers (LONG, 4), retyped IFD (13).
        for index in [4, 5] { bytes[8 + 2 + 12 * index + 3] = 13 }
        let info = try probe.probe(bytes: bytes)
        #expect(info.creationDate?.iso8601 == "2024-06-01T12:34:56")
        #expect(info.location?.latitude == -10 && info.location?.longitude == -20)
    }

    @Test("a large TIFF's pixels are not read: IFD0 after 40 MB of them, camera and date found in under 1 MB read")
    func pixelsNotRead() throws {
        var tiff = Self.proRAW()
        tiff.pixelBytes = 40 << 20
        tiff.ifd0 += [(0x0110, .ascii("iPhone 15 Pro"))]
        tiff.exif = [(0x9003, .ascii("2024:06:01 12:34:56"))]
        let source = MemoryByteSource(tiff.build())
        let info = try probe.probe(source: source)
        #expect(info.width == 8064 && info.model == "iPhone 15 Pro" && info.creationDate != nil)
        #expect(source.bytesRead < 1 << 20)
    }

    @Test("a TIFF exiftool wrote: size, camera, date and place as exiftool reads them")
    func realTIFF() throws {
        let path = try Fixtures.path(.tiffEXIF)
        let expected = try exiftool(path)
        let info = try probe.probe(path: path)
        #expect(info.container == .tiff)
        #expect(info.width == expected["ImageWidth"] as? Int && info.height == expected["ImageHeight"] as? Int)
        #expect(info.make == expected["Make"] as? String && info.model == expected["Model"] as? String)
        #expect(info.creationDate?.iso8601 == "2022-05-06T07:08:09+09:00")
        let place = try #require(info.location)
        #expect(abs(place.latitude - (expected["GPSLatitude"] as? Double ?? 0)) < 0.0001)
        #expect(abs(place.longitude - (expected["GPSLongitude"] as? Double ?? 0)) < 0.0001)
    }

    @Test("ImageMagick's orientation-6 TIFF (IFD0 after the pixels) reads as exiftool reads it")
    func realOrientation6() throws {
        let path = try Fixtures.path(.tiffOrientation6)
        let expected = try exiftool(path)
        let info = try probe.probe(path: path)
        #expect(expected["Orientation"] as? Int == 6)
        #expect(info.exifOrientation == 6 && info.rotation == .clockwise90)
        #expect(info.width == 64 && info.height == 48 && info.displayWidth == 48 && info.displayHeight == 64)
        #expect((expected["BitsPerSample"] as? String)?.hasPrefix("16 ") == true && info.bitDepth == 16)
    }

    @Test("a DNG exiftool made: a DNG, with its orientation and camera")
    func realDNG() throws {
        let path = try Fixtures.path(.dng)
        let expected = try exiftool(path)
        let info = try probe.probe(path: path)
        #expect(expected["FileType"] as? String == "DNG" && info.container == .dng)
        #expect(info.width == 96 && info.height == 64 && info.rotation == .clockwise270)
        #expect(info.model == "iPhone 15 Pro")
    }

    @Test(
        "BigTIFF is refused with an error that says so",
        arguments: [[0x49, 0x49, 0x2B, 0x00], [0x4D, 0x4D, 0x00, 0x2B]])
    func bigTIFF(head: [UInt8]) {
        let bytes = head + [0, 8, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 32)
        let error = #expect(throws: ProbeError.self) { try probe.probe(bytes: bytes) }
        #expect(error?.code == .unrecognized && error?.description.contains("BigTIFF") == true)
    }
}

/// Hostile TIFFs: each gives a ``ProbeError`` naming the problem, quickly; never a crash or a hang.
@Suite("Hostile TIFF and DNG")
struct HostileTIFFTests {
    let probe = MediaProbe()

    func expectError(
        _ bytes: [UInt8], _ code: ProbeError.Code, mentions: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let started = ContinuousClock.now
        do {
            let info = try probe.probe(bytes: bytes)
            Issue.record("expected an error, got \(info.container)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains(mentions), "\(error)", sourceLocation: sourceLocation)
        }
        #expect(ContinuousClock.now - started < .seconds(1), sourceLocation: sourceLocation)
    }

    @Test("a SubIFD pointing back at IFD0 is a loop")
    func subIFDLoop() {
        var tiff = TIFFBuilder()
        tiff.ifd0 =
            TIFFProbeTests.image(width: 10, height: 10) + [(0xC612, .undefined([1, 4, 0, 0])), (0x014A, .long(8))]
        expectError(tiff.build(), .malformed, mentions: "loop")
    }

    @Test("a SubIFD listing itself is a loop")
    func subIFDSelfLoop() {
        var tiff = TIFFProbeTests.proRAW()
        tiff.subIFDs[0] += [(0x014A, .long(0))]
        tiff.subIFDs[0][tiff.subIFDs[0].count - 1].1 = .long(UInt32(tiff.subIFDOffsets()[0]))
        expectError(tiff.build(), .malformed, mentions: "loop")
    }

    @Test("a SubIFDs tag listing a million IFDs exceeds the limit")
    func hugeSubIFDCount() {
        var tiff = TIFFBuilder()
        tiff.ifd0 =
            TIFFProbeTests.image(width: 10, height: 10) + [
                (0xC612, .undefined([1, 4, 0, 0])), (0x014A, .raw(type: 4, count: 1_000_000, bytes: [0, 0, 0, 8])),
            ]
        expectError(tiff.build(), .limitExceeded, mentions: "SubIFDs")
    }

    @Test("IFD0 past the end of the file is truncated")
    func ifd0PastEnd() {
        expectError([0x49, 0x49, 0x2A, 0x00, 0x00, 0x10, 0x00, 0x00, 0, 0], .truncated, mentions: "past the end")
    }

    @Test("IFD0 cut short in its entries is truncated")
    func ifd0Cut() {
        let bytes = TIFFProbeTests.proRAW().build()
        expectError(Array(bytes[0..<40]), .truncated, mentions: "entries")
    }

    @Test("a SubIFD past the end of the file is truncated")
    func subIFDPastEnd() {
        var tiff = TIFFBuilder()
        tiff.ifd0 =
            TIFFProbeTests.image(width: 10, height: 10) + [
                (0xC612, .undefined([1, 4, 0, 0])), (0x014A, .long(1 << 30)),
            ]
        expectError(tiff.build(), .truncated, mentions: "past the end")
    }

    @Test("an IFD listing more entries than the limit exceeds it")
    func tooManyEntries() {
        expectError(
            [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 64), .limitExceeded,
            mentions: "entries")
    }

    @Test("an IFD0 with no size is malformed")
    func noSize() {
        var tiff = TIFFBuilder()
        tiff.ifd0 = [(0x0112, .short(1))]
        expectError(tiff.build(), .malformed, mentions: "ImageWidth")
    }

    @Test("IFD0's next-IFD link and EXIF pointer aimed at itself do not loop")
    func linksToItself() throws {
        var tiff = TIFFBuilder()
        tiff.ifd0 = TIFFProbeTests.image(width: 30, height: 20) + [(0x0110, .ascii("Loop"))]
        tiff.exif = [(0x9003, .ascii("2024:06:01 12:34:56"))]
        tiff.gps = [(1, .ascii("N"))]
        var bytes = tiff.build()
        // IFD0's entries: the image's four, Model, then the EXIF and GPS pointers; then the next-IFD link.
        for index in [5, 6] {
            bytes.replaceSubrange(8 + 2 + 12 * index + 8..<8 + 2 + 12 * index + 12, with: [0, 0, 0, 8])
        }
        let next = 8 + 2 + 12 * 7
        bytes.replaceSubrange(next..<next + 4, with: [0, 0, 0, 8])
        let info = try probe.probe(bytes: bytes)
        #expect(info.width == 30 && info.height == 20 && info.model == "Loop" && info.creationDate == nil)
    }

    @Test("every cut of a DNG gives facts or an error")
    func everyCut() {
        var tiff = TIFFProbeTests.proRAW()
        tiff.ifd0 += [(0x010F, .ascii("Apple"))]
        tiff.exif = [(0x9003, .ascii("2024:06:01 12:34:56"))]
        let bytes = tiff.build()
        for cut in 0..<bytes.count {
            _ = try? probe.probe(bytes: Array(bytes[0..<cut]))
        }
        #expect(throws: ProbeError.self) { try probe.probe(bytes: Array(bytes[0..<bytes.count - 20])) }
    }

    @Test("dimensions near 2^32 (the fuzzer's find): the largest image is chosen without overflow, no crash")
    func hugeDimensions() throws {
        var tiff = TIFFBuilder()
        tiff.ifd0 = TIFFProbeTests.image(width: 0xF2F2_F2F2, height: 0xF2F2_F2F2)
        tiff.subIFDs = [TIFFProbeTests.image(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF)]
        let info = try probe.probe(bytes: tiff.build())
        #expect(info.container == .tiff)
        #expect(info.width != nil && info.height != nil)
    }
}
