// A Live Photo picked as one item, its still and its movie both in the app's folder,
// and shown as a Live Photo again.

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
    @State private var loader = PickedItemLoader()

    var body: some View {
        VStack {
            LibraryPicker(
                selection: $picked,
                options: LibraryPickerOptions(filter: .livePhotos, limit: 1)
            ) {
                Label("Choose a Live Photo", systemImage: "livephoto")
            }
            if let item = loader.items.values.first, item.isLivePhoto,
                let still = item.primary,
                let movie = item.files.first(where: {
                    $0.role == .livePhotoMovie
                })
            {
                LivePhotoView(
                    still: library.url(of: still),
                    movie: library.url(of: movie)
                )
                .aspectRatio(
                    CGFloat(item.info.displayWidth ?? 3)
                        / CGFloat(item.info.displayHeight ?? 4),
                    contentMode: .fit)
            }
        }
        .onChange(of: picked) { _, items in loader.load(items) }
    }
}
// snippet.hide
#endif
