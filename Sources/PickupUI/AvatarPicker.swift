#if canImport(SwiftUI) && canImport(PhotosUI) && canImport(UIKit)
    import Pickup
    import PickupImport
    import PhotosUI
    import SwiftUI
    import UIKit

    /// A round avatar with a placeholder, that opens the camera or the library to
    /// pick a new photo; the picked photo is imported and handed back. iOS 17 (two-value `onChange`).
    @available(iOS 17.0, macOS 14.0, *)
    public struct AvatarPicker: View {
        let image: UIImage?
        let size: CGFloat
        let onPicked: @MainActor (ImportedItem) -> Void
        @State private var choosing = false
        @State private var showsCamera = false
        @State private var showsLibrary = false
        @State private var libraryItem: PhotosPickerItem?
        @State private var message: String?

        /// A round picker showing `image` (a placeholder when nil) at `size` points; `onPicked` gets the imported
        /// photo.
        public init(image: UIImage?, size: CGFloat = 96, onPicked: @escaping @MainActor (ImportedItem) -> Void) {
            self.image = image
            self.size = size
            self.onPicked = onPicked
        }

        /// The avatar, and the picker it opens when tapped.
        public var body: some View {
            Button {
                choosing = true
            } label: {
                Group {
                    if let image {
                        Image(uiImage: image).resizable().scaledToFill()
                    } else {
                        Image(systemName: "person.crop.circle.fill").resizable().foregroundStyle(.secondary)
                    }
                }
                .frame(width: size, height: size)
                .clipShape(Circle())
            }
            .accessibilityLabel(Text(image == nil ? "Add a profile photo" : "Change the profile photo"))
            .confirmationDialog("Profile photo", isPresented: $choosing) {
                Button("Take Photo") {
                    switch CameraPicker.availability(
                        for: CameraOptions(mode: .photo, device: .front, allowsEditing: true))
                    {
                    case .ready, .mustAsk: showsCamera = true
                    case .unavailable(let text), .denied(let text): message = text
                    }
                }
                Button("Choose from Library") { showsLibrary = true }
            }
            .photosPicker(
                isPresented: $showsLibrary, selection: $libraryItem, matching: .images, preferredItemEncoding: .current
            )
            .onChange(of: libraryItem) { _, item in
                guard let item else { return }
                let picked = HandedOverPickerItem(item: item, key: item.itemIdentifier ?? "avatar")
                Task { @MainActor in
                    do {
                        if let photo = try await AvatarPicker.loadPhoto(picked) { onPicked(photo) }
                    } catch {
                        message = LibraryResources.explain(error)
                    }
                }
            }
            .fullScreenCover(isPresented: $showsCamera) {
                CameraPicker(options: CameraOptions(mode: .photo, device: .front, allowsEditing: true)) { result in
                    showsCamera = false
                    switch result {
                    case .success(let item): onPicked(item)
                    case .failure(let error): message = error.message
                    case nil: break
                    }
                }
            }
            .alert(message ?? "", isPresented: Binding(get: { message != nil }, set: { if !$0 { message = nil } })) {
                Button("OK", role: .cancel) {}
            }
        }

        /// Loads the picked photo off the main actor, imported into the app's library.
        nonisolated static func loadPhoto(_ picked: HandedOverPickerItem) async throws -> ImportedItem? {
            try await picked.item.loadTransferable(type: PickedPhoto.self)?.item
        }
    }
#endif
