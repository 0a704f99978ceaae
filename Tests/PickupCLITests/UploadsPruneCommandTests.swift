import Foundation
import PickupTestSupport
import Testing

/// `pickup uploads prune`: finished records leave the journal; the others stay.
@Suite("uploads prune, end to end", .serialized)
struct UploadsPruneCommandTests {
    @Test("done and cancelled records are removed (--dry-run lists them only); failed ones stay; --older-than")
    func prune() throws {
        let server = try TusServer()
        let folder = try Temporary.folder("cli-prune")
        defer { Temporary.remove(folder) }
        let journal = folder + "/j.sqlite"
        let done = try CLI.run([
            "upload", try Fixtures.path(.jpegPlain), "--to", "tus+" + server.endpoint.absoluteString, "--journal",
            journal, "--json",
        ])
        #expect(done.status == 0, "\(done.errorText)")
        let doneID = try #require(try CLI.jsonLines(done).first?["id"] as? String)
        // Nobody listens on port 9: failed, and kept.
        let failed = try CLI.run([
            "upload", try Fixtures.path(.heic), "--to", "tus+http://127.0.0.1:9/files/", "--journal", journal,
            "--retries", "0",
        ])
        #expect(failed.status == 1)
        func states() throws -> [String] {
            try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"])).compactMap {
                $0["state"] as? String
            }.sorted()
        }
        #expect(try states() == ["done", "failed"])

        let young = try CLI.run(["uploads", "prune", "--journal", journal, "--older-than", "1d"])
        #expect(young.status == 0, "\(young.errorText)")
        #expect(young.outputText.contains("removed 0 finished uploads from \(journal); 2 kept"), "\(young.outputText)")
        let dry = try CLI.run(["uploads", "prune", "--journal", journal, "--dry-run"])
        #expect(dry.status == 0, "\(dry.errorText)")
        #expect(dry.outputText.contains("\(doneID) done "), "\(dry.outputText)")
        #expect(dry.outputText.contains("would remove 1 finished upload (--dry-run: nothing removed)"))
        #expect(try states() == ["done", "failed"])

        let pruned = try CLI.jsonLines(try CLI.run(["uploads", "prune", "--journal", journal, "--json"]))
        #expect(pruned.map { $0["id"] as? String } == [doneID])
        #expect(try states() == ["failed"])

        let wrong = try CLI.run(["uploads", "prune", "--journal", journal, "--older-than", "soon"])
        #expect(wrong.status == 2 && wrong.errorText.contains("--older-than takes a number and s, m, h, d or w"))
        let missing = try CLI.run(["uploads", "prune", "--journal", folder + "/nosuch.sqlite"])
        #expect(missing.status == 1 && missing.errorText.contains("no journal at"))
    }
}
