import Foundation
import Pickup
import PickupTestSupport
import Testing

/// Stripping PNG, WebP and GIF photos of their place and their camera, keeping the picture.
@Suite("PNG, WebP and GIF privacy")
struct PhotoPrivacyTests {
    /// The fixture with a place added (EXIF GPS where the format has EXIF, and an XMP city), as bytes.
    func withPlace(_ fixture: Fixture, _ suffix: String) throws -> [UInt8] {
        let path = try scratchFile(suffix)
        defer { Temporary.remove(path) }
        try FileManager.default.copyItem(atPath: try Fixtures.path(fixture), toPath: path)
        let exif =
            suffix == "gif" ? "" : "-GPSLatitude=48.8584 -GPSLatitudeRef=N -GPSLongitude=2.2945 -GPSLongitudeRef=E"
        let tagged = try Shell.run(
            """
            exiftool -q -overwrite_original \(exif) -XMP-photoshop:City=Paris -XMP:GPSLatitude=48.8584 \
            -XMP-dc:Creator=Someone "$F"
            """, environment: ["F": path])
        try #require(tagged.status == 0, "exiftool: \(tagged.errorText)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func scratchFile(_ suffix: String) throws -> String {
        Temporary.path("privacy", suffix: ".\(suffix)")
    }

    /// What exiftool reads, and the MD5 of the decoded picture (ffmpeg).
    func read(_ bytes: [UInt8], _ suffix: String) throws -> (tags: String, pixels: String) {
        let path = try scratchFile(suffix)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { Temporary.remove(path) }
        let tags = try Shell.run("exiftool -a -G1 -s \"$F\"", environment: ["F": path]).outputText
        let pixels = try Shell.run(
            "ffmpeg -hide_banner -loglevel error -i \"$F\" -frames:v 1 -f md5 -", environment: ["F": path])
        return (tags, pixels.outputText)
    }

    @Test(
        "PNG and WebP: GPS, the XMP city and the make go; orientation and date stay; the picture decodes the same",
        arguments: [
            (Fixture.pngEXIF, "png", "Rotate 180"), (Fixture.webpEXIF, "webp", "Rotate 90 CW"),
        ])
    func strips(fixture: Fixture, suffix: String, orientation: String) throws {
        let original = try withPlace(fixture, suffix)
        let before = try read(original, suffix)
        #expect(before.tags.contains("GPSLatitude") && before.tags.contains("Paris"))
        let stripped = try suffix == "png" ? PNGPrivacy.stripped(original) : WebPPrivacy.stripped(original)
        let after = try read(stripped, suffix)
        for gone in ["GPS", "Paris", "Make"] {
            #expect(!after.tags.contains(gone), "\(gone) is still in the \(suffix)")
        }
        #expect(after.tags.contains("Orientation") && after.tags.contains(orientation))
        if suffix == "png" { #expect(after.tags.contains("DateTimeOriginal") && after.tags.contains("2020:02:03")) }
        #expect(!after.tags.contains("Warning") && !after.tags.contains("Error"), "exiftool: \(after.tags)")
        #expect(!after.pixels.isEmpty && after.pixels == before.pixels)
        let info = try MediaProbe().probe(bytes: stripped)
        #expect(info.location == nil && info.make == nil)
    }

    @Test("GIF: the XMP place and creator go; every frame decodes the same")
    func stripsGIF() throws {
        let original = try withPlace(.gifAnimated, "gif")
        let before = try read(original, "gif")
        #expect(before.tags.contains("GPSLatitude") && before.tags.contains("Paris") && before.tags.contains("Someone"))
        let stripped = try GIFPrivacy.stripped(original)
        let after = try read(stripped, "gif")
        for gone in ["GPS", "Paris", "Someone", "XMP"] {
            #expect(!after.tags.contains(gone), "\(gone) is still in the gif")
        }
        #expect(!after.tags.contains("Warning") && !after.tags.contains("Error"), "exiftool: \(after.tags)")
        let frames = { (bytes: [UInt8]) throws -> String in
            let path = try scratchFile("gif")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            defer { Temporary.remove(path) }
            return try Shell.run(
                "ffmpeg -hide_banner -loglevel error -i \"$F\" -f framemd5 -", environment: ["F": path]
            ).outputText
        }
        let decoded = try frames(stripped)
        let expected = try frames(original)
        #expect(decoded.split(separator: "\n").count > 5 && decoded == expected)
        let count = try MediaProbe().probe(bytes: original).frameCount
        #expect(try MediaProbe().probe(bytes: stripped).frameCount == count)
    }

    @Test("garbage and cut files are errors, never a crash")
    func edges() throws {
        let strippers: [Fixture: ([UInt8]) throws(ProbeError) -> [UInt8]] = [
            .pngEXIF: PNGPrivacy.stripped, .webpEXIF: WebPPrivacy.stripped, .gifAnimated: GIFPrivacy.stripped,
        ]
        for (fixture, strip) in strippers {
            let bytes = try Fixtures.bytes(fixture)
            #expect(throws: ProbeError.self) { try strip([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) }
            #expect(throws: ProbeError.self) { try strip(Array(bytes.prefix(bytes.count - 7))) }
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<300 {
                var mutated = bytes
                for _ in 0..<6 {
                    mutated[Int.random(in: 0..<mutated.count, using: &generator)] = .random(
                        in: 0...255, using: &generator)
                }
                _ = try? strip(mutated)
            }
        }
    }
}
