import Foundation

/// Where an app's Pickup files live on the device: the library of picked items and the upload
/// journal, together in one folder that the system does not back up to iCloud.
///
/// Apple's File System Programming Guide: `Documents/` is for what the person creates and is
/// backed up (and shown in the Files app when the app shares it); `Library/Application Support/`
/// holds the app's own data files. Picked copies can be picked again and are removed once
/// uploaded (`ImportSession.remove(_:)`), so they go in Application Support, excluded from
/// backup (`URLResourceValues.isExcludedFromBackup`).
public struct PickupStorage: Sendable, Hashable {
    /// The folder that holds both.
    public var root: String

    /// Storage in `root`.
    public init(root: String) { self.root = root }

    /// The library of picked items.
    public var library: String { root + "/Library" }
    /// The upload journal.
    public var journal: String { root + "/uploads.sqlite" }

    /// The standard place: `Application Support/Pickup` on iPhone, iPad and Apple's other
    /// sandboxed systems; elsewhere (Linux, the command line on macOS) `$PICKUP_STATE_DIR`, else
    /// `$XDG_STATE_HOME/pickup`, else `~/.local/state/pickup`.
    public static var standard: PickupStorage {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            return PickupStorage(
                root: (support ?? FileManager.default.temporaryDirectory).appendingPathComponent("Pickup").path)
        #else
            return PickupStorage(root: stateFolder(ProcessInfo.processInfo.environment))
        #endif
    }

    /// `Library/Application Support/Pickup` in the App Group container named `identifier`, which
    /// an app shares with its extensions (a share extension that uploads): nil when the system
    /// gives no container for it (`containerURL(forSecurityApplicationGroupIdentifier:)` is
    /// `nullable`, NSFileManager.h:454; the group must be in the app's entitlements), and off
    /// Apple's systems, which have no App Groups.
    public static func appGroup(_ identifier: String) -> PickupStorage? {
        #if canImport(Darwin)
            guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: identifier)
            else { return nil }
            return PickupStorage(root: container.appendingPathComponent("Library/Application Support/Pickup").path)
        #else
            return nil
        #endif
    }

    /// The state folder from the environment, as the standard place says off iPhone.
    public static func stateFolder(_ environment: [String: String]) -> String {
        if let folder = environment["PICKUP_STATE_DIR"], !folder.isEmpty { return folder }
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/pickup" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/state/pickup"
    }

    /// Marks `path` as not backed up (Apple's `NSURL.h:250`: `NSURLIsExcludedFromBackupKey` is
    /// "for excluding cache and other application support files which are not needed in a
    /// backup"; set on a folder, it covers what the folder holds). Nothing to do elsewhere.
    public func excludeFromBackup(_ path: String) {
        #if canImport(Darwin)
            var url = URL(fileURLWithPath: path)
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            try? url.setResourceValues(values)
        #endif
    }
}
