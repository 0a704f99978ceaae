import Foundation
import Pickup
import PickupImport
import PickupTestSupport

/// A picked item that behaves as Apple documents `PhotosPickerItem` and `NSItemProvider`, for
/// the loading decisions' tests. Each behaviour names the header line it models (iPhoneOS 26.2
/// SDK; the same lines stand in 17.4). It holds no decision of Pickup's: it only hands over
/// files, lists resources, and fails where Apple says it may.
struct FakePickedItem: PickedItemSource {
    let identifier: String?
    /// What tells the item apart without an identifier. `PhotosPickerItem` is `Hashable`
    /// (`_PhotosUI_SwiftUI.swiftinterface`, iPhoneOS 26.2 line 77) and its `itemIdentifier` is
    /// nil when the picker was made without a photo library (line 90; its documentation: "It will
    /// be nil if the Photos picker is created without a photo library"). Nil here models a source
    /// whose values do not tell items apart.
    let value: String?
    var selectionValue: AnyHashable? { value.map(AnyHashable.init) }
    let kind: PickedContentKind
    /// The file the system hands over (a fixture), and its content type.
    let file: String?
    let contentType: String?
    /// A Live Photo's resources and, by index, the file each one writes.
    let resources: [PickedResource]
    let resourceFiles: [Int: String]
    /// When set, writing a resource fails with this error.
    ///
    /// Apple documents `PHAssetResource.assetResources(for: PHLivePhoto)` (`PHAssetResource.h:34`)
    /// but not whether `PHAssetResourceManager.writeData(for:toFile:options:)` needs photo-library
    /// access for it: the tests run both ways.
    let writeFailure: FakePhotosError?
    /// The roles whose writes fail with `writeFailure` (nil: every role), e.g. only the paired
    /// video, whose iCloud download failed.
    let failingRoles: Set<PickedResource.Role>?
    /// When set, loading the file fails with this error (an iCloud download that fails).
    let loadFailure: LockedValue<FakePhotosError?>
    /// Holds loads until the test opens it (a slow iCloud download).
    let gate: FakeGate?
    let log: FakeLog

    init(
        identifier: String?, value: String? = nil, kind: PickedContentKind, file: String? = nil,
        contentType: String? = nil,
        resources: [PickedResource] = [], resourceFiles: [Int: String] = [:], writeFailure: FakePhotosError? = nil,
        failingRoles: Set<PickedResource.Role>? = nil, loadFailure: FakePhotosError? = nil, gate: FakeGate? = nil,
        log: FakeLog = FakeLog()
    ) {
        self.identifier = identifier
        self.value = value
        self.kind = kind
        self.file = file
        self.contentType = contentType
        self.resources = resources
        self.resourceFiles = resourceFiles
        self.writeFailure = writeFailure
        self.failingRoles = failingRoles
        self.loadFailure = LockedValue(loadFailure)
        self.gate = gate
        self.log = log
    }

    /// A preselected item as the picker returns it. `PHPicker.h:173`: "Returned item providers
    /// for preselected assets are always empty" (no content types, nothing to load).
    static func preselected(_ identifier: String, log: FakeLog = FakeLog()) -> FakePickedItem {
        FakePickedItem(identifier: identifier, kind: .empty, log: log)
    }

    /// What `PHPickerViewController` hands its delegate when it closes, opened with `preselected`.
    /// The person taps Add with `selected` chosen: each of them that was preselected comes back
    /// with an empty provider (`PHPicker.h:173`: "Returned item providers for preselected assets
    /// are always empty"), the others as they are. The person cancels (`selected` nil): Apple's
    /// documentation of `preselectedAssetIdentifiers`, "Results include all preselected
    /// identifiers when canceling the picker" (and with nothing preselected, nothing comes back).
    /// Apple promises empty providers only for preselected assets that "remain selected": one
    /// the person deselected and picked again may come back with a provider, which the tests
    /// give as a picked item of its own (`uikitPickerRepicked`).
    static func pickerResults(preselected: [String], selected: [FakePickedItem]?) -> [FakePickedItem] {
        guard let selected else { return preselected.map { Self.preselected($0) } }
        return selected.map { item in
            guard let identifier = item.identifier, preselected.contains(identifier) else { return item }
            return Self.preselected(identifier, log: item.log)
        }
    }

