// The README's example: a library picker whose videos are imported into the app's
// folder as Photos hands them over. scripts/docs.sh checks that the README shows
// exactly this code.

// snippet.hide
#if canImport(SwiftUI) && canImport(UIKit) && canImport(PhotosUI)
// snippet.show
import PhotosUI
import PickupUI
import SwiftUI

@MainActor
struct PickScreen: View {
    @State private var picked: [PhotosPickerItem] = []
    @State private var loader = PickedItemLoader()  // the app's own copies

    var body: some View {
        LibraryPicker(selection: $picked, options: .init(filter: .videos)) {
            Label("Choose Videos", systemImage: "video")
        }
        .onChange(of: picked) { _, items in loader.load(items) }
    }
}
// snippet.hide
#endif
