#if canImport(SwiftUI) && canImport(UIKit)
    import Pickup
    import SwiftUI
    import UIKit

    /// The picked items as a grid: thumbnail, duration badge (m:ss), order badge,
    /// a remove button, a progress or error overlay; VoiceOver reads each tile's
    /// label and offers its actions (from `PickedItemTile`, decided in the core).
    ///
    /// ```swift
    /// SelectionGridView(
    ///     loader: loader, thumbnails: thumbnails,  // @State private var thumbnails = PickedThumbnails()
    ///     onRemove: { key in picked.removeAll { loader.key(of: $0) == key } })
    /// ```
    ///
    /// Or with tiles and images of your own: `SelectionGridView(tiles:thumbnail:onRemove:)`.
    public struct SelectionGridView<ID: Hashable & Sendable>: View {
        let tiles: [PickedItemTile<ID>]
        let thumbnail: @MainActor (ID) -> UIImage?
        let onRemove: (ID) -> Void
        let onRetry: (ID) -> Void
        let onOpen: (ID) -> Void
        /// Run when a tile appears or its state changes: makes its thumbnail when there is none.
        var prepare: @MainActor (ID) async -> Void = { _ in }
        /// Changes when the thumbnails were all let go: the tiles' tasks run again.
        var generation: @MainActor () -> Int = { 0 }

        /// A grid of `tiles`, with each tile's image from `thumbnail` and its remove, retry and open actions.
        public init(
            tiles: [PickedItemTile<ID>], thumbnail: @escaping @MainActor (ID) -> UIImage?,
            onRemove: @escaping (ID) -> Void,
            onRetry: @escaping (ID) -> Void = { _ in }, onOpen: @escaping (ID) -> Void = { _ in }
        ) {
            self.tiles = tiles
            self.thumbnail = thumbnail
            self.onRemove = onRemove
            self.onRetry = onRetry
            self.onOpen = onOpen
        }

        /// The tiles in an adaptive grid.
        public var body: some View {
            LazyVGrid(columns: [GridItem(.adaptive(minimum: 100), spacing: 4)], spacing: 4) {
                ForEach(tiles) { tile in
                    tileView(tile)
                        .accessibilityElement(children: .ignore)
                        .accessibilityLabel(Text(Localized.message(tile.accessibilityLabel)))
                        .accessibilityAction(named: Text(Localized.string("Remove"))) { onRemove(tile.id) }
                        .accessibilityAction(named: Text(Localized.string("Try Again"))) { onRetry(tile.id) }
                }
            }
        }

        @MainActor
        private func tileView(_ tile: PickedItemTile<ID>) -> some View {
            // A square tile whatever the picture's shape: the picture fills it and is cut to it.
            Color.gray.opacity(0.3)
                .aspectRatio(1, contentMode: .fit)
                .overlay {
                    TileThumbnail(
                        id: tile.id, state: tile.state, thumbnail: thumbnail, prepare: prepare, generation: generation)
                }
                .overlay {
                    switch tile.state {
                    case .loading(let fraction):
                        if let fraction { ProgressView(value: fraction).padding() } else { ProgressView() }
                    case .failed:
                        Button {
                            onRetry(tile.id)
                        } label: {
                            Image(systemName: "exclamationmark.arrow.circlepath")
                        }
                    case .ready:
                        EmptyView()
                    }
                }
                .clipped()
                .contentShape(Rectangle())
                .overlay(alignment: .bottomTrailing) {
                    if let duration = tile.durationBadge {
                        Text(duration).font(.caption2).monospacedDigit().padding(4).foregroundStyle(Color.white)
                    }
                }
                .overlay(alignment: .topLeading) {
                    if let order = tile.orderBadge {
                        Text(verbatim: "\(order)").font(.caption).padding(6).background(
                            Circle().fill(Color.accentColor)
                        )
                        .foregroundStyle(Color.white)
                    }
                }
                .overlay(alignment: .topTrailing) {
                    Button {
                        onRemove(tile.id)
                    } label: {
                        Image(systemName: "xmark.circle.fill")
                    }
                    .accessibilityHidden(true)
                }
                .onTapGesture { onOpen(tile.id) }
        }
    }

    /// A tile's picture, a view of its own: what its image depends on (its file's thumbnail,
    /// observed on its own by `ThumbnailMaker`) redraws this view alone, not the grid. Its task
    /// makes the thumbnail when there is none: when the tile appears, when its item becomes
    /// ready (loaded, or loaded again after a retry), when every thumbnail was let go, and when
    /// its own image was let go to make room while the tile was away.
    struct TileThumbnail<ID: Hashable & Sendable>: View {
        let id: ID
        let state: PickedItemTile<ID>.State
        let thumbnail: @MainActor (ID) -> UIImage?
        let prepare: @MainActor (ID) async -> Void
        let generation: @MainActor () -> Int

        /// What the task is for: it runs again when any of them changes.
        private struct Reason: Hashable {
            var state: PickedItemTile<ID>.State
            var generation: Int
            var shown: Bool
        }

        var body: some View {
            let image = thumbnail(id)
            Color.clear
                .overlay {
                    if let image { Image(uiImage: image).resizable().scaledToFill() }
                }
                // Asked even when its image is there: the memo keeps the images asked for last.
                .task(id: Reason(state: state, generation: generation(), shown: image != nil)) { await prepare(id) }
        }
    }

#endif

#if canImport(SwiftUI) && canImport(UIKit) && canImport(AVFoundation)
    import PickupImport
    import SwiftUI

    @available(iOS 17.0, *)
    extension SelectionGridView where ID == String {
        /// The loader's tiles, in the person's order, each with its thumbnail: made by
        /// `thumbnails` once the tile's item is loaded, off the main thread (a video's poster
        /// frame, a Live Photo's still; none for audio or a file Pickup cannot read).
        @MainActor
        public init<Source: PickedItemSource>(
            loader: PickedItems<Source>, thumbnails: PickedThumbnails, onRemove: @escaping (String) -> Void,
            onRetry: ((String) -> Void)? = nil, onOpen: @escaping (String) -> Void = { _ in }
        ) {
            self.init(
                tiles: loader.tiles(),
                thumbnail: { key in loader.thumbnailFile(key).flatMap(thumbnails.image(ofFile:)) },
                onRemove: onRemove, onRetry: onRetry ?? { key in loader.retry(key) }, onOpen: onOpen)
            prepare = { key in
                guard let file = loader.thumbnailFile(key) else { return }
                await thumbnails.make(ofFile: file)
            }
            generation = { thumbnails.generation }
        }
    }
#endif
