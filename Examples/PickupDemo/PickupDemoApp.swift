#if canImport(SwiftUI) && canImport(PhotosUI) && canImport(UIKit)
    import Pickup
    import PickupImport
    import PickupUI
    import PickupUpload
    import PhotosUI
    import SwiftUI
    import UIKit

    /// The demo app: every screen the seed apps built by hand, on Pickup.
    /// Open `Examples/PickupDemo/PickupDemo.xcodeproj` in Xcode (it uses the package from this
    /// folder); its Info.plist has the camera and microphone keys and `PickupTusEndpoint`.
    @main
    @MainActor
    struct PickupDemoApp: App {
        @UIApplicationDelegateAdaptor(DemoAppDelegate.self) private var delegate
        @Environment(\.scenePhase) private var phase
        @State private var demo = Demo.shared

        var body: some Scene {
            WindowGroup {
                TabView {
                    CameraMovieScreen(demo: demo).tabItem { Label("Camera", systemImage: "video") }
                    PickScreen(demo: demo).tabItem { Label("Pick", systemImage: "photo.on.rectangle") }
                    UploadsScreen(demo: demo).tabItem { Label("Uploads", systemImage: "icloud.and.arrow.up") }
                    ProfileScreen(demo: demo).tabItem { Label("Profile", systemImage: "person.crop.circle") }
                }
                .task { await demo.start() }
            }
            .onChange(of: phase) { _, phase in
                // Leaving the screen, every upload goes to the background session; back, to the queue.
                guard let uploads = demo.uploads, let background = demo.background else { return }
                switch phase {
                case .background: Task { await background.handOff(uploads.queue) }
                case .active: Task { await background.takeBack(uploads.queue) }
                default: break
                }
            }
        }
    }

    /// Passes iOS's relaunch for the background session's events on to it.
    final class DemoAppDelegate: NSObject, UIApplicationDelegate {
        func application(
            _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
            completionHandler: @escaping () -> Void
        ) {
            MainActor.assumeIsolated {
                // No session (the journal could not open): iOS still waits for the handler.
                guard let background = Demo.shared.background else { return completionHandler() }
                background.reattach(identifier: identifier, completionHandler: completionHandler)
            }
        }
    }

    /// The app's library, upload queue and their models, in Application Support
    /// (`PickupStorage.standard`, excluded from backup): one journal for the queue and the
    /// background session.
    @MainActor
    @Observable
    final class Demo {
        /// The one model, made at launch: the background session must exist when iOS relaunches
        /// the app for its events.
        static let shared = Demo()

        let library: ImportSession?
        let uploads: UploadQueueModel?
        let background: BackgroundUploads?
        let loader = PickedItemLoader()
        var problem: String?
        /// The tus server uploads go to: the app's Info.plist key `PickupTusEndpoint`
        /// (an `https://` URL ending in the server's creation path, such as `/files/`).
        let endpoint: URL? = (Bundle.main.object(forInfoDictionaryKey: "PickupTusEndpoint") as? String)
            .flatMap(URL.init(string:))
            .flatMap { ["https", "http"].contains($0.scheme?.lowercased()) ? $0 : nil }

        init() {
            var library: ImportSession?
            var uploads: UploadQueueModel?
            var background: BackgroundUploads?
            do {
                let storage = PickupStorage.standard
                let session = try ImportSession.library(in: storage, options: ImportOptions(concurrency: 2))
                PickedMediaStore.shared.use(session)
                library = session
                let uploader = Uploader(journal: try UploadJournal(path: storage.journal))
                uploads = UploadQueueModel(
                    queue: UploadQueue(uploader: uploader, concurrency: 2, background: UIKitBackgroundTime()))
                background = BackgroundUploads(uploader: uploader, storage: storage)
            } catch {
                problem = "\(error)"
            }
            self.library = library
            self.uploads = uploads
            self.background = background
        }

        /// Starts the queue and brings back the uploads an earlier run left unfinished (those the
        /// background session still sends show as in the background).
        func start() async {
            guard let uploads, let background else { return }
            uploads.start()
            do {
                try await background.restore(into: uploads.queue)
                // Launched in the background for the session's events: the background session sends.
                if UIApplication.shared.applicationState == .background { await background.handOff(uploads.queue) }
            } catch {
                problem = error.message
            }
        }

        /// Uploads what is loaded and not sent yet, in the order the person picked it (never an
        /// item deselected; one deselected once queued keeps its file for its upload).
        func uploadPicked() {
            guard let uploads, let endpoint, let library else { return }
            // Each item's files: a Live Photo's still and its movie (its .AAE edits stay home).
            let jobs = loader.take().flatMap { $0.filesToSend(from: library) }.map { path, type in
                UploadQueue.Job.upload(path: path, to: .tus(endpoint: endpoint), type: type)
            }
            Task {
                for job in jobs { await uploads.add(job) }
            }
        }
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
                    case .mustAsk: Task { if await CameraPicker.requestAccess(for: options) { recording = true } }
                    case .unavailable(let text), .denied(let text): message = text
                    }
                }
                if let message { Text(message).foregroundStyle(.secondary) }
            }
            .fullScreenCover(isPresented: $recording) {
                CameraPicker(options: options) { result in
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
    @MainActor
    struct PickScreen: View {
        let demo: Demo
        @State private var picked: [PhotosPickerItem] = []
        @State private var thumbnails = PickedThumbnails()

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
                        loader: demo.loader, thumbnails: thumbnails,
                        onRemove: { key in picked.removeAll { demo.loader.key(of: $0) == key } })
                    if demo.endpoint != nil {
                        Button("Upload \(demo.loader.notTaken.count) Items") { demo.uploadPicked() }
                            .disabled(demo.loader.notTaken.isEmpty)
                    } else {
                        Text("Set PickupTusEndpoint in the app's Info.plist to upload.")
                            .foregroundStyle(.secondary)
                    }
                    if let problem = demo.problem { Text(problem).foregroundStyle(.red) }
                }
                .navigationTitle("Pick")
                .onChange(of: picked, initial: true) { _, items in demo.loader.load(items) }
            }
        }
    }

    /// The upload queue, with progress, pause, resume and retry (a `List` of its own: never
    /// inside a `ScrollView`, where it would collapse to nothing).
    struct UploadsScreen: View {
        let demo: Demo

        var body: some View {
            NavigationStack {
                Group {
                    if let uploads = demo.uploads {
                        UploadQueueView(model: uploads)
                    } else {
                        Text(demo.problem ?? "The upload journal could not be opened.")
                    }
                }
                .navigationTitle("Uploads")
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
