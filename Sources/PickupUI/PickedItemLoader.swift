#if canImport(PhotosUI) && canImport(Photos) && canImport(SwiftUI)
    import Foundation
    import PhotosUI
    import Pickup
    import PickupImport
    import SwiftUI

    /// Loads what the library picker picked, following its selection: items deselected are
    /// dropped and their loads cancelled, nothing loads twice, each item is ready when it is
    /// done while the grid keeps the person's order, iCloud downloads show their progress, a
    /// failed item can be tried again, and Live Photos bring their movie without asking for
    /// photo-library access (`PickedItems`, where every such decision is made and tested). Each
    /// load asks for background time, so it finishes when the person leaves the app.
    ///
    /// ```swift
    /// @State private var picked: [PhotosPickerItem] = []
    /// @State private var loader = PickedItemLoader()
    /// ...
    /// LibraryPicker(selection: $picked, options: options) { Text("Choose") }
    ///     .onChange(of: picked, initial: true) { _, items in loader.load(items) }
    /// ...
    /// let toUpload = loader.take()  // the items are the app's from here on: deselecting keeps them
    /// ```
    extension PickedItemLoading {
        /// Loading into the app's library (`PickedMediaStore.shared`), each load inside background
        /// time where the platform gives it: what every picker of this module loads with.
        static func intoAppLibrary(motion: LivePhotoMotion) -> PickedItemLoading {
            #if canImport(UIKit)
                let background: any BackgroundTimeGranting = ExpiringActivityTime()
            #else
                let background: any BackgroundTimeGranting = NoBackgroundTime()
            #endif
            return PickedItemLoading(importer: PickedMediaStore.shared.importer, motion: motion, background: background)
        }
    }

    @available(iOS 17.0, macOS 14.0, *)
    public typealias PickedItemLoader = PickedItems<PhotosPickerSource>

    @available(iOS 17.0, macOS 14.0, *)
    extension PickedItems where Source == PhotosPickerSource {
        /// A loader into the app's library (`PickedMediaStore.shared`: the standard library in
        /// Application Support unless the app set another), `concurrency` items at once, Live
        /// Photos with their movie unless `motion` says still only.
        public convenience init(motion: LivePhotoMotion = .pair, concurrency: Int = 3) {
            self.init(loading: .intoAppLibrary(motion: motion), concurrency: concurrency)
        }

        /// Follows the picker's selection: call it from `onChange(of:initial:)` of the binding.
        public func load(_ picked: [PhotosPickerItem]) { follow(picked.map(PhotosPickerSource.init)) }

        /// The key of a picker item, as tiles carry it: to remove a tile's item from the
        /// selection, `picked.removeAll { loader.key(of: $0) == key }` (an item has no
        /// identifier when the picker was not given the photo library).
        public func key(of item: PhotosPickerItem) -> String? { key(of: PhotosPickerSource(item)) }
    }
#endif
