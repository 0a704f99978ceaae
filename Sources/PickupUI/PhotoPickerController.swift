#if canImport(PhotosUI) && canImport(UIKit) && canImport(SwiftUI)
    import Foundation
    import PhotosUI
    import Pickup
    import PickupImport
    import SwiftUI
    import UIKit
    import UniformTypeIdentifiers

    /// The library picker for iOS 15 (`PHPickerViewController`), with the same
    /// filter, limit, order, preselection and `.current` representation as
    /// `LibraryPicker`. Each picked file is imported while its provider's
    /// temporary copy still exists.
    public struct PhotoPickerController: UIViewControllerRepresentable {
        let options: LibraryPickerOptions
        let preselected: [String]
        let onPicked: @MainActor ([Result<ImportedItem, ImportError>]) -> Void

        /// A picker with a filter, a limit, preselected items and order, reporting what is picked to `onPicked`.
        public init(
            options: LibraryPickerOptions, preselected: [String] = [],
            onPicked: @escaping @MainActor ([Result<ImportedItem, ImportError>]) -> Void
        ) {
            self.options = options
            self.preselected = preselected
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
            return controller
        }

        /// Nothing to update: the configuration is fixed when the picker opens.
        public func updateUIViewController(_ controller: PHPickerViewController, context: Context) {}

        /// The delegate that takes the results.
        public func makeCoordinator() -> Coordinator { Coordinator(onPicked: onPicked) }

        /// Receives PHPickerViewController's results.
        public final class Coordinator: NSObject, PHPickerViewControllerDelegate {
            let onPicked: @MainActor ([Result<ImportedItem, ImportError>]) -> Void

            init(onPicked: @escaping @MainActor ([Result<ImportedItem, ImportError>]) -> Void) {
                self.onPicked = onPicked
            }

            /// Hands the results over and closes the picker.
            public func picker(_ picker: PHPickerViewController, didFinishPicking results: [PHPickerResult]) {
                picker.dismiss(animated: true)
                let providers = results.map { ProviderBox(provider: $0.itemProvider) }
                let onPicked = self.onPicked
                Task {
                    let loader = OrderedLoader<ProviderBox, ImportedItem>(concurrency: 3) { box in
                        await Coordinator.load(box.provider)
                    }
                    var loaded: [Result<ImportedItem, ImportError>] = []
                    for await (_, result) in loader.results(for: providers) {
                        loaded.append(result.mapError { ImportError(.sourceUnreadable, $0.message) })
                    }
                    onPicked(loaded)
                }
            }

            /// The provider's file, imported inside its completion handler (the file is deleted after).
            static func load(
                _ provider: NSItemProvider
            ) async -> Result<ImportedItem, OrderedLoader<ProviderBox, ImportedItem>.LoadFailure> {
                let type =
                    provider.hasItemConformingToTypeIdentifier(UTType.movie.identifier) ? UTType.movie : UTType.image
                return await withCheckedContinuation { continuation in
                    _ = provider.loadFileRepresentation(forTypeIdentifier: type.identifier) { url, error in
                        guard let url else {
                            continuation.resume(
                                returning: .failure(.init(error?.localizedDescription ?? "Photos gave no file")))
                            return
                        }
                        // Copy out before returning: the system deletes the file when this handler ends.
                        let keep = FileManager.default.temporaryDirectory.appendingPathComponent(
                            UUID().uuidString + "-" + url.lastPathComponent)
                        do {
                            try FileManager.default.copyItem(at: url, to: keep)
                        } catch {
                            continuation.resume(returning: .failure(.init(error.localizedDescription)))
                            return
                        }
                        Task {
                            defer { try? FileManager.default.removeItem(at: keep) }
                            do {
                                continuation.resume(returning: .success(try await PickedMediaStore.shared.keep(keep)))
                            } catch let error as ImportError {
                                continuation.resume(returning: .failure(.init(error.message)))
                            } catch {
                                continuation.resume(returning: .failure(.init(error.localizedDescription)))
                            }
                        }
                    }
                }
            }
        }

        /// `@unchecked Sendable` is safe: NSItemProvider is thread-safe for loading (Apple
        /// documents its load methods as callable from any thread), and each box is loaded once.
        public struct ProviderBox: @unchecked Sendable {
            let provider: NSItemProvider
        }
    }
#endif
