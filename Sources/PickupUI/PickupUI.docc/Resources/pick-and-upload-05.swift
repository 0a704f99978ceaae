import PhotosUI
import PickupImport
import PickupUI
import PickupUpload
import SwiftUI
import UIKit

/// The app's library and uploads, made once at launch.
@MainActor
@Observable
final class AppModel {
    static let shared = AppModel()

    let library: ImportSession?
    let uploads: UploadQueueModel?
    let background: BackgroundUploads?
    let loader = PickedItemLoader()
    var problem: String?
    @ObservationIgnored private var sent: [Int: ImportedItem] = [:]

    /// Your tus server's creation URL.
    let endpoint = URL(string: "https://uploads.example.com/files/")

    init() {
        var library: ImportSession?
        var uploads: UploadQueueModel?
        var background: BackgroundUploads?
        do {
            // Application Support/Pickup/Library, not backed up
            let session = try ImportSession.library()
            PickedMediaStore.shared.use(session)
            library = session
            // the same journal for the queue and the background session
            let journal = try UploadJournal()
            var options = UploadOptions()
            options.headers = ["Authorization": "Bearer YOUR-TOKEN"]
            let uploader = Uploader(journal: journal, options: options)
            uploads = UploadQueueModel(
                queue: UploadQueue(
                    uploader: uploader, concurrency: 2,
                    background: UIKitBackgroundTime()))
            // at launch, with the identifier it had before
            background = BackgroundUploads(uploader: uploader)
        } catch {
            problem = "\(error)"
        }
        self.library = library
        self.uploads = uploads
        self.background = background
    }

    /// Follows the queue, and brings back what an earlier run left: each
    /// upload goes on from the server's offset, and those the background
    /// session still sends show as in the background.
    func start() async {
        guard let uploads, let background else { return }
        uploads.start()
        _ = try? await background.restore(into: uploads.queue)
    }

    /// Uploads what is loaded, in the order the person picked it.
    func uploadPicked() async {
        guard let uploads, let library, let endpoint else { return }
        for picked in loader.ready {
            guard let item = picked.imported, let file = item.primary
            else { continue }
            let id = await uploads.queue.add(
                .upload(
                    path: library.path(of: file), to: .tus(endpoint: endpoint),
                    type: item.info.container.mimeType))
            sent[id] = item
        }
    }

    /// Removes the library's copy of every item whose upload is done.
    func removeUploaded() async {
        guard let uploads, let library else { return }
        for item in await uploads.queue.all() where item.state == .done {
            guard let uploaded = sent.removeValue(forKey: item.id) else { continue }
            _ = try? await library.remove(uploaded)
        }
    }

    /// Leaving the screen: every upload that runs or waits goes to the
    /// background session, one task a file, from the server's offset.
    func handOff() async {
        guard let uploads, let background else { return }
        await background.handOff(uploads.queue)
    }

    /// Back on screen: the queue takes them back and goes on from the
    /// server's offset (the background session may have sent them all).
    func takeBack() async {
        guard let uploads, let background else { return }
        await background.takeBack(uploads.queue)
        await removeUploaded()
    }
}

final class AppDelegate: NSObject, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {
        AppModel.shared.background?.reattach(
            identifier: identifier, completionHandler: completionHandler)
    }
}

@main
@MainActor
struct PickAndUploadApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var delegate
    @Environment(\.scenePhase) private var phase
    private let model = AppModel.shared

    var body: some Scene {
        WindowGroup {
            TabView {
                PickScreen(model: model)
                    .tabItem { Label("Pick", systemImage: "photo") }
                UploadsScreen(model: model)
                    .tabItem { Label("Uploads", systemImage: "icloud") }
            }
            .task { await model.start() }
        }
        .onChange(of: phase) { _, phase in
            switch phase {
            case .background: Task { await model.handOff() }
            case .active: Task { await model.takeBack() }
            default: break
            }
        }
    }
}

@MainActor
struct PickScreen: View {
    let model: AppModel
    @State private var picked: [PhotosPickerItem] = []
    @State private var playing: URL?

    var body: some View {
        ScrollView {
            LibraryPicker(
                selection: $picked,
                options: LibraryPickerOptions(filter: .videos, limit: 5)
            ) {
                Label("Choose Videos", systemImage: "video")
            }
            if let problem = model.problem {
                Text(problem).foregroundStyle(.red)
            }
            SelectionGridView(
                tiles: model.loader.tiles(), thumbnail: { _ in nil },
                onRemove: { key in
                    picked.removeAll { $0.itemIdentifier == key }
                },
                onRetry: { key in model.loader.retry(key) },
                onOpen: { key in playing = movie(key) })
            Button("Upload \(model.loader.ready.count) Videos") {
                Task { await model.uploadPicked() }
            }
            .disabled(model.loader.ready.isEmpty)
        }
        .onChange(of: picked, initial: true) { _, items in
            model.loader.load(items)
        }
        .fullScreenCover(item: $playing) { url in
            PlayerView(url: url) { playing = nil }
        }
    }

    private func movie(_ key: String) -> URL? {
        guard let library = model.library,
            let file = model.loader.item(key)?.imported?.primary
        else { return nil }
        return library.url(of: file)
    }
}

@MainActor
struct UploadsScreen: View {
    let model: AppModel

    var body: some View {
        if let uploads = model.uploads {
            UploadQueueView(model: uploads)
        } else {
            Text(model.problem ?? "The upload journal could not be opened.")
        }
    }
}

extension URL: @retroactive Identifiable {
    public var id: String { absoluteString }
}
