import Pickup
import Testing

/// What the pickers and views decide, tested here because SwiftUI does not run on Linux.
@Suite("presentation decisions")
struct PresentationTests {
    @Test("MediaFilter maps onto PHPickerFilter's vocabulary; depth photos need a check after loading")
    func filterPlan() {
        #expect(PickerFilterPlan(nil).node == nil)
        let plain = PickerFilterPlan(.any(of: [.images, .videos]))
        #expect(plain.node == .any([.images, .videos]) && !plain.needsCheckAfterLoading && plain.minimumIOS == 14)
        let noScreens = PickerFilterPlan(.all(of: [.images, .not(.screenshots)]))
        #expect(noScreens.node == .all([.images, .not(.screenshots)]) && noScreens.minimumIOS == 15)
        #expect(PickerFilterPlan(.bursts).minimumIOS == 16)
        let depth = PickerFilterPlan(.depthPhotos)
        #expect(depth.node == .images && depth.needsCheckAfterLoading)
        let notDepth = PickerFilterPlan(.not(.depthPhotos))
        #expect(notDepth.node == .any([.images, .videos]) && notDepth.needsCheckAfterLoading)
    }

    @Test("tiles: duration badges, order badges, states and what VoiceOver says, in selection order")
    func tiles() throws {
        var selection = Selection(policy: SelectionPolicy<String>(limit: 3, ordered: true))
        try selection.add("b")
        try selection.add("a")
        var movie = MediaInfo(kind: .video, container: .mov, fileSize: 1)
        movie.duration = 65.4
        let photo = MediaInfo(kind: .image, container: .heic, fileSize: 1)
        let tiles = selection.tiles(
            facts: ["a": movie, "b": photo], states: ["a": .ready, "b": .loading(fraction: 0.42)])
        #expect(tiles.map(\.id) == ["b", "a"])
        #expect(tiles[1].durationBadge == "1:05" && tiles[0].durationBadge == nil)
        #expect(tiles.map(\.orderBadge) == [1, 2])
        #expect(tiles[1].accessibilityLabel == "Video, 1 minute, 5 seconds, selected 2 of 2")
        #expect(tiles[0].accessibilityLabel == "Photo, selected 1 of 2, loading, 42 percent")
        let failed = selection.tiles(facts: [:], states: ["a": .failed(message: "iCloud is offline")])
        #expect(
            failed[1].accessibilityActions == ["Remove", "Try Again"] && failed[0].state == .loading(fraction: nil))
        #expect(PickedItemTile<String>.spokenDuration(3_601) == "1 hour, 1 second")
        // A header can say a movie lasts 2^62 s; a duration that is no number says none.
        #expect(PickedItemTile<String>.spokenDuration(0x1p62) == "99999 hours, 59 minutes, 59 seconds")
        #expect(PickedItemTile<String>.spokenDuration(.nan) == "0 seconds")
        let odd = selection.tiles(facts: [:], states: ["b": .loading(fraction: .infinity)])
        #expect(odd[0].accessibilityLabel == "Photo, selected 1 of 2, loading, 0 percent")
        var unordered = Selection(policy: SelectionPolicy<String>(limit: 0, ordered: false))
        try unordered.add("x")
        #expect(unordered.tiles(facts: [:], states: [:]).first?.orderBadge == nil)
    }

    @Test("the ordered loader delivers in selection order whatever finishes first, failures included")
    func orderedLoader() async {
        let loader = OrderedLoader<Int, String>(concurrency: 3) { number in
            // Later items finish sooner.
            try? await Task.sleep(nanoseconds: UInt64(60 - number * 10) * 1_000_000)
            return number == 2 ? .failure(.init("item 2 is gone")) : .success("item \(number)")
        }
        var seen: [(Int, String)] = []
        for await (index, result) in loader.results(for: [0, 1, 2, 3, 4]) {
            switch result {
            case .success(let text): seen.append((index, text))
            case .failure(let failure): seen.append((index, failure.message))
            }
        }
        #expect(seen.map(\.0) == [0, 1, 2, 3, 4])
        #expect(seen.map(\.1) == ["item 0", "item 1", "item 2 is gone", "item 3", "item 4"])
    }

    @Test("the camera is never asked for without its usage description: the system would end the app")
    func cameraUsageKeys() {
        let both = ["public.image", "public.movie"]
        // Apple's documentation of NSCameraUsageDescription: "This key is required if your app
        // uses APIs that access the device's camera"; without it the system ends the app.
        for permission in [CameraAvailability.Permission.notDetermined, .authorized] {
            let photo = CameraAvailability.decide(
                sourceAvailable: true, availableMediaTypes: both, permission: permission, options: CameraOptions(),
                declaredKeys: [])
            #expect(
                photo
                    == .unavailable("This app cannot use the camera (its Info.plist has no NSCameraUsageDescription)."))
        }
        let video = CameraAvailability.decide(
            sourceAvailable: true, availableMediaTypes: both, permission: .notDetermined,
            options: CameraOptions(mode: .video), declaredKeys: ["NSCameraUsageDescription"])
        #expect(
            video == .unavailable("This app cannot record video (its Info.plist has no NSMicrophoneUsageDescription)."))
        #expect(
            CameraAvailability.decide(
                sourceAvailable: true, availableMediaTypes: both, permission: .notDetermined, options: CameraOptions(),
                declaredKeys: ["NSCameraUsageDescription"]) == .mustAsk, "a photo needs no microphone")
    }

    @Test("the camera: no camera, no video, not asked, denied, restricted, no microphone, ready")
    func camera() {
        let video = CameraOptions(mode: .video)
        let both = ["public.image", "public.movie"]
        #expect(
            CameraAvailability.decide(
                sourceAvailable: false, availableMediaTypes: [], permission: .authorized, options: video)
                == .unavailable("This device has no camera."))
        #expect(
            CameraAvailability.decide(
                sourceAvailable: true, availableMediaTypes: ["public.image"], permission: .authorized, options: video)
                == .unavailable("This camera cannot record video."))
        #expect(
            CameraAvailability.decide(
                sourceAvailable: true, availableMediaTypes: both, permission: .notDetermined, options: video)
                == .mustAsk)
        guard
            case .denied(let message) = CameraAvailability.decide(
                sourceAvailable: true, availableMediaTypes: both, permission: .denied, options: video)
        else {
            Issue.record("denied")
            return
        }
        #expect(message.contains("Settings"))
        #expect(
            CameraAvailability.decide(
                sourceAvailable: true, availableMediaTypes: both, permission: .authorized, options: video,
                needsMicrophone: true, microphone: .denied) != .ready)
        #expect(
            CameraAvailability.decide(
                sourceAvailable: true, availableMediaTypes: both, permission: .authorized, options: video)
                == .ready)
        #expect(InfoPlistKeys.all.map(\.key).contains("NSCameraUsageDescription"))
        #expect(CameraOptions(maximumDuration: 0).maximumDuration == 1)
    }

    @Test("byte counts as Photos shows them")
    func bytes() {
        #expect(ByteCountLabel.string(912) == "912 B")
        #expect(ByteCountLabel.string(22_400) == "22 KB")
        #expect(ByteCountLabel.string(1_449_000) == "1.4 MB")
        #expect(ByteCountLabel.string(999_600) == "1.0 MB")
    }
}
