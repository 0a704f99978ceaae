import Foundation
import PickupStore
import PickupTestSupport
import Testing

@testable import PickupUpload

/// The journal of a camera roll's uploads: deciding "already there" for every file of a run is
/// one call whose cost grows with the run, not with the run times the journal.
@Suite("The journal at scale", .serialized)
struct JournalScaleTests {
    /// A journal of `count` finished uploads of `size`-byte files to one tus endpoint (as a
    /// folder of small photos makes), each with its SHA-256.
    static func journal(_ count: Int, size: Int64 = 2_048) async throws -> (UploadJournal, String, [String]) {
        let path = Temporary.path("journal-scale", suffix: "/uploads.sqlite")
        let journal = try UploadJournal(path: path)
        var hashes: [(id: String, sha256: String)] = []
        for number in 0..<count {
            var record = try await journal.begin(
                path: "/photos/\(number).jpg", size: size, modified: 1, destination: UploadTestFiles.someTusServer,
                type: "image/jpeg")
            record.state = .done
            record.offset = size
            try await journal.save(record)
            hashes.append((record.id, String(repeating: "0", count: 56) + String(format: "%08x", number)))
        }
        try await journal.recordSHA256(hashes)
        return (journal, path, hashes.map(\.sha256))
    }

    @Test("the already-there lookup of 10x the files in 10x the journal takes less than 25x the time")
    func alreadyThereGrowsLinearly() async throws {
        let (small, smallPath, smallHashes) = try await JournalScaleTests.journal(400)
        let (large, largePath, largeHashes) = try await JournalScaleTests.journal(4_000)
        defer {
            for path in [smallPath, largePath] {
                try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
            }
        }
        func lookUp(_ journal: UploadJournal, _ hashes: [String]) async throws {
            let found = try await journal.finishedUploads(
                to: hashes.map { _ in (UploadTestFiles.someTusServer, Int64(2_048)) })
            for (candidates, sha256) in zip(found, hashes) where candidates[sha256] == nil {
                throw CocoaError(.fileNoSuchFile)
            }
        }
        let found = try await large.finishedUploads(to: [(UploadTestFiles.someTusServer, 2_048)])
        #expect(found.first?.count == 4_000)
        #expect(found.first?[largeHashes[3_999]]?.path == "/photos/3999.jpg")
        #expect(try await large.finishedUploads(to: [(UploadTestFiles.someTusServer, 2_049)]).first?.isEmpty == true)
        let short = try await Timing.shortest { try await lookUp(small, smallHashes) }
        let long = try await Timing.shortest { try await lookUp(large, largeHashes) }
        #expect(long / max(short, 1e-4) < 25, "\(short) s, then \(long) s")
    }

    @Test("the already-there lookup and an upload's own row are served by indexes")
    func lookupsUseIndexes() async throws {
        let (journal, path, _) = try await JournalScaleTests.journal(3)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let plans = try await journal.queryPlans()
        #expect(plans["finished"]?.joined().contains("USING INDEX uploads_finished") == true, "\(plans)")
        #expect(plans["byID"]?.joined().contains("id>? AND id<?") == true, "\(plans)")
        #expect(plans["save"]?.joined().contains("USING INDEX") == true, "\(plans)")
        for (name, steps) in plans { #expect(!steps.contains { $0.hasPrefix("SCAN") }, "\(name): \(steps)") }
    }

    @Test("an id and its prefix find the upload")
    func prefixes() async throws {
        let (journal, path, _) = try await JournalScaleTests.journal(20)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let some = try #require(try await journal.all().first)
        #expect(try await journal.record(id: some.id)?.path == some.path)
        #expect(try await journal.record(id: String(some.id.prefix(7)))?.path == some.path)
        #expect(try await journal.record(id: some.id + "x") == nil)
        #expect(UploadJournal.upperBound(ofPrefix: "ab9") == "ab:")
    }
}
