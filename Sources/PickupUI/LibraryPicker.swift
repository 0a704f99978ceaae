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
        /// Shown inside the screen rather than as a sheet (iOS 17; ignored before). An inline
        /// picker always updates the selection continuously.
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
    /// style (which implies continuous selection, so the person is never left without a way to
    /// confirm), and `.current` encoding so that nothing is transcoded on the way out.
    /// It works on the shared photo library, so items keep their identifiers: items already
    /// loaded stay selected (preselected) and are not loaded again. It asks for no permission:
    /// the picker runs outside the app and hands over only what the person picked.
    ///
    /// ```swift
    /// @State private var picked: [PhotosPickerItem] = []
    ///
    /// LibraryPicker(
    ///     selection: $picked,
    ///     options: LibraryPickerOptions(filter: .videos, limit: 5)
    /// ) {
    ///     Label("Choose Videos", systemImage: "video")
    /// }
    /// ```
    @available(iOS 16.0, *)
    public struct LibraryPicker<Label: View>: View {
        @Binding var selection: [PhotosPickerItem]
        let options: LibraryPickerOptions
        let label: () -> Label
        @State private var presented = false

        /// A picker that puts what is picked in `selection`, opened by `label`.
        public init(
            selection: Binding<[PhotosPickerItem]>, options: LibraryPickerOptions,
            @ViewBuilder label: @escaping () -> Label
        ) {
            _selection = selection
            self.options = options
            self.label = label
        }

        /// Photos' picker, set up from the options: embedded in the screen (inline), or a button
        /// that opens it as a sheet.
        public var body: some View {
            if #available(iOS 17.0, macOS 14.0, *), plan.inline {
                PhotosPicker(
                    "", selection: $selection, maxSelectionCount: limit, selectionBehavior: behavior,
                    matching: filter, preferredItemEncoding: .current, photoLibrary: .shared()
                )
                .photosPickerStyle(.inline)
                .photosPickerDisabledCapabilities(plan.hidesSelectionActions ? .selectionActions : [])
            } else {
                Button {
                    presented = true
                } label: {
                    label()
                }
                .photosPicker(
                    isPresented: $presented, selection: $selection, maxSelectionCount: limit,
                    selectionBehavior: behavior, matching: filter, preferredItemEncoding: .current,
                    photoLibrary: .shared())
            }
        }

        private var plan: PickerBehaviorPlan {
            if #available(iOS 17.0, macOS 14.0, *) {
                return PickerBehaviorPlan(
                    continuous: options.continuous, ordered: options.ordered, inline: options.inline, modern: true)
            }
            return PickerBehaviorPlan(
                continuous: options.continuous, ordered: options.ordered, inline: options.inline, modern: false)
        }

        private var limit: Int? { options.limit == 0 ? nil : options.limit }
        private var filter: PHPickerFilter? { PickerFilterPlan(options.filter).phPickerFilter }

        private var behavior: PhotosPickerSelectionBehavior {
            let plan = self.plan
            if #available(iOS 17.0, macOS 14.0, *), plan.continuous {
                return plan.ordered ? .continuousAndOrdered : .continuous
            }
            return plan.ordered ? .ordered : .default
        }

        /// Items for identifiers already picked (the picker shows them selected). Photos hands
        /// nothing over for them (`PHPicker.h`), so the loader keeps what it had
        /// (`PickedItems.restore(_:)`) and never loads them.
        public static func preselected(_ identifiers: [String]) -> [PhotosPickerItem] {
            identifiers.map { PhotosPickerItem(itemIdentifier: $0) }
        }
    }
#endif
