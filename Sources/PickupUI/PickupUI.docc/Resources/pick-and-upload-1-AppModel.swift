import PickupImport
import PickupUI
import SwiftUI

/// The app's library, and the loader that copies picked files into it,
/// made once at launch.
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
