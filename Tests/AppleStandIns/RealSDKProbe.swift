// The stand-ins' claims, written once as code: every declaration of AVFoundation, AVKit,
// CoreGraphics, CoreTransferable, Photos, PhotosUI, UIKit and UniformTypeIdentifiers that
// the stand-ins make, used with the types, isolation and Sendable conformances they
// declare, and SwiftUI's members whose concurrency matters (App, State, Binding, task,
// onChange, photosPicker, the UIKit bridges). scripts/check-apple-ui.sh compiles it
// against the stand-ins and scripts/check-ios.sh against Apple's real SDK: a stand-in that
// drifts from Apple's declarations fails one of the two.
#if canImport(PhotosUI) && canImport(AVKit) && canImport(UIKit)
    import AVFoundation
    import AVKit
    import CoreGraphics
    import CoreTransferable
    import Foundation
    import Photos
    import PhotosUI
    import SwiftUI
    import UIKit
    import UniformTypeIdentifiers

    /// Compiles only for a `Sendable` type: the stand-ins' Sendable claims.
    func sendable<T: Sendable>(_: T.Type) {}

    // MARK: CoreGraphics, CoreMedia, AVFoundation

    func probeAVFoundation(url: URL) async throws {
        sendable(CGImage.self)
        sendable(CMTime.self)
        sendable(CMTimeRange.self)
        sendable(AVFileType.self)
        sendable(AVMediaType.self)
        sendable(AVAuthorizationStatus.self)
        sendable(AVAssetExportSession.Status.self)
        let time = CMTime(seconds: 1.5, preferredTimescale: 600)
        let _: Double = time.seconds
        let _: [CMTime] = [.zero, .positiveInfinity]
        _ = CMTimeRange(start: .zero, end: time)
        let asset: AVAsset = AVURLAsset(url: url, options: nil)
        let generator = AVAssetImageGenerator(asset: asset)
        generator.appliesPreferredTrackTransform = true
        generator.maximumSize = CGSize(width: 1, height: 1)
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .positiveInfinity
        let (image, actual): (CGImage, CMTime) = try await generator.image(at: time)
        let _: Int = image.width + image.height
        _ = actual
        let _: [AVFileType] = [.mov, .mp4]
        let _: [String] = [
            AVAssetExportPresetPassthrough, AVAssetExportPresetLowQuality, AVAssetExportPresetMediumQuality,
            AVAssetExportPresetHighestQuality, AVAssetExportPreset640x480, AVAssetExportPreset960x540,
            AVAssetExportPreset1280x720, AVAssetExportPreset1920x1080, AVAssetExportPreset3840x2160,
            AVAssetExportPresetHEVC1920x1080, AVAssetExportPresetHEVC3840x2160,
            AVAssetExportPresetHEVCHighestQuality,
        ]
        guard let session = AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetPassthrough) else {
            return
        }
        session.timeRange = CMTimeRange(start: .zero, end: time)
        session.fileLengthLimit = 1
        session.metadataItemFilter = AVMetadataItemFilter.forSharing()
        session.shouldOptimizeForNetworkUse = true
        session.outputURL = url
        session.outputFileType = .mp4
        let _: Float = session.progress
        let _: AVAssetExportSession.Status = session.status
        let _: [AVAssetExportSession.Status] = [.unknown, .waiting, .exporting, .completed, .failed, .cancelled]
        let _: Error? = session.error
        let _: String = AVFoundationErrorDomain
        let _: Int = AVError.unknown.rawValue
        startExport(session)
        session.cancelExport()
        let _: [AVMediaType] = [.video, .audio]
        let status: AVAuthorizationStatus = AVCaptureDevice.authorizationStatus(for: .video)
        let _: [AVAuthorizationStatus] = [status, .notDetermined, .restricted, .denied, .authorized]
        let _: Bool = await AVCaptureDevice.requestAccess(for: .audio)
    }

    func startExport(_ session: AVAssetExportSession) {
        session.exportAsynchronously {}
    }

    @available(iOS 18.0, macOS 15.0, *)
    func probeExportSessionOf18(_ session: sending AVAssetExportSession, url: URL) async throws {
        sendable(AVAssetExportSession.State.self)
        let states = session.states(updateInterval: 0.25)
        Task {
            for await state in states {
                switch state {
                case .pending, .waiting: break
                case .exporting(let progress): _ = progress.fractionCompleted
                }
            }
        }
        try await session.export(to: url, as: .mov)
    }

    @MainActor
    func probeAVPlayer(url: URL) -> some View {
        let player = AVPlayer(url: url)
        player.play()
        player.pause()
        return VideoPlayer(player: player)
    }

    // MARK: Photos

    func probePhotos(url: URL) async {
        sendable(PHPhotoLibrary.self)
        sendable(PHAccessLevel.self)
        sendable(PHAuthorizationStatus.self)
        sendable(PHAssetResourceType.self)
        sendable(PHImageContentMode.self)
        let _: PHPhotoLibrary = PHPhotoLibrary.shared()
        let status: PHAuthorizationStatus = PHPhotoLibrary.authorizationStatus(for: .readWrite)
        let _: [PHAuthorizationStatus] = [status, .notDetermined, .restricted, .denied, .authorized, .limited]
        let _: PHAuthorizationStatus = await PHPhotoLibrary.requestAuthorization(for: .addOnly)
        let result: PHFetchResult<PHAsset> = PHAsset.fetchAssets(
            withLocalIdentifiers: ["id"], options: PHFetchOptions())
        let _: Int = result.count
        guard let asset = result.firstObject else { return }
        let _: String = asset.localIdentifier
        for resource in PHAssetResource.assetResources(for: asset) {
            let _: PHAssetResourceType = resource.type
            let _: String = resource.originalFilename + resource.uniformTypeIdentifier
        }
        let _: [PHAssetResourceType] = [
            .photo, .video, .audio, .alternatePhoto, .fullSizePhoto, .fullSizeVideo, .adjustmentData,
            .adjustmentBasePhoto, .pairedVideo, .fullSizePairedVideo,
        ]
        let options = PHAssetResourceRequestOptions()
        options.isNetworkAccessAllowed = true
        let handler: PHAssetResourceProgressHandler = { _ in }
        options.progressHandler = handler
        guard let resource = PHAssetResource.assetResources(for: asset).first else { return }
        // Apple's completion handler is a plain closure: a non-Sendable capture is allowed.
        PHAssetResourceManager.default().writeData(for: resource, toFile: url, options: options) { error in
            _ = error
        }
    }

    @MainActor
    func probeLivePhoto(still: URL, movie: URL) {
        let view = PHLivePhotoView()
        view.contentMode = .scaleAspectFit
        let _: [UIView.ContentMode] = [.scaleToFill, .scaleAspectFit, .scaleAspectFill]
        let _: Int32 = PHLivePhoto.request(
            withResourceFileURLs: [still, movie], placeholderImage: nil, targetSize: .zero, contentMode: .aspectFill
        ) { livePhoto, _ in
            view.livePhoto = livePhoto
        }
    }

    // MARK: PhotosUI

    final class ProbePickerDelegate: NSObject, PHPickerViewControllerDelegate {
        func picker(_ picker: PHPickerViewController, didFinishPicking results: [PHPickerResult]) {
            for result in results {
                let _: NSItemProvider = result.itemProvider
                let _: String? = result.assetIdentifier
            }
            picker.dismiss(animated: true, completion: nil)
        }
    }

    @MainActor
    func probePhotosUI(delegate: ProbePickerDelegate) -> PHPickerViewController {
        let filters: [PHPickerFilter] = [
            .images, .videos, .livePhotos, .screenshots, .screenRecordings, .slomoVideos, .panoramas,
            .depthEffectPhotos, .bursts,
        ]
        var configuration = PHPickerConfiguration(photoLibrary: .shared())
        configuration = PHPickerConfiguration()
        configuration.filter = .all(of: [.any(of: filters), .not(.screenshots)])
        configuration.selectionLimit = 2
        configuration.preferredAssetRepresentationMode = .current
        let _: [PHPickerConfiguration.AssetRepresentationMode] = [.automatic, .current, .compatible]
        configuration.selection = .ordered
        let _: [PHPickerConfiguration.Selection] = [.default, .ordered]
        configuration.preselectedAssetIdentifiers = []
        let picker = PHPickerViewController(configuration: configuration)
        picker.delegate = delegate
        let _: [PhotosPickerItem.EncodingDisambiguationPolicy] = [.automatic, .current, .compatible]
        let _: [PhotosPickerSelectionBehavior] = [.default, .ordered]
        return picker
    }

    @available(iOS 17.0, macOS 14.0, *)
    func probePhotosUIOf17() {
        sendable(PHPickerCapabilities.self)
        let _: [PhotosPickerSelectionBehavior] = [.continuous, .continuousAndOrdered]
        let _: [PhotosPickerStyle] = [.presentation, .inline, .compact]
        let _: [PHPickerConfiguration.Selection] = [.continuous, .continuousAndOrdered]
        let _: PHPickerCapabilities = [
            .search, .stagingArea, .collectionNavigation, .selectionActions, .sensitivityAnalysisIntervention,
        ]
    }

    struct ProbeFile: Transferable {
        let url: URL
        static var transferRepresentation: some TransferRepresentation {
            FileRepresentation(contentType: .movie) { file in
                SentTransferredFile(file.url, allowAccessingOriginalFile: false)
            } importing: { received in
                let _: Bool = received.isOriginalFile
                return ProbeFile(url: received.file)
            }
        }
    }

    struct ProbeImportedFile: Transferable {
        let url: URL
        static var transferRepresentation: some TransferRepresentation {
            FileRepresentation(importedContentType: .image, shouldAttemptToOpenInPlace: false) { received in
                ProbeImportedFile(url: received.file)
            }
        }
    }

    /// A picker item is loaded off the main actor, where it was made.
    func probePickerItem() async throws {
        let item = PhotosPickerItem(itemIdentifier: "id")
        let _: String? = item.itemIdentifier
        let _: [UTType] = item.supportedContentTypes
        let _: ProbeFile? = try await item.loadTransferable(type: ProbeFile.self)
    }

    // MARK: UniformTypeIdentifiers

    func probeTypes() {
        sendable(UTType.self)
        let types: [UTType] = [.image, .movie, .livePhoto, .jpeg, .heic, .quickTimeMovie, .mpeg4Movie]
        let _: Bool = types[0].conforms(to: .image)
        let _: String? = UTType("public.jpeg")?.identifier
    }

    // MARK: UIKit

    final class ProbeCameraDelegate: NSObject, UIImagePickerControllerDelegate, UINavigationControllerDelegate {
        func imagePickerController(
            _ picker: UIImagePickerController,
            didFinishPickingMediaWithInfo info: [UIImagePickerController.InfoKey: Any]
        ) {
            let _: [UIImagePickerController.InfoKey] = [.mediaType, .originalImage, .editedImage, .mediaURL, .imageURL]
        }
        func imagePickerControllerDidCancel(_ picker: UIImagePickerController) {}
    }

    @MainActor
    func probeUIKit(delegate: ProbeCameraDelegate, path: String) -> Data? {
        sendable(UIImage.self)
        let camera = UIImagePickerController()
        let _: Bool = UIImagePickerController.isSourceTypeAvailable(.camera)
        let _: [String]? = UIImagePickerController.availableMediaTypes(for: .camera)
        let _: Bool = UIImagePickerController.isFlashAvailable(for: .front)
        camera.sourceType = .camera
        let _: [UIImagePickerController.SourceType] = [.photoLibrary, .camera, .savedPhotosAlbum]
        camera.mediaTypes = ["public.movie"]
        camera.cameraCaptureMode = .video
        let _: [UIImagePickerController.CameraCaptureMode] = [.photo, .video]
        camera.cameraDevice = .rear
        camera.cameraFlashMode = .auto
        let _: [UIImagePickerController.CameraFlashMode] = [.off, .auto, .on]
        camera.videoQuality = .typeHigh
        let _: [UIImagePickerController.QualityType] = [
            .typeHigh, .typeMedium, .typeLow, .type640x480, .typeIFrame1280x720, .typeIFrame960x540,
        ]
        camera.videoMaximumDuration = 60
        camera.allowsEditing = false
        camera.delegate = delegate
        let _: UINavigationController = camera
        let _: UIViewController = camera
        let _: UIResponder = camera
        guard let image = UIImage(contentsOfFile: path) else { return nil }
        let _: CGSize = image.size
        let _: CGFloat = image.scale
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        let drawn = UIGraphicsImageRenderer(size: image.size, format: format).image {
            (_: UIGraphicsImageRendererContext) in
            image.draw(in: CGRect(x: 0, y: 0, width: 1, height: 1))
        }
        return drawn.jpegData(compressionQuality: 0.8) ?? drawn.pngData()
    }

    /// Item providers hand their file to a `Sendable` completion handler.
    func probeItemProvider(_ provider: NSItemProvider) {
        guard provider.hasItemConformingToTypeIdentifier("public.movie") else { return }
        let progress: Progress = provider.loadFileRepresentation(forTypeIdentifier: "public.movie") { url, error in
            _ = (url, error)
        }
        _ = progress
    }

    // MARK: SwiftUI members with isolation

    struct ProbeScreen: View {
        @State private var items: [PhotosPickerItem] = []
        @State private var item: PhotosPickerItem?
        @State private var shown = false
        @State private var player: AVPlayer?

        var body: some View {
            VStack {
                PhotosPicker(
                    selection: $items, maxSelectionCount: 2, selectionBehavior: .ordered, matching: .images,
                    preferredItemEncoding: .current, photoLibrary: .shared()
                ) {
                    Text("Pick")
                }
                VideoPlayer(player: player)
            }
            .photosPicker(isPresented: $shown, selection: $item, matching: .videos, preferredItemEncoding: .automatic)
            .task { shown = false }
            .task(id: shown) { player = nil }
        }
    }

    @available(iOS 17.0, macOS 14.0, *)
    struct ProbeScreenOf17: View {
        @State private var count = 0
        var body: some View {
            Text("\(count)")
                .onChange(of: count) { old, new in count = max(old, new) }
                .photosPickerStyle(.inline)
                .photosPickerDisabledCapabilities([.search])
        }
    }

    struct ProbeCamera: UIViewControllerRepresentable {
        func makeUIViewController(context: Context) -> UIImagePickerController { UIImagePickerController() }
        func updateUIViewController(_ controller: UIImagePickerController, context: Context) {}
    }

    struct ProbeLivePhotoView: UIViewRepresentable {
        func makeUIView(context: Context) -> PHLivePhotoView { PHLivePhotoView() }
        func updateUIView(_ view: PHLivePhotoView, context: Context) {}
    }

    struct ProbeApp: App {
        var body: some Scene {
            WindowGroup { ProbeScreen() }
        }
    }
#endif
