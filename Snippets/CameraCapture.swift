// The camera: asked for when needed, refused with a message to show, and the movie
// imported into the app's folder before it is played.

// snippet.hide
#if canImport(SwiftUI) && canImport(UIKit)
// snippet.show
import Pickup
import PickupImport
import PickupUI
import SwiftUI

struct CameraScreen: View {
    let library: ImportSession
    @State private var recording = false
    @State private var movie: URL?
    @State private var message: String?
    private let options = CameraOptions(
        mode: .video, quality: .hd1280x720, maximumDuration: 60)

    var body: some View {
        VStack(spacing: 16) {
            Button("Record a Movie") {
                switch CameraPicker.availability(for: options) {
                case .ready: recording = true
                case .mustAsk:
                    Task {
                        if await CameraPicker.requestAccess(for: options) {
                            recording = true
                        }
                    }
                case .unavailable(let text), .denied(let text):
                    message = text
                }
            }
            if let message { Text(message).foregroundStyle(.secondary) }
            if let movie { PlayerView(url: movie) { self.movie = nil } }
        }
        .fullScreenCover(isPresented: $recording) {
            CameraPicker(options: options) { result in
                recording = false
                switch result {
                case .success(let item):
                    movie = item.primary.map { library.url(of: $0) }
                case .failure(let error): message = error.message
                case nil: break  // cancelled
                }
            }
        }
    }
}
// snippet.hide
#endif
