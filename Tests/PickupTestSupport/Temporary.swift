import Foundation

/// Temporary places for one test, each new: `pickup-LABEL-UUID` under the system's temporary
/// directory. The test removes what it made (`defer { Temporary.remove(folder) }`).
public enum Temporary {
    /// A new path (nothing is made there): `pickup-LABEL-UUID`, then `suffix` (`.jpg`, say).
    public static func path(_ label: String, suffix: String = "") -> String {
        url(label, suffix: suffix).path
    }

    /// The same new place as a file URL.
    public static func url(_ label: String, suffix: String = "") -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("pickup-\(label)-\(UUID().uuidString)\(suffix)")
    }

    /// A new empty folder, made with `inside` (a relative path such as `card/DCIM`) below it
    /// when given; the folder's path.
    public static func folder(_ label: String, inside: String? = nil) throws -> String {
        let folder = path(label)
        let made = inside.map { folder + "/" + $0 } ?? folder
        try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
        return folder
    }

    /// Removes `path` and everything below it; one that is already gone is no error.
    public static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Removes the file or folder at `url`, as `remove(_:)` does.
    public static func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }
}
