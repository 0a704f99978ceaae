import Foundation
import PickupTestSupport
import Testing

/// What an iOS developer opens and what App Store submission reads, checked without Xcode:
/// the demo's Xcode project, PickupUI's String Catalog, the privacy manifests.
@Suite("The Apple project files")
struct AppleProjectTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func python() -> String {
        let venv = AppleProjectTests.root.appendingPathComponent(".build/python/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "/usr/bin/python3"
    }

    @Test("the demo's Xcode project parses and names only files that exist, and every demo file")
    func demoProject() throws {
        let result = try Shell.run(
            "cd '\(AppleProjectTests.root.path)' && '\(python())' scripts/check-xcode-project.py")
        #expect(result.status == 0, "\(result.errorText)")
    }

    @Test("a project that names a missing file fails the check")
    func brokenProjectFails() throws {
        let copy = Temporary.url("demo")
        defer { Temporary.remove(copy) }
        try FileManager.default.copyItem(
            at: AppleProjectTests.root.appendingPathComponent("Examples/PickupDemo"), to: copy)
        try FileManager.default.removeItem(at: copy.appendingPathComponent("PickupDemoApp.swift"))
        let result = try Shell.run(
            "cd '\(AppleProjectTests.root.path)' && '\(python())' scripts/check-xcode-project.py '\(copy.path)'")
        #expect(result.status == 1)
        #expect(result.errorText.contains("PickupDemoApp.swift"))
    }

    @Test("every phrase PickupUI shows is in its String Catalog, in English and Japanese")
    func stringCatalog() throws {
        let folder = AppleProjectTests.root.appendingPathComponent("Sources/PickupUI")
        let catalog = try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent("Resources/Localizable.xcstrings")))
        let strings = try #require((catalog as? [String: Any])?["strings"] as? [String: Any])
        var keys: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for marker in ["Localized.string(\"", "Localized.string(\n"] {
                var rest = Substring(text)
                while let start = rest.range(of: marker) {
                    rest = rest[start.upperBound...]
                    let body = rest.drop { $0 == " " || $0 == "\n" || $0 == "\"" }
                    if let end = body.firstIndex(of: "\"") { keys.insert(String(body[..<end])) }
                }
            }
        }
        #expect(keys.count >= 20)
        for key in keys {
            let entry = strings[key] as? [String: Any]
            let localizations = entry?["localizations"] as? [String: Any]
            #expect(localizations?["en"] != nil, "\(key) has no English")
            #expect(localizations?["ja"] != nil, "\(key) has no Japanese")
        }
    }

    @Test(
        "each target that reads file dates or disk space ships a privacy manifest with its reasons",
        arguments: [
            ("Pickup", ["NSPrivacyAccessedAPICategoryFileTimestamp"]),
            ("PickupStore", ["NSPrivacyAccessedAPICategoryFileTimestamp"]),
            (
                "PickupUpload",
                ["NSPrivacyAccessedAPICategoryFileTimestamp", "NSPrivacyAccessedAPICategorySystemBootTime"]
            ),
            ("PickupImport", ["NSPrivacyAccessedAPICategoryFileTimestamp", "NSPrivacyAccessedAPICategoryDiskSpace"]),
        ])
    func privacyManifest(target: String, categories: [String]) throws {
        let path = AppleProjectTests.root.appendingPathComponent("Sources/\(target)/Resources/PrivacyInfo.xcprivacy")
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: path), format: nil)
        let manifest = try #require(plist as? [String: Any])
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        let types = try #require(manifest["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        let found = types.compactMap { $0["NSPrivacyAccessedAPIType"] as? String }
        #expect(Set(found) == Set(categories))
        #expect(types.allSatisfy { ($0["NSPrivacyAccessedAPITypeReasons"] as? [String])?.isEmpty == false })
        let package = try String(
            contentsOf: AppleProjectTests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(package.contains("name: \"\(target)\""))
    }
}
