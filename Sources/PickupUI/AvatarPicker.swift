#if canImport(SwiftUI) && canImport(PhotosUI) && canImport(UIKit)
    import Pickup
    import PickupImport
    import PhotosUI
    import SwiftUI
    import UIKit

    /// A round avatar with a placeholder, that opens the camera or the library to
    /// pick a new photo; the picked photo is imported and handed back. iOS 17 (two-value `onChange`).
    ///
    /// ```swift
    /// AvatarPicker(image: avatar) { item in
    ///     if let file = item.primary {
    ///         avatar = UIImage(contentsOfFile: library.path(of: file))
    ///     }
    /// }
    /// ```
    @available(iOS 17.0, macOS 14.0, *)
    public struct AvatarPicker: View {
        let image: UIImage?
        let size: CGFloat
        let onPicked: @MainActor (ImportedItem) -> Void
        @State private var choosing = false
        @State private var showsCamera = false
        @State private var showsLibrary = false
        @State private var libraryItem: PhotosPickerItem?
        @State private var cropping: CropImage?
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
            .accessibilityLabel(
                Text(
                    image == nil
                        ? Localized.string("Add a profile photo") : Localized.string("Change the profile photo"))
            )
            .confirmationDialog(Localized.string("Profile photo"), isPresented: $choosing) {
                // Offered only to an app that may ask for the camera: without the key the system
                // ends the app when the camera is asked for (CameraAvailability.usageKeys).
                if Bundle.main.object(forInfoDictionaryKey: "NSCameraUsageDescription") != nil {
                    Button(Localized.string("Take Photo")) {
                        switch CameraPicker.availability(
                            for: CameraOptions(mode: .photo, device: .front, allowsEditing: true))
                        {
                        case .ready, .mustAsk: showsCamera = true
                        case .unavailable(let text), .denied(let text): message = Localized.message(text)
                        }
                    }
                }
                Button(Localized.string("Choose from Library")) { showsLibrary = true }
            }
            .photosPicker(
                isPresented: $showsLibrary, selection: $libraryItem, matching: .images, preferredItemEncoding: .current
            )
            .onChange(of: libraryItem) { _, item in
                guard let item else { return }
                // Picking the same photo again must work: the selection is emptied at once.
                libraryItem = nil
                let source = PhotosPickerSource(item)
                Task { @MainActor in
                    do {
                        cropping = try await AvatarPicker.loadForCrop(source)
                    } catch {
                        message = String(describing: error)
                    }
                }
            }
            .fullScreenCover(item: $cropping) { picked in
                AvatarCropView(image: picked.image) { square in
                    cropping = nil
                    guard let square else { return }
                    Task { @MainActor in
                        do {
                            onPicked(try await AvatarPicker.keep(CropImage(image: square)))
                        } catch {
                            message = String(describing: error)
                        }
                    }
                }
            }
            .fullScreenCover(isPresented: $showsCamera) {
                CameraPicker(options: CameraOptions(mode: .photo, device: .front, allowsEditing: true)) { result in
                    showsCamera = false
                    switch result {
                    case .success(let item): onPicked(item)
                    case .failure(let error): message = Localized.message(error.message)
                    case nil: break
                    }
                }
            }
            .alert(message ?? "", isPresented: Binding(get: { message != nil }, set: { if !$0 { message = nil } })) {
                Button(Localized.string("OK"), role: .cancel) {}
            }
        }

        /// Loads the picked photo off the main actor, decoded for the editor at no more than 2048
        /// pixels (`CGImageSourceCreateThumbnailAtIndex`, upright), never whole.
        nonisolated static func loadForCrop(_ source: PhotosPickerSource) async throws -> CropImage {
            let inbox = PickedFileInbox.temporary
            let file = try await source.loadFile(into: inbox) { _ in }
            defer { inbox.discard(file) }
            guard let image = ImageDownsampler.image(at: file.path, maxPixels: 2048) else {
                throw PhotosLoadError(description: Localized.string("This photo could not be read. Pick another."))
            }
            return CropImage(image: image)
        }

        /// The square as a JPEG, imported into the app's library.
        nonisolated static func keep(_ square: CropImage) async throws -> ImportedItem {
            let inbox = PickedFileInbox.temporary
            let path = inbox.reserve("Avatar.jpg")
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            guard let data = square.image.jpegData(compressionQuality: 0.9) else {
                throw PhotosLoadError(description: Localized.string("The photo could not be saved. Try again."))
            }
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            let item = try await PickedMediaStore.shared.importer.keep(
                PickedFile(path: path, contentType: "public.jpeg"), key: "avatar")
            guard let imported = item.imported else {
                throw PhotosLoadError(description: Localized.string("The photo could not be saved. Try again."))
            }
            return imported
        }
    }

    /// A decoded picture handed between the loading task and the editor.
    ///
    /// `@unchecked Sendable` is safe: `UIImage` is `NS_SWIFT_SENDABLE` (`UIImage.h:76`), and
    /// nothing changes it after it is made. (A plain `Sendable` struct of it would do; this
    /// keeps the claim in one place.)
    struct CropImage: Identifiable, @unchecked Sendable {
        let id = UUID()
        let image: UIImage
    }
#endif
