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
    ///     tiles: loader.tiles(), thumbnail: { _ in nil },
    ///     onRemove: { key in picked.removeAll { loader.key(of: $0) == key } },
    ///     onRetry: { key in loader.retry(key) })
    /// ```
    public struct SelectionGridView<ID: Hashable & Sendable>: View {
        let tiles: [PickedItemTile<ID>]
        let thumbnail: (ID) -> UIImage?
        let onRemove: (ID) -> Void
        let onRetry: (ID) -> Void
        let onOpen: (ID) -> Void

        /// A grid of `tiles`, with each tile's image from `thumbnail` and its remove, retry and open actions.
        public init(
            tiles: [PickedItemTile<ID>], thumbnail: @escaping (ID) -> UIImage?, onRemove: @escaping (ID) -> Void,
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

        private func tileView(_ tile: PickedItemTile<ID>) -> some View {
            // A square tile whatever the picture's shape: the picture fills it and is cut to it.
            Color.gray.opacity(0.3)
                .aspectRatio(1, contentMode: .fit)
                .overlay {
                    if let image = thumbnail(tile.id) {
                        Image(uiImage: image).resizable().scaledToFill()
                    }
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
#endif
