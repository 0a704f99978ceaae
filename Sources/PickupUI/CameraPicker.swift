#if canImport(UIKit) && canImport(SwiftUI) && canImport(AVFoundation)
    import AVFoundation
    import Foundation
    import Pickup
    import PickupImport
    import SwiftUI
    import UIKit
    import UniformTypeIdentifiers

    /// The camera (`UIImagePickerController`) for a photo or a video: capture mode,
    /// quality, maximum duration, flash, front or rear, editing. What it captures is
    /// imported into the app's library before the picker closes.
    ///
    /// Needs `NSCameraUsageDescription` (and `NSMicrophoneUsageDescription` for video
    /// with sound) in Info.plist. Check `CameraPicker.availability(for:)` first and show
    /// its message when the camera cannot open.
    public struct CameraPicker: UIViewControllerRepresentable {
        let options: CameraOptions
        let onFinish: @MainActor (Result<ImportedItem, ImportError>?) -> Void

        /// `onFinish` gets the imported item, an error, or nil when the person cancelled.
        public init(options: CameraOptions, onFinish: @escaping @MainActor (Result<ImportedItem, ImportError>?) -> Void)
        {
            self.options = options
            self.onFinish = onFinish
        }

        /// Whether the camera can open for these options, and what to say when not.
        @MainActor
        public static func availability(for options: CameraOptions) -> CameraAvailability {
            let permission: CameraAvailability.Permission =
                switch AVCaptureDevice.authorizationStatus(for: .video) {
                case .authorized: .authorized
                case .denied: .denied
                case .restricted: .restricted
                default: .notDetermined
                }
            return CameraAvailability.decide(
                sourceAvailable: UIImagePickerController.isSourceTypeAvailable(.camera),
                availableMediaTypes: UIImagePickerController.availableMediaTypes(for: .camera) ?? [],
                permission: permission, options: options)
        }

        /// Asks for camera access (the system asks once; afterwards only Settings can change it).
        public static func requestAccess() async -> Bool { await AVCaptureDevice.requestAccess(for: .video) }

        /// Makes the system camera, set up from the options.
        public func makeUIViewController(context: Context) -> UIImagePickerController {
            let picker = UIImagePickerController()
            picker.sourceType = .camera
            picker.mediaTypes = [options.mode == .photo ? UTType.image.identifier : UTType.movie.identifier]
            picker.cameraCaptureMode = options.mode == .photo ? .photo : .video
            picker.cameraDevice = options.device == .front ? .front : .rear
            picker.allowsEditing = options.allowsEditing
            if UIImagePickerController.isFlashAvailable(for: picker.cameraDevice) {
                picker.cameraFlashMode =
                    switch options.flash {
                    case .auto: .auto
                    case .on: .on
                    case .off: .off
                    }
            }
            if options.mode == .video {
                picker.videoMaximumDuration = options.maximumDuration
                picker.videoQuality =
                    switch options.quality {
                    case .high, .hd1920x1080: .typeHigh
                    case .medium: .typeMedium
                    case .low: .typeLow
                    case .vga640x480: .type640x480
                    case .hd1280x720: .typeIFrame1280x720
                    }
            }
            picker.delegate = context.coordinator
            return picker
        }

        /// Nothing to update: the options are fixed when the camera opens.
        public func updateUIViewController(_ controller: UIImagePickerController, context: Context) {}

        /// The delegate that imports the capture.
        public func makeCoordinator() -> Coordinator { Coordinator(onFinish: onFinish) }

        /// Receives the capture from UIImagePickerController and imports it.
        public final class Coordinator: NSObject, UIImagePickerControllerDelegate, UINavigationControllerDelegate {
            let onFinish: @MainActor (Result<ImportedItem, ImportError>?) -> Void

            init(onFinish: @escaping @MainActor (Result<ImportedItem, ImportError>?) -> Void) {
                self.onFinish = onFinish
            }

            /// Imports the photo or movie taken, then reports it.
            public func imagePickerController(
                _ picker: UIImagePickerController,
                didFinishPickingMediaWithInfo info: [UIImagePickerController.InfoKey: Any]
            ) {
                let onFinish = self.onFinish
                // A movie comes as a file that the system removes later; a photo as an image to encode.
                var file = info[.mediaURL] as? URL
                if file == nil, let image = (info[.editedImage] ?? info[.originalImage]) as? UIImage,
                    let data = image.jpegData(compressionQuality: 0.9)
                {
                    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                        "IMG_\(UUID().uuidString.prefix(8)).JPG")
                    if (try? data.write(to: url, options: .atomic)) != nil { file = url }
                }
                picker.dismiss(animated: true)
                guard let file else {
                    onFinish(.failure(ImportError(.sourceUnreadable, "the camera returned nothing to keep")))
                    return
                }
                let box = URLBox(url: file)
                Task { @MainActor in
                    do {
                        let item = try await PickedMediaStore.shared.keep(box.url)
                        // The library holds a durable copy now: the camera's temporary file
                        // (the JPEG made above, or the movie it recorded) goes. After a failed
                        // import it stays, for the system to clear, as the only copy.
                        try? FileManager.default.removeItem(at: box.url)
                        onFinish(.success(item))
                    } catch let error as ImportError {
                        onFinish(.failure(error))
                    } catch {
                        onFinish(.failure(ImportError(.sourceUnreadable, error.localizedDescription)))
                    }
                }
            }

            /// Reports that the person cancelled.
            public func imagePickerControllerDidCancel(_ picker: UIImagePickerController) {
                picker.dismiss(animated: true)
                onFinish(nil)
            }
        }

        struct URLBox: Sendable { let url: URL }
    }
#endif
