#if canImport(PhotosUI) && canImport(SwiftUI)
    import Pickup
    import PhotosUI
    import SwiftUI

    /// How the library picker looks and behaves.
    public struct LibraryPickerOptions: Sendable {
        /// What the picker shows (nil: everything).
        public var filter: MediaFilter?
        /// 0: no limit.
        public var limit: Int
        /// Whether order badges are shown (the order is kept either way).
        public var ordered: Bool
        /// Selection updates while the picker is open (iOS 17; ignored before).
        public var continuous: Bool
        /// Shown inside the screen rather than as a sheet (iOS 17; ignored before).
        public var inline: Bool

        /// Options: a filter, a limit (0: none), ordered, continuous, inline.
        public init(
            filter: MediaFilter? = nil, limit: Int = 0, ordered: Bool = true, continuous: Bool = false,
            inline: Bool = false
        ) {
            self.filter = filter
            self.limit = limit
            self.ordered = ordered
            self.continuous = continuous
            self.inline = inline
        }
    }

    /// The photo-library picker (SwiftUI `PhotosPicker`, iOS 16+): Pickup's filter as a
    /// PHPickerFilter, the selection limit, ordered and continuous selection, the inline
    /// style, and `.current` encoding so that nothing is transcoded on the way out.
    /// It works on the shared photo library, so items keep their identifiers: items
    /// already loaded stay selected (preselected) and are not loaded again.
    @available(iOS 16.0, *)
    public struct LibraryPicker<Label: View>: View {
        @Binding var selection: [PhotosPickerItem]
        let options: LibraryPickerOptions
        let label: () -> Label

        /// A picker that puts what is picked in `selection`, opened by `label`.
        public init(
            selection: Binding<[PhotosPickerItem]>, options: LibraryPickerOptions,
            @ViewBuilder label: @escaping () -> Label
        ) {
            _selection = selection
            self.options = options
            self.label = label
        }

        /// Photos' picker, set up from the options.
        public var body: some View {
            let picker = PhotosPicker(
                selection: $selection, maxSelectionCount: options.limit == 0 ? nil : options.limit,
                selectionBehavior: behavior, matching: PickerFilterPlan(options.filter).phPickerFilter,
                preferredItemEncoding: .current, photoLibrary: .shared()
            ) {
                label()
            }
            if #available(iOS 17.0, macOS 14.0, *), options.inline {
                picker.photosPickerStyle(.inline).photosPickerDisabledCapabilities(.selectionActions)
            } else {
                picker
            }
        }

        private var behavior: PhotosPickerSelectionBehavior {
            if #available(iOS 17.0, macOS 14.0, *), options.continuous {
                return options.ordered ? .continuousAndOrdered : .continuous
            }
            return options.ordered ? .ordered : .default
        }

        /// Items for identifiers already picked (the picker shows them selected).
        public static func preselected(_ identifiers: [String]) -> [PhotosPickerItem] {
            identifiers.map { PhotosPickerItem(itemIdentifier: $0) }
        }
    }
#endif
