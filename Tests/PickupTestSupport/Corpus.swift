import Foundation

/// The shared conformance corpus beside the project (`../shared/corpus`),
/// with the facts its manifests give for each file.
public enum Corpus {
    /// The corpus folder, or nil when it is absent (tests then skip with a message).
    public static let root: URL? = {
        var folder = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { folder.deleteLastPathComponent() }  // Tests/PickupTestSupport/Corpus.swift -> project
        let candidates = [
            ProcessInfo.processInfo.environment["PICKUP_CORPUS"].map { URL(fileURLWithPath: $0) },
            folder.deletingLastPathComponent().appendingPathComponent("shared/corpus"),
        ].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("generated").path) }
    }()

    public struct Entry: Sendable, CustomStringConvertible {
        public let path: String
        public let name: String
        public let facts: [String: ManifestValue]
        public var description: String { name }
        public var isInvalid: Bool { facts["kind"] == .string("invalid") }
        public var isHostile: Bool { facts["hostile"] == .bool(true) }
    }

    public enum ManifestValue: Sendable, Equatable, Decodable {
        case string(String)
        case number(Double)
        case bool(Bool)

        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }

    /// The entries of `generated/manifest.json` or `real/manifest.json`.
    public static func entries(_ part: String) -> [Entry] {
        guard let root else { return [] }
        let folder = root.appendingPathComponent(part)
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("manifest.json")),
            let manifest = try? JSONDecoder().decode([String: [String: ManifestValue]].self, from: data)
        else { return [] }
        return manifest.keys.sorted().filter { !$0.hasPrefix("_") }.map { name in
            Entry(path: folder.appendingPathComponent(name).path, name: part + "/" + name, facts: manifest[name] ?? [:])
        }
    }

    /// Every file under `hostile/`.
    public static func hostileFiles() -> [String] {
        guard let root else { return [] }
        let folder = root.appendingPathComponent("hostile")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0).path }
    }
}
