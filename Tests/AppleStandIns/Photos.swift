// Stand-in for Apple's Photos (test-only; see scripts/check-apple-ui.sh).
@_exported import CoreGraphics
import Foundation

public enum PHAccessLevel: Int, Sendable { case addOnly = 1, readWrite = 2 }

public enum PHAuthorizationStatus: Int, Sendable {
    case notDetermined = 0, restricted = 1, denied = 2, authorized = 3, limited = 4
}

open class PHPhotoLibrary: NSObject, @unchecked Sendable {  // NS_SWIFT_SENDABLE in Apple's header
    open class func shared() -> PHPhotoLibrary { fatalError() }
    open class func authorizationStatus(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus { fatalError() }
    open class func requestAuthorization(for accessLevel: PHAccessLevel) async -> PHAuthorizationStatus { fatalError() }
}

open class PHObject: NSObject {
    open var localIdentifier: String { fatalError() }
}

open class PHFetchOptions: NSObject {}

open class PHFetchResult<ObjectType: AnyObject>: NSObject {
    open var count: Int { fatalError() }
    open var firstObject: ObjectType? { fatalError() }
}

open class PHAsset: PHObject {
    open class func fetchAssets(
        withLocalIdentifiers identifiers: [String], options: PHFetchOptions?
    ) -> PHFetchResult<PHAsset> {
        fatalError()
    }
}

public enum PHAssetResourceType: Int, Sendable {
    case photo = 1, video = 2, audio = 3, alternatePhoto = 4, fullSizePhoto = 5, fullSizeVideo = 6
    case adjustmentData = 7, adjustmentBasePhoto = 8, pairedVideo = 9, fullSizePairedVideo = 10
}

open class PHAssetResource: NSObject {
    open var type: PHAssetResourceType { fatalError() }
    open var originalFilename: String { fatalError() }
    open var uniformTypeIdentifier: String { fatalError() }
    open class func assetResources(for asset: PHAsset) -> [PHAssetResource] { fatalError() }
}

public typealias PHAssetResourceProgressHandler = (Double) -> Void

open class PHAssetResourceRequestOptions: NSObject {
    open var isNetworkAccessAllowed: Bool = false
    open var progressHandler: PHAssetResourceProgressHandler?
}

open class PHAssetResourceManager: NSObject {
    open class func `default`() -> PHAssetResourceManager { fatalError() }
    open func writeData(
        for resource: PHAssetResource, toFile fileURL: URL, options: PHAssetResourceRequestOptions?,
        // Plain in Apple's header; Swift 6 imports it @Sendable, as it does every completion
        // handler of a method with an async variant.
        completionHandler: @escaping @Sendable (Error?) -> Void
    ) { fatalError() }
}

public enum PHImageContentMode: Int, Sendable { case aspectFit = 0, aspectFill = 1 }

open class PHLivePhoto: NSObject {
    open class func request(
        withResourceFileURLs fileURLs: [URL], placeholderImage image: AnyObject?, targetSize: CGSize,
        contentMode: PHImageContentMode, resultHandler: @escaping (PHLivePhoto?, [AnyHashable: Any]) -> Void
    ) -> Int32 { fatalError() }
}
