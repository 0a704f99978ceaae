// The library picker as PHPickerViewController (for a UIKit flow or a sheet): the
// same filter, limit and order as LibraryPicker, each item loaded into the app's
// library while Photos' temporary copy exists and shown in the grid as it is ready.
// Opened again, the picker shows what is picked: what the person deselects goes,
// what stays is not loaded again, and Cancel changes nothing.

// snippet.hide
#if canImport(SwiftUI) && canImport(UIKit) && canImport(PhotosUI)
// snippet.show
import PickupImport
import PickupUI
import SwiftUI

@MainActor
struct PhotoSheetScreen: View {
    @State private var choosing = false
    @State private var loader = PickedResultLoader()
    @State private var thumbnails = PickedThumbnails()

    var body: some View {
        ScrollView {
            Button("Choose Photos") { choosing = true }
            SelectionGridView(
                loader: loader, thumbnails: thumbnails,
                onRemove: { key in loader.remove(key) })
        }
        .sheet(isPresented: $choosing) {
            PhotoPickerController(
                options: .init(filter: .images, limit: 10), loader: loader)
        }
        // when the screen goes, every load stops (each can be tried again)
        .onDisappear { loader.cancelAll() }
    }
}
// snippet.hide
#endif
