// Stand-in for Apple's PhotosUI, with the SwiftUI PhotosPicker it offers
// (test-only; see scripts/check-apple-ui.sh).
import CoreTransferable
import Foundation
@_exported import Photos
import SwiftUI
import UIKit
import UniformTypeIdentifiers

public struct PHPickerFilter: Equatable {
    public static var images: PHPickerFilter { PHPickerFilter() }
    public static var videos: PHPickerFilter { PHPickerFilter() }
    public static var livePhotos: PHPickerFilter { PHPickerFilter() }
    public static var screenshots: PHPickerFilter { PHPickerFilter() }
    public static var screenRecordings: PHPickerFilter { PHPickerFilter() }
    public static var slomoVideos: PHPickerFilter { PHPickerFilter() }
    public static var panoramas: PHPickerFilter { PHPickerFilter() }
    public static var depthEffectPhotos: PHPickerFilter { PHPickerFilter() }
    @available(iOS 16.0, *) public static var bursts: PHPickerFilter { PHPickerFilter() }
    public static func any(of subfilters: [PHPickerFilter]) -> PHPickerFilter { fatalError() }
    public static func all(of subfilters: [PHPickerFilter]) -> PHPickerFilter { fatalError() }
    public static func not(_ filter: PHPickerFilter) -> PHPickerFilter { fatalError() }
}

public struct PHPickerConfiguration {
    public enum AssetRepresentationMode: Int, Sendable { case automatic = 0, current = 1, compatible = 2 }
    public enum Selection: Int, Sendable {
        case `default` = 0, ordered = 1
        @available(iOS 17.0, macOS 14.0, *) case continuous = 2
        @available(iOS 17.0, macOS 14.0, *) case continuousAndOrdered = 3
    }
    public init(photoLibrary: PHPhotoLibrary) {}
    public init() {}
    public var filter: PHPickerFilter?
    public var selectionLimit: Int = 1
    public var preferredAssetRepresentationMode: AssetRepresentationMode = .automatic
    public var selection: Selection = .default
    public var preselectedAssetIdentifiers: [String] = []
}

public struct PHPickerResult: Equatable {
    public var itemProvider: NSItemProvider { fatalError() }
    public var assetIdentifier: String? { fatalError() }
}

@MainActor @preconcurrency
public protocol PHPickerViewControllerDelegate: AnyObject {
    func picker(_ picker: PHPickerViewController, didFinishPicking results: [PHPickerResult])
}

open class PHPickerViewController: UIViewController {
    public init(configuration: PHPickerConfiguration) { fatalError() }
    weak open var delegate: (any PHPickerViewControllerDelegate)?
}

open class PHLivePhotoView: UIView {
    public override init() { super.init() }
    open var livePhoto: PHLivePhoto?
}

public struct PhotosPickerItem: Equatable, Hashable {
    public enum EncodingDisambiguationPolicy: Equatable, Hashable { case automatic, current, compatible }
    public init(itemIdentifier: String) {}
    public var itemIdentifier: String? { fatalError() }
    public var supportedContentTypes: [UTType] { fatalError() }
    public func loadTransferable<T: Transferable>(type: T.Type) async throws -> T? { fatalError() }
}

public struct PhotosPickerSelectionBehavior: Equatable, Hashable {
    public static var `default`: PhotosPickerSelectionBehavior { PhotosPickerSelectionBehavior() }
    public static var ordered: PhotosPickerSelectionBehavior { PhotosPickerSelectionBehavior() }
    @available(iOS 17.0, macOS 14.0, *) public static var continuous: PhotosPickerSelectionBehavior {
        PhotosPickerSelectionBehavior()
    }
    @available(iOS 17.0, macOS 14.0, *) public static var continuousAndOrdered: PhotosPickerSelectionBehavior {
        PhotosPickerSelectionBehavior()
    }
}

@available(iOS 17.0, macOS 14.0, *)
public struct PhotosPickerStyle: Equatable, Hashable {
    public static var presentation: PhotosPickerStyle { PhotosPickerStyle() }
    public static var inline: PhotosPickerStyle { PhotosPickerStyle() }
    public static var compact: PhotosPickerStyle { PhotosPickerStyle() }
}

@available(iOS 17.0, macOS 14.0, *)
public struct PHPickerCapabilities: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let search = PHPickerCapabilities(rawValue: 1)
    public static let stagingArea = PHPickerCapabilities(rawValue: 2)
    public static let collectionNavigation = PHPickerCapabilities(rawValue: 4)
    public static let selectionActions = PHPickerCapabilities(rawValue: 8)
    public static let sensitivityAnalysisIntervention = PHPickerCapabilities(rawValue: 16)
}

@available(iOS 16.0, *)
public struct PhotosPicker<Label: View>: View {
    public init(
        selection: Binding<[PhotosPickerItem]>, maxSelectionCount: Int? = nil,
        selectionBehavior: PhotosPickerSelectionBehavior = .default, matching filter: PHPickerFilter? = nil,
        preferredItemEncoding: PhotosPickerItem.EncodingDisambiguationPolicy = .automatic, photoLibrary: PHPhotoLibrary,
        @ViewBuilder label: () -> Label
    ) {}
    public var body: Never { fatalError() }
}

extension View {
    @available(iOS 16.0, *)
    public func photosPicker(
        isPresented: Binding<Bool>, selection: Binding<PhotosPickerItem?>, matching filter: PHPickerFilter? = nil,
        preferredItemEncoding: PhotosPickerItem.EncodingDisambiguationPolicy = .automatic
    ) -> some View { self }
    @available(iOS 17.0, macOS 14.0, *)
    public func photosPickerStyle(_ style: PhotosPickerStyle) -> some View { self }
    @available(iOS 17.0, macOS 14.0, *)
    public func photosPickerDisabledCapabilities(_ disabledCapabilities: PHPickerCapabilities) -> some View { self }
}
