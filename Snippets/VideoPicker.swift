// Pick one video, see it load (with iCloud's progress), and play it from the app's
// own copy.

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
    // the session given to PickedMediaStore at launch
    let library: ImportSession
    @State private var picked: [PhotosPickerItem] = []
    @State private var loader = PickedItemLoader()
    @State private var playing = false

    var body: some View {
        VStack(spacing: 16) {
            LibraryPicker(
                selection: $picked,
                options: LibraryPickerOptions(filter: .videos, limit: 1)
            ) {
                Label("Choose a Video", systemImage: "video")
            }
            switch loader.states.values.first {
            case .loading(let fraction)?:
                // iCloud downloads report a fraction
                ProgressView(value: fraction ?? 0)
            case .failed(let message)?:
                // what happened and what to do
                Text(message).foregroundStyle(.secondary)
            case .ready?, nil:
                if let item = loader.items.values.first,
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
        .onChange(of: picked) { _, items in loader.load(items) }
    }
}
// snippet.hide
#endif
