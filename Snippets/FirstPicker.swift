// The first picker: picked files are copied into the app's library (Application
// Support, excluded from backup) as Photos hands them over; set another at launch if
// the app wants.

// snippet.hide
#if canImport(SwiftUI) && canImport(UIKit) && canImport(PhotosUI)
// snippet.show
import Foundation
import Pickup
import PhotosUI
import PickupImport
import PickupUI
import SwiftUI

/// At launch (in the `App`'s `init`), only to choose another library than
/// the standard one.
func startPickup() throws {
    PickedMediaStore.shared.use(try ImportSession.library())
}

@MainActor
struct FirstPickerScreen: View {
    @State private var picked: [PhotosPickerItem] = []
    // 3 at a time; deselected items dropped; never a stuck spinner
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
            Text("\(loader.ready.count) of \(loader.keys.count) ready")
        }
        // items loading or loaded are not loaded again
        .onChange(of: picked, initial: true) { _, items in
            loader.load(items)
        }
    }
}
// snippet.hide
#endif
