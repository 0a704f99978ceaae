import PickupImport
import PickupUI
import SwiftUI

/// The app's library, made once at launch.
@MainActor
@Observable
final class AppModel {
    static let shared = AppModel()

    let library: ImportSession?
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

    var body: some View {
        ScrollView {
            if let problem = model.problem {
                Text(problem).foregroundStyle(.red)
            } else {
                Text("Ready to pick")
            }
        }
    }
}
