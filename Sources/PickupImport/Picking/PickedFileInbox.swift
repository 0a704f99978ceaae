import Foundation

/// A folder Pickup owns where files handed over by the picker are copied the moment they
/// arrive, before the system deletes its own copy, and from which they are imported.
///
/// Each file gets a folder of its own (`<inbox>/<UUID>/<name>`), so names never collide;
/// ``discard(_:)`` removes it once the import has its copy.
public struct PickedFileInbox: Sendable, Hashable {
    /// The inbox folder.
    public let folder: String

    /// An inbox in `folder` (made when the first file arrives).
    public init(folder: String) { self.folder = folder }

    /// The default inbox: `PickupInbox` in the app's temporary folder.
    public static var temporary: PickedFileInbox {
        PickedFileInbox(folder: FileManager.default.temporaryDirectory.appendingPathComponent("PickupInbox").path)
    }

    /// Copies `path` into the inbox and returns the copy. Call it inside Apple's file-handling
    /// closure: the file there is deleted when the closure returns (`NSItemProvider.h`). On
    /// APFS the copy is a clone and costs no space.
    public func take(_ path: String, contentType: String?) throws(ImportError) -> PickedFile {
        let name = PickedFileInbox.safeName((path as NSString).lastPathComponent)
        let target = reserve(name)
        do {
            try FileManager.default.createDirectory(
                atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: path, toPath: target)
        } catch {
            throw ImportError(
                .destinationUnwritable, "the picked file could not be copied out of Photos' temporary folder",
                path: path, hint: "Free some space on the device, then pick it again.")
        }
        return PickedFile(path: target, contentType: contentType)
    }

    /// A path in a fresh folder of the inbox for a file named `name`, for writers that make the file themselves.
    public func reserve(_ name: String) -> String {
        folder + "/" + UUID().uuidString + "/" + PickedFileInbox.safeName(name)
    }

    /// Removes a file taken into the inbox, with its folder.
    public func discard(_ file: PickedFile) {
        let parent = (file.path as NSString).deletingLastPathComponent
        guard parent.hasPrefix(folder + "/") else { return }
        try? FileManager.default.removeItem(atPath: parent)
    }

    /// A file name that stays inside its folder: no separators, never empty, never `.` or `..`.
    static func safeName(_ name: String) -> String {
        let cleaned = name.replacingOccurrences(of: "/", with: "_")
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "picked" : cleaned
    }
}

/// A file the picker handed over, now in Pickup's inbox.
public struct PickedFile: Sendable, Hashable {
    /// Where the copy is.
    public var path: String
    /// Its uniform type identifier, as the picker named it (nil when it did not).
    public var contentType: String?

    /// A file at `path` of `contentType`.
    public init(path: String, contentType: String?) {
        self.path = path
        self.contentType = contentType
    }
}
