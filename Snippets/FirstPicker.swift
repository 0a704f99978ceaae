// The first picker: where picked files go, set once at launch, and a library picker
// whose items are imported into the app's own folder as Photos hands them over.

// snippet.hide
#if canImport(SwiftUI) && canImport(UIKit) && canImport(PhotosUI)
// snippet.show
import Foundation
import PhotosUI
import PickupImport
import PickupUI
import SwiftUI

/// At launch (in the `App`'s `init`): the folder picked files are copied
/// into.
func startPickup() throws {
    let folder = URL.documentsDirectory.appendingPathComponent("Picked")
        .path
    PickedMediaStore.shared.use(try ImportSession(destination: folder))
}

@MainActor
struct FirstPickerScreen: View {
    @State private var picked: [PhotosPickerItem] = []
    // 3 at a time, in order, never a stuck spinner
    @State private var loader = PickedItemLoader()

    var body: some View {
        VStack(spacing: 12) {
            LibraryPicker(
                selection: $picked,
                options: LibraryPickerOptions(
                    filter: .any(of: [.images, .videos]), limit: 10)
            ) {
                Label(
                    "Choose Photos and Videos",
                    systemImage: "photo.on.rectangle")
            }
            Text("\(loader.items.count) of \(picked.count) ready")
        }
        // loaded items are not loaded again
        .onChange(of: picked) { _, items in loader.load(items) }
    }
}
// snippet.hide
#endif
