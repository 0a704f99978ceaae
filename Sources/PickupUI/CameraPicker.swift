#if canImport(UIKit) && canImport(SwiftUI) && canImport(AVFoundation) && canImport(ImageIO)
    import AVFoundation
    import Foundation
    import ImageIO
    import Pickup
    import PickupImport
    import SwiftUI
    import UIKit
    import UniformTypeIdentifiers

    /// The camera (`UIImagePickerController`) for a photo or a video: capture mode,
    /// quality, maximum duration, flash, front or rear, editing. The picker closes when the
    /// capture is taken; the capture is then imported into the app's library (inside
    /// background time) and handed to `onFinish`.
    ///
    /// Needs `NSCameraUsageDescription` (and `NSMicrophoneUsageDescription` for video
    /// with sound) in Info.plist. Check `CameraPicker.availability(for:)` first and show
    /// its message when the camera cannot open. A movie that cannot be exported to the quality
    /// asked is kept as recorded (a capture is never lost): check the item's size where a limit
    /// matters.
    ///
    /// ```swift
    /// let options = CameraOptions(mode: .video, maximumDuration: 60)
    /// switch CameraPicker.availability(for: options) {
    /// case .ready: showCamera = true
    /// case .mustAsk: showCamera = await CameraPicker.requestAccess(for: options)
    /// case .denied(let message), .unavailable(let message): self.message = message
    /// }
    /// ...
    /// .fullScreenCover(isPresented: $showCamera) {
    ///     CameraPicker(options: options) { result in
    ///         if case .success(let item) = result { captured = item }
    ///     }
    /// }
    /// ```
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
            return CameraAvailability.decide(
                sourceAvailable: UIImagePickerController.isSourceTypeAvailable(.camera),
                availableMediaTypes: UIImagePickerController.availableMediaTypes(for: .camera) ?? [],
                permission: permission(.video), options: options, needsMicrophone: options.mode == .video,
                microphone: permission(.audio),
                declaredKeys: CameraAvailability.usageKeys.filter {
                    Bundle.main.object(forInfoDictionaryKey: $0) != nil
                })
        }

        static func permission(_ media: AVMediaType) -> CameraAvailability.Permission {
            switch AVCaptureDevice.authorizationStatus(for: media) {
            case .authorized: return .authorized
            case .denied: return .denied
            case .restricted: return .restricted
            default: return .notDetermined
            }
        }

        /// Asks for camera access, and for video the microphone too (the system asks once;
        /// afterwards only Settings can change it). True when the camera may open.
        public static func requestAccess(for options: CameraOptions = CameraOptions()) async -> Bool {
            let camera = await AVCaptureDevice.requestAccess(for: .video)
            if camera, options.mode == .video, AVCaptureDevice.authorizationStatus(for: .audio) == .notDetermined {
                _ = await AVCaptureDevice.requestAccess(for: .audio)
            }
            return camera
        }

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
                // Never `.typeIFrame1280x720`: an editing format, every frame a keyframe (CameraRecordingPlan).
                picker.videoQuality =
                    switch CameraRecordingPlan(options.quality).recording {
                    case .high: .typeHigh
                    case .medium: .typeMedium
                    case .low: .typeLow
                    case .vga640x480: .type640x480
                    }
            }
            picker.delegate = context.coordinator
            context.coordinator.dismiss = context.environment.dismiss
            return picker
        }

        /// Keeps SwiftUI's dismiss action current; the options are fixed when the camera opens.
        public func updateUIViewController(_ controller: UIImagePickerController, context: Context) {
            context.coordinator.dismiss = context.environment.dismiss
        }

        /// The delegate that imports the capture.
        public func makeCoordinator() -> Coordinator { Coordinator(options: options, onFinish: onFinish) }

        /// Receives the capture from UIImagePickerController and imports it.
        ///
        /// The picker is closed one way only: SwiftUI's dismiss action (its presentation's binding
        /// goes false), never `UIViewController.dismiss` as well, which would also close the sheet
        /// that presented it.
        public final class Coordinator: NSObject, UIImagePickerControllerDelegate, UINavigationControllerDelegate {
            let options: CameraOptions
            let onFinish: @MainActor (Result<ImportedItem, ImportError>?) -> Void
            var dismiss: DismissAction?

            init(options: CameraOptions, onFinish: @escaping @MainActor (Result<ImportedItem, ImportError>?) -> Void) {
                self.options = options
                self.onFinish = onFinish
            }

            /// Imports the photo or movie taken, then reports it.
            public func imagePickerController(
                _ picker: UIImagePickerController,
                didFinishPickingMediaWithInfo info: [UIImagePickerController.InfoKey: Any]
            ) {
                let onFinish = self.onFinish
                let export = CameraRecordingPlan(options.quality).export
                // A movie comes as the picker's temporary file, for which Apple documents no life
                // beyond this call: moved into the app's inbox now, before the picker goes. A photo comes as an
                // image to encode, with the capture's metadata (`.mediaMetadata`: date, camera,
                // exposure; the camera picker gives no location).
                let movie = (info[.mediaURL] as? URL).map(Coordinator.takeMovie)
                let edited = info[.editedImage] as? UIImage
                let photo = (edited ?? info[.originalImage] as? UIImage).map {
                    CapturedPhoto(
                        image: $0, metadata: (info[.mediaMetadata] as? [String: Any]).map(MetadataBox.init),
                        edited: edited != nil)
                }
                dismiss?()
                Task { @MainActor in
                    let result: Result<ImportedItem, ImportError>
                    do {
                        result = try await BackgroundTime.run(
                            "Pickup: keeping a capture", granting: ExpiringActivityTime()
                        ) {
                            await Coordinator.keep(movie: movie, photo: photo, export: export)
                        }
                    } catch {
                        result = .failure(
                            ImportError(.cancelled, "the capture could not be kept before the app was suspended"))
                    }
                    onFinish(result)
                }
            }

            /// Reports that the person cancelled.
            public func imagePickerControllerDidCancel(_ picker: UIImagePickerController) {
                dismiss?()
                onFinish(nil)
            }

            /// The camera's movie moved into the importer's inbox (a rename within the app's
            /// container); where it was when it cannot be moved.
            nonisolated static func takeMovie(_ url: URL) -> URLBox {
                let target = PickedMediaStore.shared.importer.inbox.reserve(url.lastPathComponent)
                do {
                    try FileManager.default.createDirectory(
                        atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    try FileManager.default.moveItem(atPath: url.path, toPath: target)
                    return URLBox(url: URL(fileURLWithPath: target))
                } catch {
                    return URLBox(url: url)
                }
            }

            /// Off the main actor: the photo encoded (or the movie exported to the size asked), then
            /// imported. A movie that cannot be exported is kept as it was recorded, never lost; the
            /// camera's movie and what was made here go once the library has its copy, or the
            /// capture failed.
            nonisolated static func keep(
                movie: URLBox?, photo: CapturedPhoto?, export: ExportPreset?
            ) async -> Result<ImportedItem, ImportError> {
                var file: URL
                var made: URL?
                defer {
                    if let movie {
                        PickedMediaStore.shared.importer.inbox.discard(
                            PickedFile(path: movie.url.path, contentType: nil))
                        try? FileManager.default.removeItem(at: movie.url)
                    }
                    if let made { try? FileManager.default.removeItem(at: made) }
                }
                if let movie {
                    file = movie.url
                    if let export {
                        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
                            "MOV_\(UUID().uuidString.prefix(8)).mp4")
                        do {
                            _ = try await AVFoundationExporter().export(
                                movie.url.path, to: output.path, ExportOptions(preset: export), events: nil)
                            file = output
                            made = output
                        } catch {
                            try? FileManager.default.removeItem(at: output)
                        }
                    }
                } else if let photo, let written = photo.writeJPEG() {
                    file = written
                    made = written
                } else {
                    return .failure(ImportError(.sourceUnreadable, "the camera returned nothing to keep"))
                }
                do {
                    let item = try await PickedMediaStore.shared.importer.keep(
                        PickedFile(path: file.path, contentType: nil), key: "camera")
                    guard let imported = item.imported else {
                        return .failure(ImportError(.notMedia, "the capture could not be read"))
                    }
                    return .success(imported)
                } catch {
                    return .failure(error)
                }
            }
        }

        struct URLBox: Sendable { let url: URL }

        /// The capture's metadata dictionary (`.mediaMetadata`), handed to the encoding task.
        ///
        /// `@unchecked Sendable` is safe: it is a property list (strings, numbers, dictionaries)
        /// that nothing mutates after the picker hands it over.
        struct MetadataBox: @unchecked Sendable { let properties: [String: Any] }

        /// A captured photo and its metadata, encoded off the main actor.
        ///
        /// `@unchecked Sendable` is safe: `UIImage` is `NS_SWIFT_SENDABLE` (`UIImage.h:76`, 26.2)
        /// and immutable; the metadata is a `MetadataBox`.
        struct CapturedPhoto: @unchecked Sendable {
            let image: UIImage
            let metadata: MetadataBox?
            /// Whether it is the system editor's crop: the metadata then describes the sensor's
            /// picture, so its orientation and pixel sizes are left out.
            let edited: Bool

            /// A JPEG with the capture's metadata (EXIF date, camera), its orientation the
            /// image's own (`CGImageDestination.h`: properties are added with the image).
            func writeJPEG() -> URL? {
                guard let cgImage = image.cgImage else { return nil }
                let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "IMG_\(UUID().uuidString.prefix(8)).JPG")
                guard
                    let destination = CGImageDestinationCreateWithURL(
                        url as CFURL, UTType.jpeg.identifier as CFString, 1, nil)
                else { return nil }
                var properties = metadata?.properties ?? [:]
                if edited {
                    for key in [kCGImagePropertyPixelWidth, kCGImagePropertyPixelHeight] {
                        properties[key as String] = nil
                    }
                    if var tiff = properties[kCGImagePropertyTIFFDictionary as String] as? [String: Any] {
                        tiff[kCGImagePropertyTIFFOrientation as String] = nil
                        properties[kCGImagePropertyTIFFDictionary as String] = tiff
                    }
                    if var exif = properties[kCGImagePropertyExifDictionary as String] as? [String: Any] {
                        exif[kCGImagePropertyExifPixelXDimension as String] = nil
                        exif[kCGImagePropertyExifPixelYDimension as String] = nil
                        properties[kCGImagePropertyExifDictionary as String] = exif
                    }
                }
                properties[kCGImagePropertyOrientation as String] = CapturedPhoto.orientation(image.imageOrientation)
                properties[kCGImageDestinationLossyCompressionQuality as String] = 0.9
                CGImageDestinationAddImage(destination, cgImage, properties as CFDictionary)
                return CGImageDestinationFinalize(destination) ? url : nil
            }

            /// EXIF's orientation number for UIKit's.
            static func orientation(_ orientation: UIImage.Orientation) -> Int {
                switch orientation {
                case .up: return 1
                case .upMirrored: return 2
                case .down: return 3
                case .downMirrored: return 4
                case .leftMirrored: return 5
                case .right: return 6
                case .rightMirrored: return 7
                case .left: return 8
                @unknown default: return 1
                }
            }
        }
    }
#endif
