// Stand-in for Apple's UIKit (test-only; see scripts/check-apple-ui.sh). NSItemProvider is
// Foundation's on Apple platforms; it is here because Linux Foundation lacks it.
@_exported import CoreGraphics
import Foundation

@MainActor @preconcurrency
open class UIResponder: NSObject {}

open class UIView: UIResponder {
    public enum ContentMode: Int, Sendable { case scaleToFill = 0, scaleAspectFit = 1, scaleAspectFill = 2 }
    public override init() { super.init() }
    open var contentMode: ContentMode = .scaleToFill
}

open class UIViewController: UIResponder {
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) { fatalError() }
}

open class UINavigationController: UIViewController {}

open class UIImage: NSObject, @unchecked Sendable {  // NS_SWIFT_SENDABLE in Apple's header
    public init?(contentsOfFile path: String) { fatalError() }
    public init(cgImage: CGImage) { fatalError() }
    open var size: CGSize { fatalError() }
    open var scale: CGFloat { fatalError() }
    open func draw(in rect: CGRect) { fatalError() }
    open func jpegData(compressionQuality: CGFloat) -> Data? { fatalError() }
    open func pngData() -> Data? { fatalError() }
}

open class UIGraphicsImageRendererFormat: NSObject {
    public override init() { super.init() }
    open var scale: CGFloat = 1
}

open class UIGraphicsImageRendererContext: NSObject {}

open class UIGraphicsImageRenderer: NSObject {
    public init(size: CGSize, format: UIGraphicsImageRendererFormat) { fatalError() }
    open func image(actions: (UIGraphicsImageRendererContext) -> Void) -> UIImage { fatalError() }
}

// Apple's delegate protocols are @objc with optional methods; Linux has no Objective-C,
// so the stand-in gives the optional methods default implementations instead.
@MainActor @preconcurrency
public protocol UINavigationControllerDelegate: NSObjectProtocol {}

@MainActor @preconcurrency
public protocol UIImagePickerControllerDelegate: NSObjectProtocol {
    func imagePickerController(
        _ picker: UIImagePickerController, didFinishPickingMediaWithInfo info: [UIImagePickerController.InfoKey: Any])
    func imagePickerControllerDidCancel(_ picker: UIImagePickerController)
}

extension UIImagePickerControllerDelegate {
    public func imagePickerController(
        _ picker: UIImagePickerController, didFinishPickingMediaWithInfo info: [UIImagePickerController.InfoKey: Any]
    ) {}
    public func imagePickerControllerDidCancel(_ picker: UIImagePickerController) {}
}

open class UIImagePickerController: UINavigationController {
    public enum SourceType: Int, Sendable { case photoLibrary = 0, camera = 1, savedPhotosAlbum = 2 }
    public enum CameraCaptureMode: Int, Sendable { case photo = 0, video = 1 }
    public enum CameraDevice: Int, Sendable { case rear = 0, front = 1 }
    public enum CameraFlashMode: Int, Sendable { case off = -1, auto = 0, on = 1 }
    public enum QualityType: Int, Sendable {
        case typeHigh = 0, typeMedium = 1, typeLow = 2, type640x480 = 3, typeIFrame1280x720 = 4, typeIFrame960x540 = 5
    }
    public struct InfoKey: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let mediaType = InfoKey(rawValue: "UIImagePickerControllerMediaType")
        public static let originalImage = InfoKey(rawValue: "UIImagePickerControllerOriginalImage")
        public static let editedImage = InfoKey(rawValue: "UIImagePickerControllerEditedImage")
        public static let mediaURL = InfoKey(rawValue: "UIImagePickerControllerMediaURL")
        public static let imageURL = InfoKey(rawValue: "UIImagePickerControllerImageURL")
    }

    public override init() { super.init() }
    open class func isSourceTypeAvailable(_ sourceType: SourceType) -> Bool { fatalError() }
    open class func availableMediaTypes(for sourceType: SourceType) -> [String]? { fatalError() }
    open class func isFlashAvailable(for cameraDevice: CameraDevice) -> Bool { fatalError() }
    open var sourceType: SourceType = .photoLibrary
    open var mediaTypes: [String] = []
    open var cameraCaptureMode: CameraCaptureMode = .photo
    open var cameraDevice: CameraDevice = .rear
    open var cameraFlashMode: CameraFlashMode = .auto
    open var videoQuality: QualityType = .typeMedium
    open var videoMaximumDuration: TimeInterval = 600
    open var allowsEditing: Bool = false
    weak open var delegate: (any UIImagePickerControllerDelegate & UINavigationControllerDelegate)?
}

open class NSItemProvider: NSObject {
    open func hasItemConformingToTypeIdentifier(_ typeIdentifier: String) -> Bool { fatalError() }
    open func loadFileRepresentation(
        forTypeIdentifier typeIdentifier: String, completionHandler: @escaping @Sendable (URL?, Error?) -> Void
    ) -> Progress { fatalError() }
}
