import Foundation
import Pickup
import PickupTestSupport
import Testing

/// Stripping a JPEG of its place and its camera, keeping what makes it stand upright.
@Suite("JPEG privacy")
struct JPEGPrivacyTests {
    @Test("GPS, make, model and software go; orientation and the dated offset stay; the picture is untouched")
    func strips() throws {
        let original = try Fixtures.bytes(.jpegEXIF)
        let before = try MediaProbe().probe(bytes: original)
        #expect(before.location != nil && before.make == "Apple")
        let stripped = try JPEGPrivacy.stripped(original)
        let after = try MediaProbe().probe(bytes: stripped)
        #expect(after.location == nil && after.make == nil && after.model == nil && after.software == nil)
        #expect(after.orientation == before.orientation && after.exifOrientation == 8)
        #expect(after.creationDate == before.creationDate && after.creationDate != nil)
        // The compressed picture, from the start of scan on, is the same bytes.
        let scan = { (bytes: [UInt8]) -> ArraySlice<UInt8> in
            let at = (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA } ?? 0
            return bytes[at...]
        }
        #expect(scan(stripped) == scan(original))
        // exiftool, reading it independently, finds no GPS at all.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pickup-strip-\(UUID().uuidString).jpg")
        try Data(stripped).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let tags = try Shell.run("exiftool -s -GPS:all -Make -Orientation -n \"$F\"", environment: ["F": path.path])
        #expect(!tags.outputText.contains("GPS") && !tags.outputText.contains("Make"))
        #expect(tags.outputText.contains("Orientation") && tags.outputText.contains("8"))
    }

    @Test("a JPEG without EXIF passes through; garbage and cut files are errors, never a crash")
    func edges() throws {
        let plain = try Fixtures.bytes(.jpegPlain)
        #expect(try JPEGPrivacy.stripped(plain).count <= plain.count)
        #expect(throws: ProbeError.self) { try JPEGPrivacy.stripped([0, 1, 2, 3, 4]) }
        #expect(throws: ProbeError.self) { try JPEGPrivacy.stripped(Array(try Fixtures.bytes(.jpegEXIF).prefix(300))) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var bytes = try Fixtures.bytes(.jpegEXIF)
            for _ in 0..<8 {
                bytes[Int.random(in: 2..<min(bytes.count, 4000), using: &generator)] = .random(
                    in: 0...255, using: &generator)
            }
            _ = try? JPEGPrivacy.stripped(bytes)
        }
    }
}
