import Foundation
import Pickup
import PickupTestSupport
import Testing

/// Stripping PNG and WebP photos of their place and their camera, keeping the picture.
@Suite("PNG and WebP privacy")
struct PNGAndWebPPrivacyTests {
    /// The fixture with a place added (EXIF GPS and an XMP city), as bytes.
    func withPlace(_ fixture: Fixture, _ suffix: String) throws -> [UInt8] {
        let path = try scratchFile(suffix)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.copyItem(atPath: try Fixtures.path(fixture), toPath: path)
        let tagged = try Shell.run(
            """
            exiftool -q -overwrite_original -GPSLatitude=48.8584 -GPSLatitudeRef=N -GPSLongitude=2.2945 \
            -GPSLongitudeRef=E -XMP-photoshop:City=Paris -XMP:GPSLatitude=48.8584 "$F"
            """, environment: ["F": path])
        try #require(tagged.status == 0, "exiftool: \(tagged.errorText)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func scratchFile(_ suffix: String) throws -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("pickup-privacy-\(UUID().uuidString).\(suffix)")
            .path
    }

    /// What exiftool reads, and the MD5 of the decoded picture (ffmpeg).
    func read(_ bytes: [UInt8], _ suffix: String) throws -> (tags: String, pixels: String) {
        let path = try scratchFile(suffix)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
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

    @Test("garbage and cut files are errors, never a crash")
    func edges() throws {
        for fixture in [Fixture.pngEXIF, .webpEXIF] {
            let bytes = try Fixtures.bytes(fixture)
            let strip = fixture == .pngEXIF ? PNGPrivacy.stripped : WebPPrivacy.stripped
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
