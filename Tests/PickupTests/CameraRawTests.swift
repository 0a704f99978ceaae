import Foundation
import Pickup
import PickupTestSupport
import Testing

/// Cameras' raw photos, built in code as each format lays itself out: the TIFF-based ones
/// (CR2, NEF, ARW, PEF, and ORF and RW2 with their own magic numbers), Fujifilm's RAF and
/// Canon's CR3 (an ISO BMFF file). Each is an image of its own container, with its camera,
/// time and place; the sensor's data is never read.
@Suite("Probing cameras' raw photos")
struct CameraRawTests {
    let probe = MediaProbe()

    /// IFD0 of a raw file: a small preview (NewSubfileType 1), the camera, and when it shot.
    static func tiff(make: String, raw: [(UInt16, TIFFBuilder.Value)], rawInSubIFD: Bool = true) -> TIFFBuilder {
        var tiff = TIFFBuilder(littleEndian: true)
        let camera: [(UInt16, TIFFBuilder.Value)] = [
            (0x010F, .ascii(make)), (0x0110, .ascii("Model X")), (0x0112, .short(6)),
        ]
        tiff.exif = [(0x9003, .ascii("2024:05:06 10:20:30"))]
        if rawInSubIFD {
            tiff.ifd0 = TIFFProbeTests.image(width: 160, height: 120, subfileType: 1) + camera
            tiff.subIFDs = [raw]
        } else {
            tiff.ifd0 = raw + camera
        }
        return tiff
    }

    /// A sensor's image: its size, and how its data is kept.
    static func sensor(photometric: UInt16? = 32803, compression: UInt16 = 1) -> [(UInt16, TIFFBuilder.Value)] {
        TIFFProbeTests.image(width: 6048, height: 4024) + [(0x0103, .short(compression))]
            + (photometric.map { [(0x0106, .short($0))] } ?? [])
    }

