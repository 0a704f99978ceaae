import Foundation
import Observation
import Pickup
import PickupFFmpeg
import PickupTestSupport
import Testing

/// The selection grid's thumbnails as `PickedThumbnails` makes them on iPhone, run here over
/// FFmpeg's thumbnailer on real files: SwiftUI runs a tile's `task` each time the tile appears
/// and cancels it when the tile goes (`View.task(id:priority:_:)`: "SwiftUI will automatically
/// cancel the task at some point after the view disappears"), which these tests do by hand.
@Suite("grid thumbnails: made once, a few at a time, not lost when a tile goes")
@MainActor
struct ThumbnailMakerTests {
    /// FFmpeg's thumbnailer, counting the renders, how many run at once, and slowed when asked.
    actor CountingRenderer {
        let request = ThumbnailRequest(size: PixelSize(width: 64, height: 64), mode: .fill, format: .png)
        private(set) var renders: [String] = []
        private(set) var running = 0
        private(set) var mostAtOnce = 0
        let delay: UInt64

        init(delay: UInt64 = 0) { self.delay = delay }

        func render(_ path: String) async -> RenderedImage? {
            renders.append(path)
            running += 1
            mostAtOnce = max(mostAtOnce, running)
            defer { running -= 1 }
            if delay > 0 { try? await Task.sleep(nanoseconds: delay) }
            // A render that honours its task's cancellation stops with nothing, as Apple's async
            // APIs do (they throw `CancellationError`).
            if Task.isCancelled { return nil }
            return try? await FFmpegThumbnailer().thumbnail(of: path, request)
        }
    }

    func maker(_ renderer: CountingRenderer) -> ThumbnailMaker<RenderedImage> {
        ThumbnailMaker(capacity: 10) { path in await renderer.render(path) }
    }

    /// Waits (briefly) until `done` holds.
    func settle(_ done: () -> Bool) async {
        for _ in 0..<1000 where !done() { try? await Task.sleep(nanoseconds: 5_000_000) }
    }

    @Test("a photo and a video, each made once however often its tile appears")
    func madeOnce() async throws {
        let renderer = CountingRenderer()
        let thumbnails = maker(renderer)
        let photo = try Fixtures.path(.jpegOrientation6)
        let video = try Fixtures.path(.mp4Rotated90)
        await withTaskGroup(of: Void.self) { group in
            for file in [photo, video, photo, video, photo] { group.addTask { await thumbnails.make(ofFile: file) } }
        }
        await thumbnails.make(ofFile: photo)  // the tile scrolled back to
        #expect(await renderer.renders.sorted() == [photo, video].sorted())
        let image = try #require(thumbnails.image(ofFile: photo))
        #expect(image.size == PixelSize(width: 64, height: 64) && image.format == .png)
        #expect(thumbnails.image(ofFile: video) != nil)
    }

    @Test("a tile that goes while its image is made: the image still arrives, and the tile back shows it")
    func tileGoesWhileMade() async throws {
        let renderer = CountingRenderer(delay: 200_000_000)
        let thumbnails = maker(renderer)
        let photo = try Fixtures.path(.jpegPlain)
        let first = Task { await thumbnails.make(ofFile: photo) }
        while await renderer.renders.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
        first.cancel()
        // The tile comes back while the image is made: nothing new starts, and it is shown when there.
        await thumbnails.make(ofFile: photo)
        await first.value
        await settle { thumbnails.image(ofFile: photo) != nil }
        #expect(thumbnails.image(ofFile: photo) != nil, "a cancelled tile's render is not a failure")
        #expect(await renderer.renders == [photo])
    }

    @Test("a fast scroll: two made at once, every tile's image made")
    func fewAtOnce() async throws {
        let renderer = CountingRenderer(delay: 50_000_000)
        let thumbnails = maker(renderer)
        let files = try [Fixture.jpegPlain, .jpegOrientation6, .pngRGBA, .mp4Rotated90, .heic, .webpLossy]
            .map { try Fixtures.path($0) }
        await withTaskGroup(of: Void.self) { group in
            for file in files { group.addTask { await thumbnails.make(ofFile: file) } }
        }
        #expect((1...2).contains(await renderer.mostAtOnce), "two at once at the most")
        #expect(files.allSatisfy { thumbnails.image(ofFile: $0) != nil })
        #expect(thumbnails.count == files.count)
    }

    /// Whether reading `read` (as a tile's body does) is invalidated by `change`.
    func redraws(_ read: () -> Void, when change: () async -> Void) async -> Bool {
        let fired = LockedValue(false)
        withObservationTracking(read) { fired.withValue { $0 = true } }
        await change()
        return fired.current
    }

    @Test("a thumbnail that arrives redraws the tiles showing its file, not the whole grid")
    func redrawsItsTileOnly() async throws {
        let thumbnails = maker(CountingRenderer())
        let photo = try Fixtures.path(.jpegPlain)
        let video = try Fixtures.path(.mp4Rotated90)
        let other = await redraws({ _ = thumbnails.image(ofFile: photo) }) { await thumbnails.make(ofFile: video) }
        #expect(!other, "another file's thumbnail leaves this tile alone")
        let own = await redraws({ _ = thumbnails.image(ofFile: photo) }) { await thumbnails.make(ofFile: photo) }
        #expect(own, "its own thumbnail redraws it")
        #expect(thumbnails.image(ofFile: photo) != nil && thumbnails.image(ofFile: video) != nil)
        let cleared = await redraws({ _ = thumbnails.image(ofFile: video) }) { thumbnails.removeAll() }
        #expect(cleared, "removeAll redraws every tile")
        #expect(thumbnails.image(ofFile: video) == nil)
    }

    @Test("a file with no picture is tried once; removeAll forgets it and starts the tiles again")
    func failureOnce() async throws {
        let renderer = CountingRenderer()
        let thumbnails = maker(renderer)
        let audio = try Fixtures.path(.m4aAudio)
        await thumbnails.make(ofFile: audio)
        await thumbnails.make(ofFile: audio)
        #expect(thumbnails.image(ofFile: audio) == nil)
        #expect(await renderer.renders.count == 1)
        #expect(thumbnails.generation == 0)
        thumbnails.removeAll()
        #expect(thumbnails.generation == 1, "each tile's task id changes: the tiles on screen ask again")
        await thumbnails.make(ofFile: audio)
        #expect(await renderer.renders.count == 2)
    }
}
