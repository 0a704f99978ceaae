import PhotosUI
import PickupUI
import SwiftUI

@MainActor
struct PickScreen: View {
    let model: AppModel
    @State private var picked: [PhotosPickerItem] = []
    @State private var playing: URL?
    @State private var thumbnails = PickedThumbnails()

    var body: some View {
        ScrollView {
            LibraryPicker(
                selection: $picked,
                options: LibraryPickerOptions(filter: .videos, limit: 5)
            ) {
                Label("Choose Videos", systemImage: "video")
            }
            if let problem = model.problem {
                Text(problem).foregroundStyle(.red)
            }
            SelectionGridView(
                loader: model.loader, thumbnails: thumbnails,
                onRemove: { key in
                    picked.removeAll { model.loader.key(of: $0) == key }
                },
                onOpen: { key in playing = movie(key) })
        }
        .onChange(of: picked, initial: true) { _, items in
            model.loader.load(items)
        }
        .fullScreenCover(item: $playing) { url in
            PlayerView(url: url) { playing = nil }
        }
    }

    /// Where the library keeps the item's video.
    private func movie(_ key: String) -> URL? {
        guard let library = model.library,
            let file = model.loader.item(key)?.imported?.primary
        else { return nil }
        return library.url(of: file)
    }
}

extension URL: @retroactive Identifiable {
    public var id: String { absoluteString }
}