    func loadFile(
        into inbox: PickedFileInbox, progress: @escaping @Sendable (Double) -> Void
    ) async throws -> PickedFile {
        log.record(.loadFile(identifier))
        // `PhotosPickerItem.loadTransferable(type:completionHandler:)` returns a `Progress`
        // (`_PhotosUI_SwiftUI.swiftinterface`, iPhoneOS 26.2 line 99); it moves while iCloud downloads.
        progress(0)
        if let gate { try await gate.wait(log: log, identifier) }
        progress(0.5)
        if let failure = loadFailure.current { throw failure }
        guard kind != .empty, let file else { throw FakePhotosError.noRepresentation }
        progress(1)
        // `NSItemProvider.h:119`: "Writes a copy of the data to a temporary file. This file will be
        // deleted when the completion handler returns."
        let system = FileManager.default.temporaryDirectory.appendingPathComponent("fake-photos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: system, withIntermediateDirectories: true)
        let handedOver = system.appendingPathComponent((file as NSString).lastPathComponent).path
        try FileManager.default.copyItem(atPath: file, toPath: handedOver)
        defer { Temporary.remove(system) }
        return try inbox.take(handedOver, contentType: contentType)
    }

    func livePhotoResources() async throws -> [PickedResource] {
        log.record(.resources(identifier))
        // `PHAssetResource.h:34`: `assetResourcesForLivePhoto:` lists a Live Photo's resources; the
        // `PHLivePhoto` comes from `loadTransferable(type: PHLivePhoto.self)` (PHLivePhoto is
        // `Transferable`, `_PhotosUI_SwiftUI.swiftinterface` line 36), with no library access.
        return kind == .livePhoto ? resources : []
    }

    func write(
        _ resource: PickedResource, into inbox: PickedFileInbox, progress: @escaping @Sendable (Double) -> Void
    ) async throws -> PickedFile {
        log.record(.write(identifier, resource.role))
        if let gate { try await gate.wait(log: log, identifier) }
        if let writeFailure, failingRoles?.contains(resource.role) ?? true { throw writeFailure }
        guard let source = resourceFiles[resource.index] else { throw FakePhotosError.noRepresentation }
        // `PHAssetResourceManager.h:38`: `requestData`'s handlers run on an arbitrary serial queue and
        // its data lives only for the handler, so the adapter writes each piece to its own file.
        progress(1)
        let target = inbox.reserve(resource.originalFilename)
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        return PickedFile(path: target, contentType: resource.contentType)
    }
}

/// The errors the fake Photos gives, shaped as Photos' own (`NSError` domains).
enum FakePhotosError: Error, CustomStringConvertible {
    /// An iCloud download that failed (`CloudPhotoLibraryErrorDomain`).
    case iCloudUnavailable
    /// No access to the photo library (`PHPhotosErrorDomain` 3311, `accessUserDenied`).
    case libraryAccessDenied
    /// The provider has no representation for the type asked for (`NSItemProviderErrorDomain`).
    case noRepresentation

    var description: String {
        switch self {
        case .iCloudUnavailable: return "Error Domain=CloudPhotoLibraryErrorDomain Code=81"
        case .libraryAccessDenied: return "Error Domain=PHPhotosErrorDomain Code=3311"
        case .noRepresentation: return "Error Domain=NSItemProviderErrorDomain Code=-1000"
        }
    }
}

/// What the fake Photos was asked to do, in order.
final class FakeLog: Sendable {
    enum Call: Hashable, Sendable {
        case loadFile(String?)
        case resources(String?)
        case write(String?, PickedResource.Role)
        case cancelled(String?)
    }

    private let calls = LockedValue<[Call]>([])
    func record(_ call: Call) { calls.withValue { $0.append(call) } }
    var all: [Call] { calls.current }
    func count(_ call: Call) -> Int { calls.current.filter { $0 == call }.count }
}

/// Holds loads until the test opens it (a slow iCloud download). A cancelled task stops
/// waiting at once: no header promises that Photos calls a completion handler after a cancel
/// (`PHLivePhoto.h:40` alone says so), so the adapters end the wait on cancellation themselves
/// (`OnceContinuation` in PickupUI), and the fake does what they do.
final class FakeGate: Sendable {
    private let state = LockedValue<(open: Bool, waiting: [UUID: CheckedContinuation<Void, any Error>])>(
        (false, [:]))

    func open() {
        let waiting = state.withValue { state -> [CheckedContinuation<Void, any Error>] in
            state.open = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
    }

    func wait(log: FakeLog, _ identifier: String?) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withValue { state -> Bool in
                    if state.open || Task.isCancelled { return true }
                    state.waiting[id] = continuation
                    return false
                }
                if resumeNow {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
            }
        } onCancel: {
            log.record(.cancelled(identifier))
            let continuation = state.withValue { $0.waiting.removeValue(forKey: id) }
            continuation?.resume(throwing: CancellationError())
        }
    }
}
