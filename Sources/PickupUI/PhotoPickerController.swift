#if canImport(PhotosUI) && canImport(Photos) && canImport(UIKit) && canImport(SwiftUI)
    import Foundation
    import PhotosUI
    import Pickup
    import PickupImport
    import SwiftUI
    import UIKit
    import UniformTypeIdentifiers

    /// The library picker on UIKit (`PHPickerViewController`), with the same filter, limit,
    /// order and `.current` representation as `LibraryPicker`, and the same loading
    /// (`PickedItemLoading`): each file copied out while its provider's temporary copy still
    /// exists, Live Photos with their movie and no library permission.
    ///
    /// Give it a ``PickedResultLoader`` and each item is ready when it is done, with its iCloud
    /// progress, in the grid (`SelectionGridView(loader:thumbnails:…)`); opened again, the picker
    /// shows the loader's items as picked, and what the person deselects is dropped, what stays
    /// is not loaded again, and Cancel changes nothing. Or give it `onPicked`, which gets every
    /// result at once when the last has loaded.
    public struct PhotoPickerController: UIViewControllerRepresentable {
        let options: LibraryPickerOptions
        let preselected: [String]
        let delivery: Delivery

        enum Delivery {
            case all(motion: LivePhotoMotion, onPicked: @MainActor ([Result<PickedItem, PickFailure>]) -> Void)
            /// A loader's `follow(returned:opened:)` (a closure: the loader needs iOS 17).
            case follow(@MainActor ([ItemProviderSource], PickerSelectionPlan) -> Void)
        }

        /// A picker that feeds `loader`: it opens with the loader's items picked, and what the
        /// person picks, keeps and deselects is followed (`PickedItems.follow(returned:opened:)`).
        @available(iOS 17.0, *)
        @MainActor
        public init(options: LibraryPickerOptions, loader: PickedResultLoader) {
            self.options = options
            self.preselected = loader.keys
            self.delivery = .follow { sources, plan in loader.follow(returned: sources, opened: plan) }
        }

        /// A picker with a filter, a limit, preselected items and order, reporting what is picked to
        /// `onPicked` once every item has loaded (preselected items are not reported again: Photos
        /// hands nothing over for them, `PHPicker.h`).
        public init(
            options: LibraryPickerOptions, preselected: [String] = [], motion: LivePhotoMotion = .pair,
            onPicked: @escaping @MainActor ([Result<PickedItem, PickFailure>]) -> Void
        ) {
            self.options = options
            self.preselected = preselected
            self.delivery = .all(motion: motion, onPicked: onPicked)
        }

        var selection: PickerSelectionPlan {
            PickerSelectionPlan(limit: options.limit, preselected: preselected, ordered: options.ordered)
        }

        /// Makes PHPickerViewController, set up from the plan.
        public func makeUIViewController(context: Context) -> PHPickerViewController {
            var configuration = PHPickerConfiguration(photoLibrary: .shared())
            configuration.filter = PickerFilterPlan(options.filter).phPickerFilter
            let selection = self.selection
            configuration.selectionLimit = selection.limit
            configuration.preferredAssetRepresentationMode = .current
            if selection.ordered { configuration.selection = .ordered }
            configuration.preselectedAssetIdentifiers = selection.preselected
            let controller = PHPickerViewController(configuration: configuration)
            controller.delegate = context.coordinator
            context.coordinator.dismiss = context.environment.dismiss
            return controller
        }

        /// Keeps SwiftUI's dismiss action current; the configuration is fixed when the picker opens.
        public func updateUIViewController(_ controller: PHPickerViewController, context: Context) {
            context.coordinator.dismiss = context.environment.dismiss
        }

        /// The delegate that takes the results.
        public func makeCoordinator() -> Coordinator {
            Coordinator(delivery: delivery, selection: selection)
        }

        /// Receives PHPickerViewController's results.
        public final class Coordinator: NSObject, PHPickerViewControllerDelegate {
            let delivery: Delivery
            let selection: PickerSelectionPlan
            var dismiss: DismissAction?

            init(delivery: Delivery, selection: PickerSelectionPlan) {
                self.delivery = delivery
                self.selection = selection
            }

            /// Closes the picker the SwiftUI way (one path: its presentation's binding), then hands
            /// the results to the loader, or loads them and hands them over.
            public func picker(_ picker: PHPickerViewController, didFinishPicking results: [PHPickerResult]) {
                dismiss?()
                let sources = results.map(ItemProviderSource.init)
                switch delivery {
                case .follow(let follow):
                    follow(sources, selection)
                case .all(let motion, let onPicked):
                    Self.loadAll(sources.filter { $0.kind != .empty }, motion: motion, then: onPicked)
                }
            }

            private static func loadAll(
                _ sources: [ItemProviderSource], motion: LivePhotoMotion,
                then onPicked: @escaping @MainActor ([Result<PickedItem, PickFailure>]) -> Void
            ) {
                let loading = PickedItemLoading.intoAppLibrary(motion: motion)
                Task { @MainActor in
                    let loader = OrderedLoader<ItemProviderSource, PickedItem>(concurrency: 3) { source in
                        await loading.load(source, key: source.identifier ?? UUID().uuidString) { _ in }
                            .mapError { OrderedLoader<ItemProviderSource, PickedItem>.LoadFailure($0.message) }
                    }
                    var loaded: [Result<PickedItem, PickFailure>] = []
                    for await (_, result) in loader.results(for: sources) {
                        loaded.append(result.mapError { PickFailure(.loadFailed, $0.message) })
                    }
                    onPicked(loaded)
                }
            }
        }
    }

    /// Loads what `PhotoPickerController` picked, following each time it closes what stays
    /// picked: ``PickedItemLoader``'s decisions (`PickedItems`) over `PHPickerViewController`'s
    /// results.
    ///
    /// ```swift
    /// @State private var loader = PickedResultLoader()
    /// ...
    /// .sheet(isPresented: $choosing) { PhotoPickerController(options: options, loader: loader) }
    /// SelectionGridView(loader: loader, thumbnails: thumbnails, onRemove: { loader.remove($0) })
    /// ```
    @available(iOS 17.0, *)
    public typealias PickedResultLoader = PickedItems<ItemProviderSource>

    @available(iOS 17.0, *)
    extension PickedItems where Source == ItemProviderSource {
        /// A loader into the app's library (`PickedMediaStore.shared`), `concurrency` items at
        /// once, Live Photos with their movie unless `motion` says still only; each load asks for
        /// background time, so it finishes when the person leaves the app.
        public convenience init(motion: LivePhotoMotion = .pair, concurrency: Int = 3) {
            self.init(loading: .intoAppLibrary(motion: motion), concurrency: concurrency)
        }
    }
#endif
