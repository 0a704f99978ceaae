import Pickup
import Testing

@Suite("Media values")
struct MediaValueTests {
    @Test(
        "dates keep the zone the file gives",
        arguments: [
            ("2024-05-06T10:20:30+0900", "2024-05-06T10:20:30+09:00"),
            ("2024-05-06T10:20:30+09:00", "2024-05-06T10:20:30+09:00"),
            ("2019-07-24T11:25:40-0330", "2019-07-24T11:25:40-03:30"),
            ("2023-12-24T18:00:00Z", "2023-12-24T18:00:00Z"),
            ("2023-12-24T18:00:00.123Z", "2023-12-24T18:00:00Z"),
            ("2011:01:13 14:33:39", "2011-01-13T14:33:39"),
        ])
    func parseDates(_ text: String, _ iso: String) throws {
        let date = try #require(MediaDate(parsing: text))
        #expect(date.iso8601 == iso)
    }

    @Test(
        "nonsense dates are refused",
        arguments: ["", "2024", "0000:00:00 00:00:00", "2024-13-01T00:00:00", "    :  :     :  :  "])
    func badDates(_ text: String) {
        #expect(MediaDate(parsing: text) == nil)
    }

    @Test("an instant is the same whatever the zone")
    func instants() throws {
        let tokyo = try #require(MediaDate(parsing: "2024-05-06T10:20:30+09:00"))
        let utc = try #require(MediaDate(parsing: "2024-05-06T01:20:30Z"))
        #expect(tokyo.secondsSince1970 == utc.secondsSince1970)
        #expect(utc.secondsSince1970 == 1_714_958_430)
        #expect(MediaDate(utcSecondsSince1970: 1_714_958_430) == utc)
        #expect(MediaDate(parsing: "2011:01:13 14:33:39")?.secondsSince1970 == nil)
    }

    @Test(
        "ISO 6709 places",
        arguments: [
            ("+35.6586+139.7454+040.000/", 35.6586, 139.7454, 40.0 as Double?),
            ("-33.8568+151.2153/", -33.8568, 151.2153, nil),
            ("+37.7749-122.4194/", 37.7749, -122.4194, nil),
            ("+00.0000+000.0000/", 0, 0, nil),
            ("+48.8584+002.2945-012.5CRSWGS_84/", 48.8584, 2.2945, -12.5),
        ])
    func iso6709(_ text: String, _ latitude: Double, _ longitude: Double, _ altitude: Double?) throws {
        let place = try #require(GeoLocation(iso6709: text))
        #expect(place.latitude == latitude && place.longitude == longitude && place.altitude == altitude)
    }

    @Test(
        "places off the Earth or garbled are refused", arguments: ["+95.0+010.0/", "+10.0+190.0/", "hello", "+1/", ""])
    func badPlaces(_ text: String) {
        #expect(GeoLocation(iso6709: text) == nil)
    }

    @Test(
        "duration labels as a picker shows them",
        arguments: [
            (0.0, "0:00"), (0.4, "0:00"), (0.5, "0:01"), (7, "0:07"), (59.6, "1:00"), (65, "1:05"),
            (600, "10:00"), (3599.4, "59:59"), (3600, "1:00:00"), (3723, "1:02:03"), (36_000, "10:00:00"),
            (-5, "0:00"), (.nan, "0:00"), (.infinity, "0:00"),
        ])
    func durationLabels(_ seconds: Double, _ label: String) {
        #expect(DurationLabel.string(seconds: seconds) == label)
    }

    @Test("rotations add up and swap dimensions on quarter turns")
    func rotations() {
        #expect(Rotation.clockwise90.adding(.clockwise270) == Rotation.none)
        #expect(Rotation.upsideDown.adding(.clockwise270) == .clockwise90)
        #expect(Rotation(nearestDegrees: -90) == .clockwise270)
        #expect(Rotation(nearestDegrees: 450) == .clockwise90)
        #expect(Rotation.clockwise90.swapsDimensions && !Rotation.upsideDown.swapsDimensions)
        #expect(Orientation(exifValue: 0) == nil && Orientation(exifValue: 9) == nil)
    }

    @Test("Live Photo pairs: a still and a movie with one identifier")
    func pairing() {
        func info(_ kind: MediaKind, _ id: String?) -> MediaInfo {
            var info = MediaInfo(kind: kind, container: kind == .image ? .heic : .mov, fileSize: 1)
            info.contentIdentifier = id
            return info
        }
        let items: [(item: String, info: MediaInfo)] = [
            ("IMG_1.MOV", info(.video, "A")), ("IMG_2.HEIC", info(.image, "B")), ("IMG_1.HEIC", info(.image, "A")),
            ("IMG_3.HEIC", info(.image, nil)), ("IMG_4.HEIC", info(.image, "C")),
            ("IMG_1 copy.HEIC", info(.image, "A")),
            ("IMG_4.MOV", info(.video, "C")),
        ]
        let pairs = LivePhotoPairing.pairs(in: items)
        #expect(pairs.map(\.still) == ["IMG_1.HEIC", "IMG_4.HEIC"])
        #expect(pairs.map(\.movie) == ["IMG_1.MOV", "IMG_4.MOV"])
        #expect(pairs.map(\.contentIdentifier) == ["A", "C"])
    }

    @Test("places come out without the noise of degrees, minutes and seconds turned into decimals")
    func placeDigits() {
        var info = MediaInfo(kind: .image, container: .jpeg, fileSize: 1)
        // 2° 17' 40.2" E and 65° 3' 20.08" N, as EXIF's rationals give them.
        info.location = GeoLocation(
            latitude: 65 + 3.0 / 60 + 20.08 / 3600, longitude: 2 + 17.0 / 60 + 40.2 / 3600, altitude: 52.30000000000001)
        #expect(info.location?.longitude == 2.2944999999999998, "the raw value keeps every digit")
        let facts = Dictionary(info.facts.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        #expect(facts["longitude"] == .double(2.2945))
        #expect(facts["latitude"] == .double(65.0555778))
        #expect(facts["altitude"] == .double(52.3))
    }

    @Test("errors say what, where and what to do")
    func errorText() {
        let error = ProbeError(
            .truncated, "box claims 900 bytes but the file ends after 20", offset: 40, element: "box 'mdat'",
            path: "a.mp4")
        #expect(
            error.description
                == "a.mp4: box claims 900 bytes but the file ends after 20 (in box 'mdat', at byte 40). The file is cut short: copy or download it again in full."
        )
    }

    @Test("facts use the manifest's names and leave out what is absent")
    func facts() {
        var info = MediaInfo(kind: .video, container: .mov, fileSize: 10)
        info.width = 1920
        info.height = 1080
        info.orientation = Orientation(rotation: .clockwise90)
        info.duration = 1.23456
        let facts = Dictionary(uniqueKeysWithValues: info.facts.map { ($0.name, $0.value) })
        #expect(facts["displayWidth"] == .int(1080))
        #expect(facts["rotation"] == .int(90))
        #expect(facts["duration"] == .double(1.235))
        #expect(facts["latitude"] == nil && facts["animated"] == nil)
    }
}
