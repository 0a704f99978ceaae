import Foundation
import Pickup
import PickupTestSupport
import Testing

/// Stripping a HEIC of its place and its camera in place, keeping the picture and its date.
@Suite("HEIF privacy")
struct HEIFPrivacyTests {
    func exiftool(_ bytes: [UInt8], _ arguments: String) throws -> String {
        let path = Temporary.url("strip", suffix: ".heic")
        try Data(bytes).write(to: path)
        defer { Temporary.remove(path) }
        return try Shell.run("exiftool -a -G1 -s \(arguments) \"$F\"", environment: ["F": path.path]).outputText
    }

    @Test("GPS in EXIF and XMP, the city, make and model go; the date stays; every other byte is the same")
    func strips() throws {
        let original = try Fixtures.bytes(.heicGPS)
        let before = try exiftool(original, "")
        #expect(before.contains("GPSLatitude") && before.contains("Paris") && before.contains("iPhone 15 Pro"))
        let stripped = try HEIFPrivacy.stripped(original)
        #expect(stripped.count == original.count)
        let after = try exiftool(stripped, "")
        for gone in ["GPS", "Paris", "City", "Apple", "iPhone"] {
            #expect(!after.contains(gone), "\(gone) is still in the file")
        }
        #expect(after.contains("DateTimeOriginal") && after.contains("2024:06:01 12:34:56"))
        #expect(after.contains("OffsetTimeOriginal") && after.contains("+02:00"))
        #expect(!after.contains("Warning"), "exiftool warns: \(after)")
        // Pickup still reads it: the same picture, no place.
        let info = try MediaProbe().probe(bytes: stripped)
        #expect(info.location == nil && info.make == nil && info.width == 640 && info.height == 480)
        #expect(info.creationDate == (try MediaProbe().probe(bytes: original)).creationDate)
        // Only bytes inside the metadata items changed: the coded picture is untouched.
        let changed = zip(original, stripped).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        let first = try #require(changed.first)
        let last = try #require(changed.last)
        #expect(last - first < 4096, "changes spread over \(first)...\(last)")
    }

    @Test("every XMP packet goes, not only one that names a place: creator, rights and description too")
    func xmpWithoutAPlace() throws {
        let path = Temporary.url("xmp", suffix: ".heic")
        try FileManager.default.copyItem(atPath: try Fixtures.path(.heic), toPath: path.path)
        defer { Temporary.remove(path) }
        let tagged = try Shell.run(
            "exiftool -q -overwrite_original -XMP-dc:Creator=Jane-Roe -XMP-dc:Rights=Jane-Roe-2026 "
                + "-XMP-dc:Description=Our-house \"$F\"", environment: ["F": path.path])
        #expect(tagged.status == 0, "\(tagged.errorText)")
        let original = [UInt8](try Data(contentsOf: path))
        #expect(try exiftool(original, "-XMP:all").contains("Jane-Roe"))
        let after = try exiftool(try HEIFPrivacy.stripped(original), "-XMP:all -Creator -Rights -Description")
        #expect(!after.contains("Jane-Roe") && !after.contains("Our-house"), "\(after)")
    }

    @Test("a HEIC without EXIF or XMP comes back the same; not-HEIF bytes and damaged files are errors, never a crash")
    func edges() throws {
        let plain = try Fixtures.bytes(.heicAlpha)
        #expect(try HEIFPrivacy.stripped(plain) == plain)
        #expect(throws: ProbeError.self) { try HEIFPrivacy.stripped(try Fixtures.bytes(.jpegEXIF)) }
        #expect(throws: ProbeError.self) { try HEIFPrivacy.stripped([0, 0, 0, 8, 0x66, 0x74]) }
        var generator = SystemRandomNumberGenerator()
        let original = try Fixtures.bytes(.heicGPS)
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<6 {
                bytes[Int.random(in: 0..<min(bytes.count, 2000), using: &generator)] = .random(
                    in: 0...255, using: &generator)
            }
            if let out = try? HEIFPrivacy.stripped(bytes) { #expect(out.count == bytes.count) }
        }
    }
}
