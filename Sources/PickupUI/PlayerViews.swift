#if canImport(SwiftUI) && canImport(AVKit) && canImport(PhotosUI) && canImport(UIKit)
    import AVKit
    import PhotosUI
    import SwiftUI
    import UIKit

    /// A movie player (`VideoPlayer`) with a close button. The `AVPlayer` lives in the view's
    /// state, so a parent that draws again, or the view shown again (back from a pushed view),
    /// does not restart playback; a new `url` starts anew. The app's audio session is set to
    /// play the movie's sound and put back as it was when the view goes.
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
        /// The movie `player` plays.
        @State private var playing: URL?
        /// The app's audio category, mode and options before the player set its own, to put back.
        @State private var audioBefore:
            (category: AVAudioSession.Category, mode: AVAudioSession.Mode, options: AVAudioSession.CategoryOptions)?
        /// Whether the movie was playing when the view went: shown again, it plays on only then.
        @State private var wasPlaying = true

        /// A player for the movie at `url`, with a close button that calls `onClose`.
        public init(url: URL, onClose: @escaping () -> Void) {
            self.url = url
            self.onClose = onClose
        }

        /// The player, full screen, with its controls.
        public var body: some View {
            VideoPlayer(player: player)
                .task(id: url) {
                    let session = AVAudioSession.sharedInstance()
                    if audioBefore == nil { audioBefore = (session.category, session.mode, session.categoryOptions) }
                    // `.playback`: the movie's sound plays with the silent switch on, as in Photos. The
                    // default `.soloAmbient` is for "background sounds" (`AVAudioSessionTypes.h:96`),
                    // which Apple's Audio Session Programming Guide says the Silent switch silences.
                    try? session.setCategory(.playback, mode: .moviePlayback)
                    if let player, playing == url {
                        if wasPlaying { player.play() }  // shown again: on from where it was
                        return
                    }
                    player?.pause()
                    let next = AVPlayer(url: url)
                    player = next
                    playing = url
                    next.play()
                }
                .onDisappear {
                    wasPlaying = player?.timeControlStatus == .playing
                    player?.pause()
                    guard let before = audioBefore else { return }
                    audioBefore = nil
                    let session = AVAudioSession.sharedInstance()
                    try? session.setCategory(before.category, mode: before.mode, options: before.options)
                    // Other apps' sound may play again; an app that set a category of its own to play
                    // has audio of its own, which deactivating would stop ("the session will be
                    // deactivated" even with running I/O, AVAudioSession.h): it is left active.
                    if before.category == .soloAmbient || before.category == .ambient {
                        try? session.setActive(false, options: .notifyOthersOnDeactivation)
                    }
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
