// Several photos and videos in a grid, with their order badges and durations, each
// removable, in the order they were picked; uploads take them in that order.

// snippet.hide
#if canImport(SwiftUI) && canImport(UIKit) && canImport(PhotosUI)
// snippet.show
import Pickup
import PhotosUI
import PickupUI
import SwiftUI

@MainActor
struct MultiSelectScreen: View {
    @State private var picked: [PhotosPickerItem] = []
    @State private var loader = PickedItemLoader()
    @State private var thumbnails = PickedThumbnails()

    var body: some View {
        ScrollView {
            LibraryPicker(
                selection: $picked,
                options: LibraryPickerOptions(
                    filter: .any(of: [.images, .videos]), limit: 10)
            ) {
                Label("Choose up to 10", systemImage: "photo.on.rectangle")
            }
            SelectionGridView(
                // the loader's tiles in the person's order, with order badges
                loader: loader,
                // each made once its item is loaded, off the main thread
                thumbnails: thumbnails,
                // the picker's selection decides: the loader follows it
                onRemove: { key in
                    picked.removeAll { loader.key(of: $0) == key }
                })
            // what to upload, in selection order
            Text("\(loader.notTaken.count) ready to upload")
        }
        .onChange(of: picked, initial: true) { _, items in
            loader.load(items)
        }
    }
}
// snippet.hide
#endif
