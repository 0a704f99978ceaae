import Pickup
import PickupTestSupport
import Testing

/// EXIF blocks built in code, in JPEGs built in code.
@Suite("EXIF")
struct EXIFTests {
    let probe = MediaProbe()

    func jpeg(_ tiff: TIFFBuilder) -> [UInt8] {
        TIFFBuilder.jpeg(width: 4032, height: 3024, exif: tiff.build())
    }

    @Test("both byte orders", arguments: [false, true])
    func byteOrder(littleEndian: Bool) throws {
        var tiff = TIFFBuilder(littleEndian: littleEndian)
        tiff.ifd0 = [(0x010F, .ascii("Canon")), (0x0110, .ascii("Canon EOS R5")), (0x0112, .short(8))]
        tiff.gps = [
            (1, .ascii("N")), (2, .rationals([(51, 1), (30, 1), (2628, 100)])),
            (3, .ascii("W")), (4, .rationals([(0, 1), (7, 1), (3960, 100)])),
            (5, .byte(0)), (6, .rationals([(1150, 100)])),
        ]
        let info = try probe.probe(bytes: jpeg(tiff))
        #expect(info.make == "Canon" && info.model == "Canon EOS R5")
        #expect(info.rotation == .clockwise270)
        #expect(info.displayWidth == 3024 && info.displayHeight == 4032)
        let place = try #require(info.location)
        #expect(abs(place.latitude - 51.5073) < 0.0001)
        #expect(abs(place.longitude - -0.1277) < 0.0001)
        #expect(abs((place.altitude ?? 0) - 11.5) < 0.001)
    }

    @Test("every EXIF orientation", arguments: 1...8)
    func orientations(value: Int) throws {
        var tiff = TIFFBuilder()
        tiff.ifd0 = [(0x0112, .short(UInt16(value)))]
        let info = try probe.probe(bytes: jpeg(tiff))
        let expected = try #require(Orientation(exifValue: value))
        #expect(info.orientation == expected)
        #expect(info.exifOrientation == value)
    }

    @Test("an orientation outside 1...8 is ignored")
    func badOrientation() throws {
        var tiff = TIFFBuilder()
        tiff.ifd0 = [(0x0112, .short(42))]
        let info = try probe.probe(bytes: jpeg(tiff))
        #expect(info.orientation == .upright)
        #expect(info.exifOrientation == 1)
    }

    @Test("a date without an offset stays local and says so")
    func localDate() throws {
        var tiff = TIFFBuilder()
        tiff.exif = [(0x9003, .ascii("2011:01:13 14:33:39"))]
        let info = try probe.probe(bytes: jpeg(tiff))
        #expect(info.creationDate?.iso8601 == "2011-01-13T14:33:39")
        #expect(info.creationDate?.zone == .unspecified)
    }

    @Test("values pointing past the block are skipped, the rest is read")
    func pointerPastEnd() throws {
        var w = ByteWriter()
        w.ascii("MM")
        w.u16(42)
        w.u32(8)
        w.u16(2)
        w.u16(0x010F)  // Make: 100 bytes at an offset far past the end
        w.u16(2)
        w.u32(100)
        w.u32(0xFFFF_0000)
        w.u16(0x0112)
        w.u16(3)
        w.u32(1)
        w.u16(3)
        w.u16(0)
        w.u32(0)
        let info = try probe.probe(bytes: TIFFBuilder.jpeg(width: 10, height: 10, exif: w.bytes))
        #expect(info.make == nil)
        #expect(info.rotation == .upsideDown)
    }

    @Test("an IFD that links to itself is read once")
    func loop() throws {
        var w = ByteWriter()
        w.ascii("MM")
        w.u16(42)
        w.u32(8)
        w.u16(2)
        w.u16(0x0112)
        w.u16(3)
        w.u32(1)
        w.u16(6)
        w.u16(0)
        w.u16(0x8769)  // ExifIFD pointing back at IFD0
        w.u16(4)
        w.u32(1)
        w.u32(8)
        w.u32(8)  // next IFD: itself
        let started = ContinuousClock.now
        let info = try probe.probe(bytes: TIFFBuilder.jpeg(width: 10, height: 10, exif: w.bytes))
        #expect(info.rotation == .clockwise90)
        #expect(ContinuousClock.now - started < .seconds(1))
    }
}
