import PhotosUI
import PickupImport
import PickupUI
import PickupUpload
import SwiftUI

/// The app's library and uploads, made once at launch.
@MainActor
@Observable
final class AppModel {
    static let shared = AppModel()

    let library: ImportSession?
    let uploads: UploadQueueModel?
    let loader = PickedItemLoader()
    var problem: String?

    /// Your tus server's creation URL.
    let endpoint = URL(string: "https://uploads.example.com/files/")

    init() {
        var library: ImportSession?
        var uploads: UploadQueueModel?
        do {
            // Application Support/Pickup/Library, not backed up
            let session = try ImportSession.library()
            PickedMediaStore.shared.use(session)
            library = session
            // Application Support/Pickup/uploads.sqlite
            let journal = try UploadJournal()
            var options = UploadOptions()
            options.headers = ["Authorization": "Bearer YOUR-TOKEN"]
            uploads = UploadQueueModel(
                queue: UploadQueue(
                    uploader: Uploader(journal: journal, options: options),
                    concurrency: 2, background: UIKitBackgroundTime()))
        } catch {
            problem = "\(error)"
        }
        self.library = library
        self.uploads = uploads
    }

    /// Follows the queue, and brings back what an earlier run left.
    func start() async {
        guard let uploads else { return }
        uploads.start()
        _ = try? await uploads.queue.restoreUnfinished()
    }

    /// Uploads what is loaded, in the order the person picked it.
    func uploadPicked() async {
        guard let uploads, let library, let endpoint else { return }
        for picked in loader.ready {
            guard let item = picked.imported, let file = item.primary
            else { continue }
            await uploads.queue.add(
                .upload(
                    path: library.path(of: file), to: .tus(endpoint: endpoint),
                    type: item.info.container.mimeType))
        }
    }
}

@main
@MainActor
struct PickAndUploadApp: App {
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
