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
    @ObservationIgnored private var handedOff: [Int] = []
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
            uploads = UploadQueueModel(
                queue: UploadQueue(
                    uploader: Uploader(journal: journal, options: options),
                    concurrency: 2, background: UIKitBackgroundTime()))
            background = BackgroundUploads(journal: journal)
        } catch {
            problem = "\(error)"
        }
        self.library = library
        self.uploads = uploads
        self.background = background
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

    /// Leaving the screen: tus uploads under way go on in the background session. Waiting
    /// ones wait for the app's return; S3 and form uploads go on in the queue for the time
    /// the system gives.
    func handOff() async {
        guard let uploads, let background else { return }
        let queue = uploads.queue
        var paused: [Int] = []
        for item in await queue.all() where item.state == .uploading {
            guard let id = item.uploadID,
                let record = try? await queue.uploader.journal.record(id: id),
                case .tus = record.destination
            else { continue }
            await queue.pause(item.id)
            paused.append(item.id)
        }
        for queued in paused {
            // The request stops at once; its place is in the journal.
            while await queue.item(queued)?.state == .uploading {
                try? await Task.sleep(for: .milliseconds(20))
            }
            guard let id = await queue.item(queued)?.uploadID else { continue }
            handedOff.append(queued)
            try? await background.sendNextChunk(of: id)
        }
    }

    /// Back on screen: the queue goes on from the server's offset.
    func takeBack() async {
        guard let uploads else { return }
        for id in handedOff { await uploads.queue.resume(id) }
        handedOff = []
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