    func expectTaken(_ info: MediaInfo, container: Container) {
        #expect(info.kind == .image && info.container == container, "\(info.kind) \(info.container)")
        #expect(info.container.isCameraRaw && info.container.mimeType.hasPrefix("image/x-"))
        #expect(info.creationDate?.description == "2024-05-06T10:20:30", "\(String(describing: info.creationDate))")
        #expect(
            info.exifOrientation == 6 && info.rotation == .clockwise90, "\(String(describing: info.exifOrientation))")
    }

    @Test(
        "Nikon, Sony and Pentax raws are told from a TIFF by an image of the sensor's data, and named by the make",
        arguments: ["NIKON CORPORATION", "SONY", "PENTAX", "RICOH IMAGING COMPANY, LTD."])
    func tiffBasedRaws(make: String) throws {
        // Nikon's raw in a SubIFD (CFA, its own compression); Sony's and Pentax's in IFD0, known
        // by their compression; Ricoh's Pentax by the CFA alone.
        let (container, raw, sub): (Container, [(UInt16, TIFFBuilder.Value)], Bool) =
            switch make {
            case "SONY": (.arw, Self.sensor(photometric: nil, compression: 32767), false)
            case "PENTAX": (.pef, Self.sensor(photometric: nil, compression: 65535), false)
            case "NIKON CORPORATION": (.nef, Self.sensor(compression: 34713), true)
            default: (.pef, Self.sensor(), true)
            }
        let info = try probe.probe(bytes: Self.tiff(make: make, raw: raw, rawInSubIFD: sub).build())
        expectTaken(info, container: container)
        #expect(info.width == 6048 && info.height == 4024 && info.imageCodec == container.rawValue)
        #expect(info.make == make)
    }

    @Test("a TIFF from a camera maker's scanner or software, with no sensor data, stays a TIFF")
    func plainTIFFFromACameraMaker() throws {
        let info = try probe.probe(
            bytes: Self.tiff(make: "NIKON", raw: Self.sensor(photometric: 2), rawInSubIFD: true).build())
        #expect(info.container == .tiff && !info.container.isCameraRaw)
    }

    @Test("Canon's CR2 is known by the 'CR' after its TIFF header")
    func cr2() throws {
        var tiff = Self.tiff(make: "Canon", raw: TIFFProbeTests.image(width: 5184, height: 3456), rawInSubIFD: false)
        tiff.pixelBytes = 8
        var bytes = tiff.build()
        bytes.replaceSubrange(8..<12, with: Array("CR".utf8) + [2, 0])
        let info = try probe.probe(bytes: bytes)
        expectTaken(info, container: .cr2)
        #expect(info.width == 5184 && info.height == 3456)
        #expect(info.container.mimeType == "image/x-canon-cr2")
    }

    @Test("Olympus ORF and Panasonic RW2 are TIFFs with a magic number of their own; RW2's size is its borders")
    func orfAndRW2() throws {
        var olympus = Self.tiff(make: "OLYMPUS CORPORATION", raw: Self.sensor(), rawInSubIFD: false).build()
        olympus.replaceSubrange(2..<4, with: Array("RO".utf8))
        expectTaken(try probe.probe(bytes: olympus), container: .orf)

        // RW2's IFD0 gives the sensor (tags 2 and 3) and the image's borders on it (4 to 7), no ImageWidth.
        var panasonic = TIFFBuilder(littleEndian: true)
        panasonic.ifd0 = [
            (0x0002, .short(3724)), (0x0003, .short(2754)), (0x0004, .short(6)), (0x0005, .short(8)),
            (0x0006, .short(2742)), (0x0007, .short(3656)), (0x010F, .ascii("Panasonic")), (0x0112, .short(6)),
        ]
        panasonic.exif = [(0x9003, .ascii("2024:05:06 10:20:30"))]
        var bytes = panasonic.build()
        bytes.replaceSubrange(2..<4, with: [0x55, 0x00])
        let info = try probe.probe(bytes: bytes)
        expectTaken(info, container: .rw2)
        #expect(info.width == 3648 && info.height == 2736, "\(String(describing: info.width))")
    }

    @Test("Fujifilm's RAF: the camera, time and orientation come from its JPEG preview; a copy cut short is refused")
    func raf() throws {
        var exif = TIFFBuilder()
        exif.ifd0 = [(0x010F, .ascii("FUJIFILM")), (0x0110, .ascii("X-T5")), (0x0112, .short(6))]
        exif.exif = [(0x9003, .ascii("2024:05:06 10:20:30"))]
        let preview = TIFFBuilder.jpeg(width: 1920, height: 1280, exif: exif.build())
        let bytes = RawPhotoBuilder.raf(preview: preview)
        let info = try probe.probe(bytes: bytes)
        expectTaken(info, container: .raf)
        #expect(info.make == "FUJIFILM" && info.model == "X-T5")
        // The preview is smaller than the photo: its size is not taken for the photo's.
        #expect(info.width == nil && info.height == nil)

        let cut = RawPhotoBuilder.raf(preview: preview, cutAt: bytes.count - 100)
        #expect(throws: ProbeError.self) { try probe.probe(bytes: cut) }
        do {
            _ = try probe.probe(bytes: cut)
        } catch {
            #expect(error.code == .truncated && error.message.contains("the sensor's data"), "\(error)")
        }
        // A preview that does not read leaves the photo without its facts, not failed.
        let blind = try probe.probe(bytes: RawPhotoBuilder.raf(preview: [UInt8](repeating: 0x42, count: 300)))
        #expect(blind.container == .raf && blind.model == "X-T5" && blind.creationDate == nil)
    }

    @Test("Canon's CR3 is a photo, not a movie: its EXIF from the CMT boxes, its size from IFD0 there")
    func cr3() throws {
        var ifd0 = TIFFBuilder(littleEndian: true)
        ifd0.ifd0 = [
            (0x0100, .long(6000)), (0x0101, .long(4000)), (0x010F, .ascii("Canon")),
            (0x0110, .ascii("Canon EOS R5")), (0x0112, .short(6)),
        ]
        var exif = TIFFBuilder(littleEndian: true)
        exif.ifd0 = [(0x9003, .ascii("2024:05:06 10:20:30"))]
        var gps = TIFFBuilder(littleEndian: true)
        gps.ifd0 = [
            (1, .ascii("N")), (2, .rationals([(48, 1), (51, 1), (2400, 100)])), (3, .ascii("E")),
            (4, .rationals([(2, 1), (17, 1), (4000, 100)])),
        ]
        let userType: [UInt8] = [
            0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
        ]
        let canon = BoxBuilder.box(
            "uuid",
            userType + BoxBuilder.box("CNCV", Array("CanonCR3_001/00.09.00/00.00.00".utf8))
                + BoxBuilder.box("CMT1", ifd0.build()) + BoxBuilder.box("CMT2", exif.build())
                + BoxBuilder.box("CMT4", gps.build()))
        var spec = BoxBuilder.MovieSpec()
        spec.width = 6288
        spec.height = 4056
        spec.sampleEntry = "CRAW"
        spec.extraMoovChildren = [canon]
        let info = try probe.probe(bytes: BoxBuilder.movie(spec, brand: "crx "))
        expectTaken(info, container: .cr3)
        #expect(info.width == 6000 && info.height == 4000, "\(String(describing: info.width))")
        #expect(info.duration == nil && info.videoCodec == nil && info.make == "Canon")
        #expect(abs((info.location?.latitude ?? 0) - 48.8567) < 0.001, "\(String(describing: info.location))")

        // Without the CMT boxes: still a photo, the raw track's size.
        spec.extraMoovChildren = []
        let bare = try probe.probe(bytes: BoxBuilder.movie(spec, brand: "crx "))
        #expect(bare.kind == .image && bare.container == .cr3 && bare.width == 6288 && bare.creationDate == nil)
    }

    @Test("a file named as a raw photo that no format claims is a failure, not a sidecar left alone")
    func namedAsRaw() throws {
        for name in ["DSCF0001.RAF", "IMG_0001.CR3", "_DSC0001.NEF", "P1000001.RW2"] {
            #expect(MediaNames.namedAsMedia(name), "\(name)")
            let error = ProbeError(.unrecognized, "no format")
            #expect(!MediaNames.leftAlone(after: error, path: name), "\(name)")
        }
    }
}
