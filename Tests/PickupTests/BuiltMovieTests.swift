import Pickup
import PickupTestSupport
import Testing

/// Movies built box by box, for what encoders do not write on request.
@Suite("Movies built in code")
struct BuiltMovieTests {
    let probe = MediaProbe()
    typealias Spec = BoxBuilder.MovieSpec

    @Test("version-1 headers and 64-bit box sizes", arguments: [false, true])
    func versionOne(moovFirst: Bool) throws {
        var spec = Spec()
        spec.version = 1
        spec.largeSizes = true
        spec.movieDuration = 2500
        spec.mediaDuration = 32_000
        let info = try probe.probe(bytes: BoxBuilder.movie(spec, moovFirst: moovFirst))
        #expect(info.kind == .video)
        #expect(info.width == 320 && info.height == 240)
        #expect(abs((info.duration ?? 0) - 2.5) < 0.001)
        // 50 samples over 32000/12800 = 2.5 s.
        #expect(abs((info.frameRate ?? 0) - 20) < 0.001)
    }

    @Test(
        "the track matrix gives the clockwise turn and mirroring",
        arguments: [
            ((0x10000, 0, 0, 0x10000), Rotation.none, false),
            ((0, 0x10000, -0x10000, 0), .clockwise90, false),
            ((-0x10000, 0, 0, -0x10000), .upsideDown, false),
            ((0, -0x10000, 0x10000, 0), .clockwise270, false),
            ((-0x10000, 0, 0, 0x10000), .none, true),
            ((0x10000, 0, 0, -0x10000), .upsideDown, true),
        ] as [((Int32, Int32, Int32, Int32), Rotation, Bool)])
    func matrix(_ matrix: (Int32, Int32, Int32, Int32), _ rotation: Rotation, _ mirrored: Bool) throws {
        var spec = Spec()
        spec.matrix = matrix
        let info = try probe.probe(bytes: BoxBuilder.movie(spec))
        #expect(info.rotation == rotation)
        #expect(info.orientation.mirrored == mirrored)
        #expect(info.displayWidth == (rotation.swapsDimensions ? 240 : 320))
    }

    @Test("an edit list sets the presented duration")
    func editList() throws {
        var spec = Spec()
        spec.movieDuration = 10_000
        spec.mediaDuration = 12_800 * 10
        spec.edits = [1500, 2500]  // 4 s in the movie's 1000 Hz timescale
        let info = try probe.probe(bytes: BoxBuilder.movie(spec))
        #expect(abs((info.duration ?? 0) - 4) < 0.001)
    }

    @Test("mvhd's creation time is a UTC date counted from 1904")
    func creationTime() throws {
        var spec = Spec()
        spec.creationTime = 3_786_912_000  // 2024-01-01T00:00:00Z
        let info = try probe.probe(bytes: BoxBuilder.movie(spec))
        #expect(info.creationDate?.iso8601 == "2024-01-01T00:00:00Z")
    }

    @Test("QuickTime keys and ©xyz user data are read; keys win over mvhd")
    func metadata() throws {
        var spec = Spec()
        spec.creationTime = 3_786_912_000
        var xyz = ByteWriter()
        let place = "+40.6892-074.0445+010.000/"
        xyz.u16(UInt16(place.utf8.count))
        xyz.u16(0x15C7)
        xyz.ascii(place)
        spec.extraMoovChildren = [
            BoxBuilder.appleKeys([
                ("com.apple.quicktime.creationdate", "2023-07-04T21:15:00-0400"),
                ("com.apple.quicktime.content.identifier", "ABC-123"),
            ]),
            BoxBuilder.box("udta", BoxBuilder.box("©xyz", xyz.bytes)),
        ]
        let info = try probe.probe(bytes: BoxBuilder.movie(spec, brand: "qt  "))
        #expect(info.container == .mov)
        #expect(info.creationDate?.iso8601 == "2023-07-04T21:15:00-04:00")
        #expect(info.contentIdentifier == "ABC-123")
        #expect(abs((info.location?.latitude ?? 0) - 40.6892) < 0.00001)
        #expect(abs((info.location?.longitude ?? 0) - -74.0445) < 0.00001)
        #expect(info.location?.altitude == 10)
    }

    @Test(
        "brands name the container",
        arguments: [
            ("isom", Container.mp4), ("mp42", .mp4), ("qt  ", .mov), ("M4V ", .m4v), ("3gp5", .threeGP),
            ("3g2a", .threeG2),
        ])
    func brands(_ brand: String, _ container: Container) throws {
        let info = try probe.probe(bytes: BoxBuilder.movie(Spec(), brand: brand))
        #expect(info.container == container)
    }

    @Test("a huge movie with moov at the end reads a few kilobytes, not its media")
    func boundedReads() throws {
        let bytes = BoxBuilder.movie(Spec(), moovFirst: false, mdatBytes: 50_000_000)
        let source = MemoryByteSource(bytes)
        _ = try probe.probe(source: source)
        #expect(source.bytesRead < 100_000, "read \(source.bytesRead) bytes")
    }

