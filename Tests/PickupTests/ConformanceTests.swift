import Foundation
import Pickup
import PickupTestSupport
import Testing

/// Every file of the shared corpus, probed and compared with its manifest.
@Suite("Conformance with ../shared/corpus")
struct ConformanceTests {
    static let generated = Corpus.entries("generated")
    static let real = Corpus.entries("real")

    @Test(
        "generated files match their manifest",
        .enabled(if: Corpus.root != nil, "../shared/corpus is absent: conformance skipped"), arguments: generated)
    func generatedFile(_ entry: Corpus.Entry) throws {
        try check(entry)
    }

    @Test(
        "real camera and phone files match their manifest",
        .enabled(if: Corpus.root != nil, "../shared/corpus is absent: conformance skipped"), arguments: real)
    func realFile(_ entry: Corpus.Entry) throws {
        try check(entry)
    }

    @Test(
        "hostile files give facts or an error within a second",
        .enabled(if: Corpus.root != nil, "../shared/corpus is absent: conformance skipped"))
    func hostileFiles() throws {
        let files = Corpus.hostileFiles()
        #expect(!files.isEmpty)
        for path in files {
            let started = ContinuousClock.now
            do {
                _ = try MediaProbe().probe(path: path)
            } catch {
                #expect(!error.message.isEmpty)
            }
            let elapsed = ContinuousClock.now - started
            #expect(elapsed < .seconds(1), "\(path) took \(elapsed)")
        }
    }

    private func check(_ entry: Corpus.Entry) throws {
        let result = Result { () throws(ProbeError) in try MediaProbe().probe(path: entry.path) }
        if entry.isInvalid {
            guard case .failure(let error) = result else {
                Issue.record("\(entry.name) should fail (\(entry.facts["why"].map { "\($0)" } ?? "")) but probed")
                return
            }
            #expect(error.path == entry.path)
            #expect(!error.message.isEmpty)
            return
        }
        let info: MediaInfo
        switch result {
        case .success(let value): info = value
        case .failure(let error):
            // Hostile entries may fail; everything else must probe.
            #expect(entry.isHostile, "\(entry.name): \(error)")
            return
        }
        let facts = Dictionary(info.facts.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        for (name, expected) in entry.facts where !["why", "hostile"].contains(name) {
            let actual = facts[name]
            #expect(
                ConformanceTests.matches(name, expected, actual),
                "\(entry.name): \(name) is \(String(describing: actual)), manifest says \(expected)")
        }
    }

    /// Compares one fact with the manifest's tolerances.
    static func matches(_ name: String, _ expected: Corpus.ManifestValue, _ actual: Fact?) -> Bool {
        switch (expected, actual) {
        case (.string(let want), .string(let have)?): return want == have
        case (.bool(let want), .bool(let have)?): return want == have
        case (.number(let want), .int(let have)?): return tolerance(name, want, Double(have))
        case (.number(let want), .double(let have)?): return tolerance(name, want, have)
        default: return false
        }
    }

    static func tolerance(_ name: String, _ want: Double, _ have: Double) -> Bool {
        switch name {
        case "duration": return abs(want - have) <= 0.05
        case "frameRate": return abs(want - have) <= want * 0.01
        case "latitude", "longitude": return abs(want - have) <= 0.0001
        case "altitude": return abs(want - have) <= 0.5
        default: return want == have
        }
    }
}
