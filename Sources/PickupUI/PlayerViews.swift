#if canImport(SwiftUI) && canImport(AVKit) && canImport(PhotosUI) && canImport(UIKit)
    import AVKit
    import PhotosUI
    import SwiftUI
    import UIKit

    /// A movie player (`VideoPlayer`) with a close button. The `AVPlayer` lives in the view's
    /// state, so a parent that draws again does not restart playback; a new `url` starts anew.
    ///
    /// ```swift
    /// @State private var playing = false
    /// ...
    /// .fullScreenCover(isPresented: $playing) {
    ///     PlayerView(url: library.url(of: movie)) { playing = false }
    /// }
    /// ```
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
                    // `.playback`: the movie's sound plays with the silent switch on, as in Photos. The
                    // default `.soloAmbient` is for "background sounds" (`AVAudioSessionTypes.h:96`),
                    // which Apple's Audio Session Programming Guide says the Silent switch silences.
                    try? AVAudioSession.sharedInstance().setCategory(.playback, mode: .moviePlayback)
                    let next = AVPlayer(url: url)
                    player = next
                    next.play()
                }
                .onDisappear {
                    player?.pause()
                    // Other apps' sound may play again.
                    try? AVAudioSession.sharedInstance().setActive(false, options: .notifyOthersOnDeactivation)
                }
                .overlay(alignment: .topTrailing) {
                    Button {
                        onClose()
                    } label: {
                        Image(systemName: "xmark.circle.fill").font(.title)
                    }
                    .accessibilityLabel(Text(Localized.string("Close")))
                    .padding()
                }
        }
    }

    /// A Live Photo (still + movie files) that plays when touched (`PHLivePhotoView`).
    ///
    /// ```swift
    /// // a Live Photo's still and movie, from the library
    /// LivePhotoView(still: library.url(of: still), movie: library.url(of: movie))
    ///     .aspectRatio(3 / 4, contentMode: .fit)
    /// ```
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
            context.coordinator.show([still, movie], in: view)
            return view
        }

        /// Loads the new pair when the files changed (another item shown in the same place).
        public func updateUIView(_ view: PHLivePhotoView, context: Context) {
            context.coordinator.show([still, movie], in: view)
        }

        /// Remembers which pair the view shows.
        public func makeCoordinator() -> Coordinator { Coordinator() }

        /// Which files the view shows, so that only a change loads again.
        @MainActor
        public final class Coordinator {
            var shown: [URL] = []
            var request: PHLivePhotoRequestID = PHLivePhotoRequestIDInvalid

            func show(_ files: [URL], in view: PHLivePhotoView) {
                guard files != shown else { return }
                shown = files
                PHLivePhoto.cancelRequest(withRequestID: request)
                view.livePhoto = nil
                request = PHLivePhoto.request(
                    withResourceFileURLs: files, placeholderImage: nil, targetSize: .zero, contentMode: .aspectFit
                ) { [weak view] livePhoto, _ in
                    // Later calls come on the main queue (`PHLivePhoto.h:35`; with no placeholder, every call).
                    MainActor.assumeIsolated {
                        if let livePhoto, let view { view.livePhoto = livePhoto }
                    }
                }
            }
        }
    }
#endif
