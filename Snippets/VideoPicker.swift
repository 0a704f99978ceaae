// Pick one video, see it load (with iCloud's progress), and play it from the app's
// own copy: the item the selection names, never an earlier pick's.

// snippet.hide
#if canImport(SwiftUI) && canImport(UIKit) && canImport(PhotosUI)
// snippet.show
import Pickup
import PhotosUI
import PickupImport
import PickupUI
import SwiftUI

@MainActor
struct VideoPickerScreen: View {
    // the app's library (PickedMediaStore.shared.library())
    let library: ImportSession
    @State private var picked: [PhotosPickerItem] = []
    @State private var loader = PickedItemLoader()
    @State private var playing = false

    var body: some View {
        let key = loader.keys.first
        VStack(spacing: 16) {
            LibraryPicker(
                selection: $picked,
                options: LibraryPickerOptions(filter: .videos, limit: 1)
            ) {
                Label("Choose a Video", systemImage: "video")
            }
            switch key.flatMap({ loader.states[$0] }) {
            case .loading(let fraction)?:
                // iCloud downloads report a fraction
                ProgressView(value: fraction ?? 0)
            case .failed(let message)?:
                // what happened and what to do
                Text(message).foregroundStyle(.secondary)
                Button("Try Again") { key.map(loader.retry) }
            case .ready?, nil:
                if let item = loader.item(key)?.imported,
                    let movie = item.primary
                {
                    let length = DurationLabel.string(
                        seconds: item.info.duration ?? 0)
                    Button("Play \(length)") { playing = true }
                        .fullScreenCover(isPresented: $playing) {
                            PlayerView(url: library.url(of: movie)) {
                                playing = false
                            }
                        }
                }
            }
        }
        .onChange(of: picked, initial: true) { _, items in
            loader.load(items)
        }
    }
}
// snippet.hide
#endif
