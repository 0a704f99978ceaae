// Several photos and videos in a grid, with their order badges and durations, each
// removable, in the order they were picked.

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
    @State private var selection = Selection(
        policy: SelectionPolicy<String>(limit: 10, ordered: true))
    @State private var loader = PickedItemLoader()

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
                tiles: selection.tiles(
                    facts: loader.items.mapValues(\.info),
                    states: loader.states
                ),
                // or an image made with AVFoundationThumbnailer
                thumbnail: { _ in nil },
                onRemove: { id in
                    _ = selection.remove(id)
                    picked.removeAll { $0.itemIdentifier == id }
                    loader.remove(id)
                })
        }
        .onChange(of: picked) { _, items in
            for (index, item) in items.enumerated() {
                // full: refused with a reason
                try? selection.add(item.itemIdentifier ?? "#\(index)")
            }
            loader.load(items)
        }
    }
}
// snippet.hide
#endif
