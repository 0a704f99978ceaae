// A Live Photo picked as one item, its still and its movie both in the app's library
// (no photo-library permission asked), and shown as a Live Photo again. When Photos
// cannot hand the movie over, the still is kept and the item says so.

// snippet.hide
#if canImport(SwiftUI) && canImport(UIKit) && canImport(PhotosUI)
// snippet.show
import PhotosUI
import PickupImport
import PickupUI
import SwiftUI

@MainActor
struct LivePhotoScreen: View {
    let library: ImportSession
    @State private var picked: [PhotosPickerItem] = []
    // `.stillOnly` for a profile photo or a scan
    @State private var loader = PickedItemLoader(motion: .pair)

    var body: some View {
        VStack {
            LibraryPicker(
                selection: $picked,
                options: LibraryPickerOptions(filter: .livePhotos, limit: 1)
            ) {
                Label("Choose a Live Photo", systemImage: "livephoto")
            }
            if let picked = loader.item(loader.keys.first),
                let item = picked.imported, let still = item.primary
            {
                if let movie = item.files.first(where: {
                    $0.role == .livePhotoMovie
                }) {
                    LivePhotoView(
                        still: library.url(of: still),
                        movie: library.url(of: movie)
                    )
                    .aspectRatio(
                        CGFloat(item.info.displayWidth ?? 3)
                            / CGFloat(item.info.displayHeight ?? 4),
                        contentMode: .fit)
                }
                // "Kept as a still photo: its motion ..."
                if let note = picked.note { Text(note.description) }
            }
        }
        .onChange(of: picked, initial: true) { _, items in
            loader.load(items)
        }
    }
}
// snippet.hide
#endif
