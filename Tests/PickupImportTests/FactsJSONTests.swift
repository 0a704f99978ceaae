import Foundation
import Pickup
import PickupTestSupport
import Testing

@testable import PickupImport

/// The catalog's facts JSON, written by hand (`FactsJSON`), reads back as the same facts as
/// `JSONEncoder`'s, and covers every property `MediaInfo` has.
@Suite("Facts JSON")
struct FactsJSONTests {
    private func readBack(_ text: String) throws -> MediaInfo {
        try JSONDecoder().decode(MediaInfo.self, from: Data(text.utf8))
    }

    @Test("every fixture's facts read back the same, and as JSONEncoder's do", arguments: Fixture.allCases)
    func fixtures(_ fixture: Fixture) throws {
        let info = try MediaProbe().probe(path: try Fixtures.path(fixture))
        let text = try #require(FactsJSON.encode(info))
        #expect(try readBack(text) == info)
        let encoded = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(info)) as? NSDictionary)
        let written = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
        #expect(written == encoded, "the same members with the same values as JSONEncoder writes")
    }

    @Test("every property set, every zone, strings that need escaping, numbers of every shape")
    func everything() throws {
        var info = MediaInfo(kind: .video, container: .mov, fileSize: 9_000_000_000)
        info.videoCodec = "hvc1"
        info.audioCodec = "aac"
        info.imageCodec = "jpeg"
        info.width = 3840
        info.height = 2160
        info.orientation = Orientation(rotation: .clockwise270, mirrored: true)
        info.exifOrientation = 5
        info.duration = 29.97
        info.frameRate = 1e-5
        info.bitDepth = 10
        info.hdr = .hlg
        info.audioChannels = 2
        info.audioSampleRate = 48_000
        info.location = GeoLocation(latitude: -33.8568, longitude: 151.2153, altitude: 1e300)
        info.make = "Apple \"quoted\" \\ back"
        info.model = "iPhone\n15\t\u{01}\u{1F}"
        info.software = "17.4 — ünïcode 📷"
        info.contentIdentifier = "5F3C-\u{7F}"
        info.capture.userComment = "Screenshot"
        info.capture.customRendered = 6
        info.capture.burstIdentifier = "burst"
        info.capture.hasDepth = true
        info.capture.hasAppleScreenshotChunk = true
        info.animated = true
        info.frameCount = 12
        info.alpha = true
        for zone in [MediaDate.Zone.offset(seconds: -18_000), .offset(seconds: 0), .utc, .unspecified] {
            info.creationDate = MediaDate(year: 2024, month: 5, day: 31, hour: 23, minute: 59, second: 60, zone: zone)
            let text = try #require(FactsJSON.encode(info))
            #expect(try readBack(text) == info, "\(text)")
        }
        info.duration = 30
        info.frameRate = -0.0
        #expect(try readBack(try #require(FactsJSON.encode(info))) == info)
    }

    @Test("a raw photo's preview is kept, and read back as JSONEncoder writes it")
    func rawPreview() throws {
        var info = MediaInfo(kind: .image, container: .raf, fileSize: 40_000)
        info.preview = ByteRange(offset: 148, length: 12_167)
        let text = try #require(FactsJSON.encode(info))
        #expect(try readBack(text) == info)
        let encoded = String(decoding: try JSONEncoder().encode(info), as: UTF8.self)
        #expect(try readBack(encoded) == (try readBack(text)))
    }

    @Test("a number that is not finite is left to JSONEncoder, as before")
    func notFinite() {
        var info = MediaInfo(kind: .video, container: .mp4, fileSize: 1)
        info.duration = .infinity
        #expect(FactsJSON.encode(info) == nil)
        #expect(ImportCatalog.factsJSON(info) == "{}")
        info.duration = nil
        info.location = GeoLocation(latitude: .nan, longitude: 0)
        #expect(FactsJSON.encode(info) == nil)
    }

    @Test("every property of MediaInfo is written: a new one fails here until FactsJSON writes it")
    func coversMediaInfo() {
        let properties = Mirror(reflecting: MediaInfo(kind: .image, container: .jpeg, fileSize: 0)).children
            .compactMap(\.label)
        #expect(properties == FactsJSON.keys)
        let capture = Mirror(reflecting: CaptureHints()).children.compactMap(\.label)
        #expect(capture == ["userComment", "customRendered", "burstIdentifier", "hasDepth", "hasAppleScreenshotChunk"])
        let date = MediaDate(year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0, zone: .utc)
        #expect(
            Mirror(reflecting: date).children.compactMap(\.label)
                == ["year", "month", "day", "hour", "minute", "second", "zone"])
        #expect(
            Mirror(reflecting: GeoLocation(latitude: 0, longitude: 0)).children.compactMap(\.label)
                == ["latitude", "longitude", "altitude"])
        #expect(Mirror(reflecting: Orientation.upright).children.compactMap(\.label) == ["rotation", "mirrored"])
    }
}
