import Pickup
import PickupTestSupport
import Testing

@Suite("Selection and filters")
struct SelectionTests {
    let probe = MediaProbe()

    @Test("a limit refuses the next item and says why")
    func limit() throws {
        var selection = Selection(policy: SelectionPolicy<String>(limit: 2, ordered: true))
        try selection.add("a")
        try selection.add("b")
        #expect(selection.isFull)
        #expect(throws: Selection<String>.Refusal.limitReached(limit: 2)) { try selection.add("c") }
        #expect(Selection<String>.Refusal.limitReached(limit: 2).description.contains("up to 2 items"))
        #expect(throws: Selection<String>.Refusal.alreadySelected) { try selection.add("a") }
        #expect(selection.items == ["a", "b"])
    }

    @Test("no limit with 0; one item is replaced with a limit of 1")
    func unlimitedAndSingle() throws {
        var many = Selection(policy: SelectionPolicy<Int>(limit: 0))
        for id in 0..<500 { try many.add(id) }
        #expect(many.count == 500 && !many.isFull)
        var single = Selection(policy: SelectionPolicy<Int>(limit: 1))
        try single.add(1)
        try single.add(2)
        #expect(single.items == [2])
    }

    @Test("toggle, remove, reorder and ordered badges")
    func editing() throws {
        var selection = Selection(policy: SelectionPolicy(limit: 5, ordered: true, preselected: ["x", "y", "x"]))
        #expect(selection.items == ["x", "y"])
        try selection.toggle("z")
        try selection.toggle("x")
        #expect(selection.items == ["y", "z"])
        selection.move(from: 1, to: 0)
        #expect(selection.items == ["z", "y"])
        #expect(selection.badge(for: "y") == 2)
        #expect(selection.remove("z") && !selection.remove("z"))
        selection.move(from: 0, to: 9)
        #expect(selection.items == ["y"])
        let unordered = Selection(policy: SelectionPolicy(limit: 5, ordered: false, preselected: ["x"]))
        #expect(unordered.badge(for: "x") == nil)
    }

    @Test("preselected items beyond the limit are dropped; a filtered item is refused")
    func preselectedAndFiltered() {
        var selection = Selection(policy: SelectionPolicy(limit: 2, preselected: [1, 2, 3]))
        #expect(selection.items == [1, 2])
        #expect(throws: Selection<Int>.Refusal.filteredOut) { try selection.add(4, matches: false) }
    }

    @Test("filters on real media: images, videos, slow motion, Live Photos")
    func filtersOnFixtures() throws {
        let movie = try probe.probe(path: try Fixtures.path(.movAppleKeys))
        let photo = try probe.probe(path: try Fixtures.path(.jpegEXIF))
        #expect(MediaFilter.videos.matches(movie) && !MediaFilter.videos.matches(photo))
        #expect(MediaFilter.images.matches(photo))
        #expect(MediaFilter.livePhotos.matches(movie) && !MediaFilter.livePhotos.matches(photo))
        #expect(!MediaFilter.slomoVideos.matches(movie))
        var fast = movie
        fast.frameRate = 240
        #expect(MediaFilter.slomoVideos.matches(fast))
        #expect(MediaFilter.any(of: [.images, .slomoVideos]).matches(photo))
        #expect(!MediaFilter.all(of: [.videos, .slomoVideos]).matches(movie))
        #expect(MediaFilter.not(.screenshots).matches(photo))
    }

    @Test("screenshots: iOS's UserComment, or Apple's iDOT chunk in a PNG without a camera")
    func screenshots() throws {
        var tiff = TIFFBuilder()
        tiff.exif = [(0x9286, .undefined(Array("ASCII\0\0\0Screenshot".utf8)))]
        let shot = try probe.probe(bytes: TIFFBuilder.jpeg(width: 1179, height: 2556, exif: tiff.build()))
        #expect(shot.capture.userComment == "Screenshot")
        #expect(MediaFilter.screenshots.matches(shot))
        tiff.ifd0 = [(0x010F, .ascii("Apple"))]
        let camera = try probe.probe(bytes: TIFFBuilder.jpeg(width: 1179, height: 2556, exif: tiff.build()))
        #expect(!MediaFilter.screenshots.matches(camera))

        var png = try Fixtures.bytes(.pngRGBA)
        let iend = png.count - 12
        png.insert(contentsOf: [0, 0, 0, 4] + Array("iDOT".utf8) + [0, 0, 0, 2, 0, 0, 0, 0], at: iend)
        let macShot = try probe.probe(bytes: png)
        #expect(macShot.capture.hasAppleScreenshotChunk)
        #expect(MediaFilter.screenshots.matches(macShot))
        #expect(!MediaFilter.screenshots.matches(try probe.probe(path: try Fixtures.path(.pngRGBA))))
    }

    @Test("bursts, panoramas and depth from their metadata")
    func captureKinds() throws {
        var tiff = TIFFBuilder()
        tiff.ifd0 = [(0x010F, .ascii("Apple"))]
        tiff.exif = [
            (0xA401, .short(6)),
            (0x927C, .undefined(TIFFBuilder.appleMakerNote(contentIdentifier: nil, burstIdentifier: "B1-22"))),
        ]
        let info = try probe.probe(bytes: TIFFBuilder.jpeg(width: 4000, height: 3000, exif: tiff.build()))
        #expect(info.capture.burstIdentifier == "B1-22")
        #expect(MediaFilter.bursts.matches(info))
        #expect(MediaFilter.panoramas.matches(info))
        tiff.exif = []
        let wide = try probe.probe(bytes: TIFFBuilder.jpeg(width: 12000, height: 3000, exif: tiff.build()))
        #expect(MediaFilter.panoramas.matches(wide))
        let plain = try probe.probe(bytes: TIFFBuilder.jpeg(width: 4000, height: 3000, exif: tiff.build()))
        #expect(!MediaFilter.panoramas.matches(plain) && !MediaFilter.bursts.matches(plain))
        #expect(!MediaFilter.depthPhotos.matches(plain))
    }

    @Test(
        "the CLI's filter syntax",
        arguments: [
            ("videos", MediaFilter.videos),
            ("images,livePhotos", .any(of: [.images, .livePhotos])),
            ("!screenshots", .not(.screenshots)),
            ("SLOMOVIDEOS", .slomoVideos),
            // Exclusions apply to the whole selection, wherever they stand (the help's example).
            ("images,!screenshots", .all(of: [.images, .not(.screenshots)])),
            ("!screenshots,images", .all(of: [.images, .not(.screenshots)])),
            (
                "videos,images,!slomoVideos,!screenRecordings",
                .all(of: [.any(of: [.videos, .images]), .not(.any(of: [.slomoVideos, .screenRecordings]))])
            ),
        ])
    func parsing(_ text: String, _ filter: MediaFilter) throws {
        #expect(try MediaFilter(parsing: text) == filter)
    }

    @Test("unknown filter names are refused with the list of known ones")
    func badFilter() {
        do {
            _ = try MediaFilter(parsing: "selfies")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("unknown filter 'selfies'"))
            #expect(error.description.contains("slomoVideos"))
        }
    }
}
