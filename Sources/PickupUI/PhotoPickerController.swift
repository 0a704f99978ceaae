#if canImport(PhotosUI) && canImport(Photos) && canImport(UIKit) && canImport(SwiftUI)
    import Foundation
    import PhotosUI
    import Pickup
    import PickupImport
    import SwiftUI
    import UIKit
    import UniformTypeIdentifiers

    /// The library picker on UIKit (`PHPickerViewController`), with the same filter, limit,
    /// order, preselection and `.current` representation as `LibraryPicker`, and the same
    /// loading (`PickedItemLoading`): each file copied out while its provider's temporary copy
    /// still exists, Live Photos with their movie and no library permission, preselected items
    /// (whose providers are always empty, `PHPicker.h`) left out. Results come in selection order.
    public struct PhotoPickerController: UIViewControllerRepresentable {
        let options: LibraryPickerOptions
        let preselected: [String]
        let motion: LivePhotoMotion
        let onPicked: @MainActor ([Result<PickedItem, PickFailure>]) -> Void

        /// A picker with a filter, a limit, preselected items and order, reporting what is picked to
        /// `onPicked` (preselected items are not reported again).
        public init(
            options: LibraryPickerOptions, preselected: [String] = [], motion: LivePhotoMotion = .pair,
            onPicked: @escaping @MainActor ([Result<PickedItem, PickFailure>]) -> Void
        ) {
            self.options = options
            self.preselected = preselected
            self.motion = motion
            self.onPicked = onPicked
        }

        /// Makes PHPickerViewController, set up from the plan.
        public func makeUIViewController(context: Context) -> PHPickerViewController {
            var configuration = PHPickerConfiguration(photoLibrary: .shared())
            configuration.filter = PickerFilterPlan(options.filter).phPickerFilter
            let selection = PickerSelectionPlan(
                limit: options.limit, preselected: preselected, ordered: options.ordered)
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
            Coordinator(
                loading: PickedItemLoading(
                    importer: PickedMediaStore.shared.importer, motion: motion, background: ExpiringActivityTime()),
                onPicked: onPicked)
        }

        /// Receives PHPickerViewController's results.
        public final class Coordinator: NSObject, PHPickerViewControllerDelegate {
            let loading: PickedItemLoading
            let onPicked: @MainActor ([Result<PickedItem, PickFailure>]) -> Void
            var dismiss: DismissAction?

            init(loading: PickedItemLoading, onPicked: @escaping @MainActor ([Result<PickedItem, PickFailure>]) -> Void)
            {
                self.loading = loading
                self.onPicked = onPicked
            }

            /// Closes the picker the SwiftUI way (one path: its presentation's binding), then loads the
            /// results and hands them over.
            public func picker(_ picker: PHPickerViewController, didFinishPicking results: [PHPickerResult]) {
                dismiss?()
                let sources = results.map(ItemProviderSource.init).filter { $0.kind != .empty }
                let onPicked = self.onPicked
                let loading = self.loading
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
#endif
