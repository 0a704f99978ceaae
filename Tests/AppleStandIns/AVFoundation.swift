// Stand-in for Apple's AVFoundation and the CoreMedia types it re-exports
// (test-only; see scripts/check-apple-ui.sh).
@_exported import CoreGraphics
import Foundation

public struct CMTime: Sendable, Hashable {
    public init(seconds: Double, preferredTimescale: Int32) { fatalError() }
    public var seconds: Double { fatalError() }
    public static let zero = CMTime(seconds: 0, preferredTimescale: 1)
    public static let positiveInfinity = CMTime(seconds: .infinity, preferredTimescale: 1)
}

public struct CMTimeRange: Sendable, Hashable {
    public init(start: CMTime, end: CMTime) { fatalError() }
}

open class AVAsset: NSObject {}

open class AVURLAsset: AVAsset {
    public convenience init(url URL: URL, options: [String: Any]? = nil) { fatalError() }
}

open class AVAssetImageGenerator: NSObject {
    public init(asset: AVAsset) { fatalError() }
    open var appliesPreferredTrackTransform: Bool = false
    open var maximumSize: CGSize = .zero
    open var requestedTimeToleranceBefore: CMTime = .positiveInfinity
    open var requestedTimeToleranceAfter: CMTime = .positiveInfinity
    open func image(at time: CMTime) async throws -> (image: CGImage, actualTime: CMTime) { fatalError() }
}

public struct AVFileType: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let mov = AVFileType(rawValue: "com.apple.quicktime-movie")
    public static let mp4 = AVFileType(rawValue: "public.mpeg-4")
}

open class AVMetadataItemFilter: NSObject {
    open class func forSharing() -> AVMetadataItemFilter { fatalError() }
}

public let AVAssetExportPresetPassthrough = "AVAssetExportPresetPassthrough"
public let AVAssetExportPresetLowQuality = "AVAssetExportPresetLowQuality"
public let AVAssetExportPresetMediumQuality = "AVAssetExportPresetMediumQuality"
public let AVAssetExportPresetHighestQuality = "AVAssetExportPresetHighestQuality"
public let AVAssetExportPreset640x480 = "AVAssetExportPreset640x480"
public let AVAssetExportPreset960x540 = "AVAssetExportPreset960x540"
public let AVAssetExportPreset1280x720 = "AVAssetExportPreset1280x720"
public let AVAssetExportPreset1920x1080 = "AVAssetExportPreset1920x1080"
public let AVAssetExportPreset3840x2160 = "AVAssetExportPreset3840x2160"
public let AVAssetExportPresetHEVC1920x1080 = "AVAssetExportPresetHEVC1920x1080"
public let AVAssetExportPresetHEVC3840x2160 = "AVAssetExportPresetHEVC3840x2160"
public let AVAssetExportPresetHEVCHighestQuality = "AVAssetExportPresetHEVCHighestQuality"

public let AVFoundationErrorDomain = "AVFoundationErrorDomain"

public struct AVError: Error {
    public enum Code: Int, Sendable { case unknown = -11800 }
    public static let unknown = Code.unknown
}

// Not Sendable: Apple marks it NS_SWIFT_NONSENDABLE in the iOS 18 SDK.
public final class AVAssetExportSession: NSObject {
    public enum Status: Int, Sendable {
        case unknown = 0, waiting = 1, exporting = 2, completed = 3, failed = 4, cancelled = 5
    }
    @available(iOS 18.0, macOS 15.0, *)
    public enum State: Sendable {
        case pending, waiting
        case exporting(progress: Progress)
    }

    public init?(asset: AVAsset, presetName: String) { fatalError() }
    public var timeRange: CMTimeRange {
        get { fatalError() }
        set {}
    }
    public var fileLengthLimit: Int64 {
        get { fatalError() }
        set {}
    }
    public var metadataItemFilter: AVMetadataItemFilter? {
        get { fatalError() }
        set {}
    }
    public var shouldOptimizeForNetworkUse: Bool {
        get { fatalError() }
        set {}
    }
    public var progress: Float { fatalError() }
    public var outputURL: URL? {
        get { fatalError() }
        set {}
    }
    public var outputFileType: AVFileType? {
        get { fatalError() }
        set {}
    }
    public var status: Status { fatalError() }
    public var error: Error? { fatalError() }
    public func exportAsynchronously(completionHandler handler: @escaping @Sendable () -> Void) { fatalError() }
    public func cancelExport() { fatalError() }
    @available(iOS 18.0, macOS 15.0, *)
    public func export(to url: URL, as fileType: AVFileType, isolation: isolated (any Actor)? = #isolation) async throws
    {
        fatalError()
    }
    @available(iOS 18.0, macOS 15.0, *)
    public func states(updateInterval: TimeInterval = .infinity) -> some Sendable & AsyncSequence<State, Never> {
        AsyncStream<State> { _ in fatalError() }
    }
}

public struct AVMediaType: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let video = AVMediaType(rawValue: "vide")
    public static let audio = AVMediaType(rawValue: "soun")
}

public enum AVAuthorizationStatus: Int, Sendable { case notDetermined = 0, restricted = 1, denied = 2, authorized = 3 }

open class AVCaptureDevice: NSObject {
    open class func authorizationStatus(for mediaType: AVMediaType) -> AVAuthorizationStatus { fatalError() }
    open class func requestAccess(for mediaType: AVMediaType) async -> Bool { fatalError() }
}

@MainActor
open class AVPlayer: NSObject {
    public init(url URL: URL) { fatalError() }
    open func play() { fatalError() }
    open func pause() { fatalError() }
}
