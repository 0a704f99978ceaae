#if canImport(SwiftUI) && canImport(PhotosUI) && canImport(UIKit)
    import Pickup
    import PickupImport
    import PickupUI
    import PickupUpload
    import PhotosUI
    import SwiftUI
    import UIKit

    /// The demo app: every screen the seed apps built by hand, on Pickup.
    /// Add it to an Xcode iOS 17 app target with the Pickup package, and the Info.plist keys
    /// NSCameraUsageDescription, NSMicrophoneUsageDescription, NSPhotoLibraryUsageDescription.
    @main
    @MainActor
    struct PickupDemoApp: App {
        @State private var demo = Demo()

        var body: some Scene {
            WindowGroup {
                TabView {
                    CameraMovieScreen(demo: demo).tabItem { Label("Camera", systemImage: "video") }
                    UploadScreen(demo: demo).tabItem { Label("Upload", systemImage: "icloud.and.arrow.up") }
                    ProfileScreen(demo: demo).tabItem { Label("Profile", systemImage: "person.crop.circle") }
                }
                .task { demo.start() }
            }
        }
    }

    /// The app's library, upload queue and their models.
    @MainActor
    @Observable
    final class Demo {
        let library: ImportSession?
        let uploads: UploadQueueModel?
        let loader = PickedItemLoader()
        var problem: String?
        /// The tus server uploads go to: the app's Info.plist key `PickupTusEndpoint`
        /// (an `https://` URL ending in the server's creation path, such as `/files/`).
        let endpoint: URL? = (Bundle.main.object(forInfoDictionaryKey: "PickupTusEndpoint") as? String)
            .flatMap(URL.init(string:))
            .flatMap { ["https", "http"].contains($0.scheme?.lowercased()) ? $0 : nil }

        init() {
            let documents = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
            var library: ImportSession?
            var uploads: UploadQueueModel?
            do {
                let session = try ImportSession(
                    destination: documents.appendingPathComponent("Picked").path,
                    options: ImportOptions(concurrency: 2))
                PickedMediaStore.shared.use(session)
                library = session
                let journal = try UploadJournal(path: documents.appendingPathComponent("uploads.sqlite").path)
                uploads = UploadQueueModel(queue: UploadQueue(uploader: Uploader(journal: journal), concurrency: 2))
            } catch {
                problem = "\(error)"
            }
            self.library = library
            self.uploads = uploads
        }

        func start() { uploads?.start() }
    }

    /// Record a movie with the camera, then play it.
    struct CameraMovieScreen: View {
        let demo: Demo
        @State private var recording = false
        @State private var movie: URL?
        @State private var message: String?
        private let options = CameraOptions(mode: .video, quality: .hd1280x720, maximumDuration: 60)

        var body: some View {
            VStack(spacing: 16) {
                Button("Record a Movie") {
                    switch CameraPicker.availability(for: options) {
                    case .ready: recording = true
                    case .mustAsk: Task { if await CameraPicker.requestAccess() { recording = true } }
                    case .unavailable(let text), .denied(let text): message = text
                    }
                }
                if let message { Text(message).foregroundStyle(.secondary) }
            }
            .fullScreenCover(isPresented: $recording) {
                CameraPicker(options: options) { result in
                    recording = false
                    switch result {
                    case .success(let item):
                        if let library = demo.library, let file = item.primary { movie = library.url(of: file) }
                    case .failure(let error): message = error.message
                    case nil: break
                    }
                }
            }
            .fullScreenCover(item: $movie) { url in PlayerView(url: url) { movie = nil } }
        }
    }

    /// Pick several photos and videos, see them with durations and order, remove some, upload.
    struct UploadScreen: View {
        let demo: Demo
        @State private var picked: [PhotosPickerItem] = []
        @State private var selection = Selection(policy: SelectionPolicy<String>(limit: 10, ordered: true))

        var body: some View {
            NavigationStack {
                ScrollView {
                    LibraryPicker(
                        selection: $picked,
                        options: LibraryPickerOptions(filter: .any(of: [.images, .videos]), limit: 10)
                    ) {
                        Label("Choose Photos and Videos", systemImage: "photo.on.rectangle")
                    }
                    SelectionGridView(
                        tiles: selection.tiles(
                            facts: demo.loader.items.mapValues(\.info), states: demo.loader.states),
                        thumbnail: { _ in nil },
                        onRemove: { id in
                            _ = selection.remove(id)
                            picked.removeAll { $0.itemIdentifier == id }
                            demo.loader.remove(id)
                        })
                    if let uploads = demo.uploads, let library = demo.library {
                        if let endpoint = demo.endpoint {
                            Button("Upload") {
                                for item in demo.loader.items.values {
                                    guard let file = item.primary else { continue }
                                    let job = UploadQueue.Job.upload(
                                        path: library.path(of: file), to: .tus(endpoint: endpoint),
                                        type: item.info.container.mimeType)
                                    Task { await uploads.add(job) }
                                }
                            }
                        } else {
                            Text("Set PickupTusEndpoint in the app's Info.plist to upload.")
                                .foregroundStyle(.secondary)
                        }
                        UploadQueueView(model: uploads)
                    }
                }
                .navigationTitle("Upload")
                .onChange(of: picked) { _, items in
                    for (index, item) in items.enumerated() {
                        try? selection.add(item.itemIdentifier ?? "#\(index)")
                    }
                    demo.loader.load(items)
                }
            }
        }
    }

    /// The profile photo.
    struct ProfileScreen: View {
        let demo: Demo
        @State private var avatar: UIImage?

        var body: some View {
            AvatarPicker(image: avatar) { item in
                if let library = demo.library, let file = item.primary {
                    avatar = UIImage(contentsOfFile: library.path(of: file))
                }
            }
        }
    }

    extension URL: @retroactive Identifiable {
        public var id: String { absoluteString }
    }
#endif
