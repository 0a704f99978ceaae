#if canImport(SwiftUI) && canImport(AVKit) && canImport(PhotosUI) && canImport(UIKit)
    import AVKit
    import PhotosUI
    import SwiftUI
    import UIKit

    /// A movie player (`VideoPlayer`) with a close button.
    public struct PlayerView: View {
        let player: AVPlayer
        let onClose: () -> Void

        public init(url: URL, onClose: @escaping () -> Void) {
            player = AVPlayer(url: url)
            self.onClose = onClose
        }

        public var body: some View {
            VideoPlayer(player: player)
                .onAppear { player.play() }
                .onDisappear { player.pause() }
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

        public init(still: URL, movie: URL) {
            self.still = still
            self.movie = movie
        }

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

        public func updateUIView(_ view: PHLivePhotoView, context: Context) {}
    }
#endif
