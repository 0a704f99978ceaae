#if canImport(SwiftUI) && canImport(AVKit) && canImport(PhotosUI) && canImport(UIKit)
    import AVKit
    import PhotosUI
    import SwiftUI
    import UIKit

    /// A movie player (`VideoPlayer`) with a close button. The `AVPlayer` lives in the view's
    /// state, so a parent that draws again does not restart playback; a new `url` starts anew.
    public struct PlayerView: View {
        let url: URL
        let onClose: () -> Void
        @State private var player: AVPlayer?

        /// A player for the movie at `url`, with a close button that calls `onClose`.
        public init(url: URL, onClose: @escaping () -> Void) {
            self.url = url
            self.onClose = onClose
        }

        /// The player, full screen, with its controls.
        public var body: some View {
            VideoPlayer(player: player)
                .task(id: url) {
                    player?.pause()
                    let next = AVPlayer(url: url)
                    player = next
                    next.play()
                }
                .onDisappear { player?.pause() }
                .overlay(alignment: .topTrailing) {
                    Button {
                        onClose()
                    } label: {
                        Image(systemName: "xmark.circle.fill").font(.title)
                    }
                    .accessibilityLabel(Text("Close"))
                    .padding()
                }
        }
    }

    /// A Live Photo (still + movie files) that plays when touched (`PHLivePhotoView`).
    public struct LivePhotoView: UIViewRepresentable {
        let still: URL
        let movie: URL

        /// A Live Photo from its still and movie files.
        public init(still: URL, movie: URL) {
            self.still = still
            self.movie = movie
        }

        /// Makes the Live Photo view and loads the pair into it.
        public func makeUIView(context: Context) -> PHLivePhotoView {
            let view = PHLivePhotoView()
            view.contentMode = .scaleAspectFit
            _ = PHLivePhoto.request(
                withResourceFileURLs: [still, movie], placeholderImage: nil, targetSize: .zero, contentMode: .aspectFit
            ) { livePhoto, _ in
                if let livePhoto { view.livePhoto = livePhoto }
            }
            return view
        }

        /// Nothing to update: the pair is loaded once.
        public func updateUIView(_ view: PHLivePhotoView, context: Context) {}
    }
#endif
