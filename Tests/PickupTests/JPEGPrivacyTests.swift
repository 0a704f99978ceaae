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
        let path = Temporary.url("strip", suffix: ".jpg")
        try Data(stripped).write(to: path)
        defer { Temporary.remove(path) }
        let tags = try Shell.run("exiftool -s -GPS:all -Make -Orientation -n \"$F\"", environment: ["F": path.path])
        #expect(!tags.outputText.contains("GPS") && !tags.outputText.contains("Make"))
        #expect(tags.outputText.contains("Orientation") && tags.outputText.contains("8"))
    }

    @Test("an MPF second image, a C2PA segment and a motion-photo trailer leave nothing of place, owner or camera")
    func multiPicture() throws {
        let original = try MultiPictureJPEG.make()
        let folder = Temporary.url("strip")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { Temporary.remove(folder) }
        let before = folder.appendingPathComponent("before.jpg")
        let after = folder.appendingPathComponent("after.jpg")
        try Data(original).write(to: before)
        try Data(try JPEGPrivacy.stripped(original)).write(to: after)
        // exiftool -ee reads every embedded image (Doc2 is the MPF second image).
        let read = { (file: URL) throws -> String in
            try Shell.run(
                "exiftool -ee -a -G3 -s -GPS:all -OwnerName -Make -MPImage2 \"$F\"", environment: ["F": file.path]
            ).outputText
        }
        let tagsBefore = try read(before)
        #expect(tagsBefore.contains("[Doc2]") && tagsBefore.contains("51 deg 30'"))  // London, in the second image
        #expect(tagsBefore.contains("48 deg 51'") && tagsBefore.contains(MultiPictureJPEG.owner))
        let tagsAfter = try read(after)
        #expect(tagsAfter.isEmpty, "exiftool still finds: \(tagsAfter)")
        let bytes = [UInt8](try Data(contentsOf: after))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("London") && !text.contains(MultiPictureJPEG.owner) && !text.contains("MPF"))
        #expect(!text.contains(MultiPictureJPEG.camera) && !text.contains("motion photo"))
        #expect(bytes.suffix(2) == [0xFF, 0xD9])
        // The primary picture still decodes, whole.
        let decoded = try Shell.run("ffmpeg -v error -i \"$F\" -f null -", environment: ["F": after.path])
        #expect(decoded.status == 0 && decoded.errorText.isEmpty, "\(decoded.errorText)")
        #expect(try MediaProbe().probe(bytes: bytes).width == 320)
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