    @Test("an MP4 with a stray image 'meta' stays a movie; with a HEIF brand it is a still")
    func strayMeta() throws {
        var infe = ByteWriter()
        infe.u16(1)
        infe.u16(0)
        infe.ascii("hvc1\0")
        var iinf = ByteWriter()
        iinf.u16(1)
        iinf.append(BoxBuilder.fullBox("infe", version: 2, infe.bytes))
        let meta = BoxBuilder.fullBox(
            "meta",
            BoxBuilder.hdlr("pict") + BoxBuilder.fullBox("pitm", [0, 1])
                + BoxBuilder.fullBox("iinf", iinf.bytes))
        let body = meta + BoxBuilder.moov(Spec()) + BoxBuilder.box("mdat", [0, 0, 0, 0])
        #expect(try probe.probe(bytes: BoxBuilder.ftyp("isom") + body).kind == .video)
        #expect(try probe.probe(bytes: BoxBuilder.ftyp("heic", ["mif1", "heic"]) + body).kind == .image)
    }

    @Test("a ProRes 4444 entry with depth 32 means alpha; depth 24 or another codec does not")
    func proresAlpha() throws {
        var spec = Spec()
        spec.sampleEntry = "ap4h"
        spec.depth = 32
        let alpha = try probe.probe(bytes: BoxBuilder.movie(spec))
        #expect(alpha.videoCodec == "prores")
        #expect(alpha.alpha)
        spec.depth = 24
        #expect(try !probe.probe(bytes: BoxBuilder.movie(spec)).alpha)
        spec.sampleEntry = "avc1"
        spec.depth = 32
        #expect(try !probe.probe(bytes: BoxBuilder.movie(spec)).alpha)
    }
}

/// HEIF stills built in code: rotations, mirrors, grids, EXIF items.
@Suite("HEIF built in code")
struct BuiltHEIFTests {
    let probe = MediaProbe()

    @Test(
        "irot turns anticlockwise; Pickup reports the clockwise turn",
        arguments: [(UInt8(0), Rotation.none), (1, .clockwise270), (2, .upsideDown), (3, .clockwise90)])
    func irot(_ angle: UInt8, _ rotation: Rotation) throws {
        var heif = HEIFBuilder()
        heif.irot = angle
        let info = try probe.probe(bytes: heif.build())
        #expect(info.rotation == rotation)
        #expect(info.width == 4032 && info.height == 3024)
        #expect(info.displayWidth == (rotation.swapsDimensions ? 3024 : 4032))
        #expect(info.bitDepth == 10)
    }

    @Test("imir: axis 0 flips left to right, axis 1 top to bottom")
    func imir() throws {
        var heif = HEIFBuilder()
        heif.imir = 0
        let leftRight = try probe.probe(bytes: heif.build())
        #expect(leftRight.orientation == Orientation(rotation: .none, mirrored: true))
        heif.imir = 1
        let topBottom = try probe.probe(bytes: heif.build())
        #expect(topBottom.orientation == Orientation(rotation: .upsideDown, mirrored: true))
    }

    @Test("a turn then a mirror equals a mirror then the opposite turn")
    func order() throws {
        var heif = HEIFBuilder()
        heif.irot = 1  // 90 anticlockwise = 270 clockwise
        heif.imir = 0
        heif.mirrorFirst = false
        #expect(try probe.probe(bytes: heif.build()).orientation == Orientation(rotation: .clockwise90, mirrored: true))
        heif.mirrorFirst = true
        #expect(
            try probe.probe(bytes: heif.build()).orientation == Orientation(rotation: .clockwise270, mirrored: true))
    }

    @Test("a grid reports its full size from idat, not its tiles'")
    func grid() throws {
        var heif = HEIFBuilder()
        heif.grid = true
        heif.width = 5712
        heif.height = 4284
        let info = try probe.probe(bytes: heif.build())
        #expect(info.width == 5712 && info.height == 4284)
        #expect(info.imageCodec == "hevc")
    }

    @Test("EXIF item: camera, date, and the Live Photo identifier from Apple's maker note")
    func exifItem() throws {
        var tiff = TIFFBuilder()
        tiff.ifd0 = [(0x010F, .ascii("Apple")), (0x0110, .ascii("iPhone 11 Pro")), (0x0112, .short(6))]
        tiff.exif = [
            (0x9003, .ascii("2020:05:04 18:39:11")), (0x9011, .ascii("-04:00")),
            (0x927C, .undefined(TIFFBuilder.appleMakerNote(contentIdentifier: "1745E022-9712-43C7-B024-F308EC6413CB"))),
        ]
        var heif = HEIFBuilder()
        heif.exif = tiff.build()
        let info = try probe.probe(bytes: heif.build())
        #expect(info.make == "Apple" && info.model == "iPhone 11 Pro")
        #expect(info.creationDate?.iso8601 == "2020-05-04T18:39:11-04:00")
        #expect(info.contentIdentifier == "1745E022-9712-43C7-B024-F308EC6413CB")
        #expect(info.livePhotoRole == .still)
        // HEIF reports its EXIF orientation but does not apply it.
        #expect(info.exifOrientation == 6)
        #expect(info.rotation == .none)
    }

    @Test("brands: heic, avif, and mif1 as plain HEIF")
    func brands() throws {
        var heif = HEIFBuilder()
        heif.brand = "mif1"
        #expect(try probe.probe(bytes: heif.build()).container == .heif)
        heif.brand = "heix"
        #expect(try probe.probe(bytes: heif.build()).container == .heic)
    }
}
