// The README's example: a library picker whose videos are copied into the app's own
// library as Photos hands them over, shown in a grid with their progress and failures.
// scripts/docs.sh checks that the README shows exactly this code.

// snippet.hide
#if canImport(SwiftUI) && canImport(UIKit) && canImport(PhotosUI)
// snippet.show
import PhotosUI
import PickupImport
import PickupUI
import SwiftUI

@MainActor
struct PickScreen: View {
    @State private var picked: [PhotosPickerItem] = []
    @State private var loader = PickedItemLoader()  // follows `picked`
    @State private var thumbnails = PickedThumbnails()
    @State private var failure: String?

    var body: some View {
        ScrollView {
            LibraryPicker(
                selection: $picked, options: .init(filter: .videos)
            ) {
                Label("Choose Videos", systemImage: "video")
            }
            if let failure { Text(failure).foregroundStyle(.red) }
            // each tile: thumbnail, progress, then ready or Try Again
            SelectionGridView(
                loader: loader, thumbnails: thumbnails,
                onRemove: { key in
                    picked.removeAll { loader.key(of: $0) == key }
                })
        }
        .task {
            // copies go to Application Support/Pickup, not backed up
            do {
                PickedMediaStore.shared.use(try ImportSession.library())
            } catch {
                failure = "\(error)"
            }
        }
        .onChange(of: picked, initial: true) { _, items in
            loader.load(items)
        }
    }
}
// snippet.hide
#endif
