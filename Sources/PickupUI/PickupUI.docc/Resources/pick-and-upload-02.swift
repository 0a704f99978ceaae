import PhotosUI
import PickupImport
import PickupUI
import SwiftUI

/// The app's library, made once at launch.
@MainActor
@Observable
final class AppModel {
    static let shared = AppModel()

    let library: ImportSession?
    let loader = PickedItemLoader()
    var problem: String?

    init() {
        var library: ImportSession?
        do {
            // Application Support/Pickup/Library, not backed up
            let session = try ImportSession.library()
            PickedMediaStore.shared.use(session)
            library = session
        } catch {
            problem = "\(error)"
        }
        self.library = library
    }
}

@main
@MainActor
struct PickAndUploadApp: App {
    private let model = AppModel.shared

    var body: some Scene {
        WindowGroup {
            PickScreen(model: model)
        }
    }
}

@MainActor
struct PickScreen: View {
    let model: AppModel
    @State private var picked: [PhotosPickerItem] = []

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
                onRetry: { key in model.loader.retry(key) })
        }
        .onChange(of: picked, initial: true) { _, items in
            model.loader.load(items)
        }
    }
}
