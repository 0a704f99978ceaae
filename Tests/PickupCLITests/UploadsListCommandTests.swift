import Foundation
import PickupTestSupport
import Testing

/// `pickup uploads list`: a header row and a filter by state, through the built tool.
@Suite("uploads list, end to end")
struct UploadsListCommandTests {
    /// An upload to port 9, where nobody listens: it fails at once and stays in the journal as failed.
    func failedUpload(to target: String, journal: String) throws {
        let failed = try CLI.run([
            "upload", try Fixtures.path(.jpegPlain), "--to", target, "--journal", journal, "--retries", "0",
        ])
        #expect(failed.status == 1, "\(failed.errorText)")
    }

    @Test("a header row names the fields; --state keeps the uploads in those states and says of how many")
    func stateFilterAndHeader() throws {
        let folder = try Temporary.folder("cli-uploads")
        defer { Temporary.remove(folder) }
        let journal = folder + "/j.sqlite"
        // An id in a journal that is not there: not found, and no journal made to say so.
        for action in [["cancel", "zzzz"], ["resume", "zzzz"]] {
            let missing = try CLI.run(["uploads"] + action + ["--journal", journal])
            #expect(missing.status == 1 && missing.errorText.contains("no upload 'zzzz'"), "\(missing.errorText)")
            #expect(!FileManager.default.fileExists(atPath: journal))
        }
        try failedUpload(to: "tus+http://127.0.0.1:9/files/", journal: journal)
        let all = try CLI.run(["uploads", "list", "--journal", journal])
        let lines = all.outputText.split(separator: "\n").map(String.init)
        // Columns: each header name stands above its cells.
        let header = lines.first ?? "", row = lines.dropFirst().first ?? ""
        #expect(header.hasPrefix("ID ") && header.hasSuffix("FILE -> TARGET URL: NOTE"), "\(all.outputText)")
        for (name, cell) in [("STATE", "failed"), ("CONFIRMED/SIZE", "0 B/"), ("FILE", try Fixtures.path(.jpegPlain))] {
            let column = header.range(of: name).map { header.distance(from: header.startIndex, to: $0.lowerBound) }
            let at = row.range(of: cell).map { row.distance(from: row.startIndex, to: $0.lowerBound) }
            #expect(
                column != nil && column == at,
                "\(name) at \(String(describing: column)), \(cell) at \(String(describing: at))")
        }
        // Nothing was made on the server: no URL yet.
        #expect(lines.dropFirst().first?.contains(" (no upload URL yet): ") == true, "\(all.outputText)")
        #expect(
            all.outputText.contains(" --journal \(journal)' goes on"), "the hint finds this journal: \(all.outputText)")
        // Listing talks to no server: a certificate file is not offered, so it cannot seem to matter.
        let trusting = try CLI.run(["uploads", "list", "--journal", journal, "--ca-file", journal])
        #expect(trusting.status == 2 && trusting.errorText.contains("--ca-file"), "\(trusting.errorText)")
        let done = try CLI.run(["uploads", "list", "--journal", journal, "--state", "done"])
        #expect(done.status == 0)
        #expect(done.outputText == "0 uploads (of 1) in \(journal)\n", "\(done.outputText)")
        let some = try CLI.jsonLines(
            try CLI.run(["uploads", "list", "--journal", journal, "--state", "paused,failed", "--json"]))
        #expect(some.count == 1 && some.first?["state"] as? String == "failed")
        #expect(some.first?.keys.contains("url") == false)  // null: not made on the server
        let wrong = try CLI.run(["uploads", "list", "--journal", journal, "--state", "finished"])
        #expect(wrong.status == 2)
        #expect(wrong.errorText.contains("--state takes waiting, uploading, paused, failed, done, cancelled"))
    }

    @Test("uploads resume --to tus+URL of a web form's upload is refused, with the way to send it to tus")
    func resumeFormAsTus() throws {
        let folder = try Temporary.folder("cli-uploads")
        defer { Temporary.remove(folder) }
        let journal = folder + "/j.sqlite"
        try failedUpload(to: "http://127.0.0.1:9/upload", journal: journal)
        let id = try #require(
            try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"])).first?["id"] as? String)
        let resumed = try CLI.run([
            "uploads", "resume", id, "--to", "tus+http://127.0.0.1:9/upload", "--journal", journal,
        ])
        #expect(resumed.status == 2, "\(resumed.errorText)")
        #expect(
            resumed.errorText.contains("names a tus server, but a web form sends upload \(id)"), "\(resumed.errorText)")
        #expect(
            resumed.errorText.contains("'pickup uploads cancel \(id) --journal \(journal)'"),
            "\(resumed.errorText)")
        // The same URL as a form's: taken (the place is the upload's own).
        let again = try CLI.run(["uploads", "resume", id, "--to", "http://127.0.0.1:9/upload", "--journal", journal])
        #expect(again.status == 1 && !again.errorText.contains("names a tus server"), "\(again.errorText)")
    }

    @Test("each upload shows where the file is on the server: a tus upload's URL, in the table and --json")
    func serverURL() throws {
        let server = try TusServer()
        let folder = try Temporary.folder("cli-uploads-url")
        defer { Temporary.remove(folder) }
        let journal = folder + "/j.sqlite"
        let sent = try CLI.run([
            "upload", try Fixtures.path(.jpegPlain), "--to", "tus+" + server.endpoint.absoluteString, "--journal",
            journal, "--json",
        ])
        #expect(sent.status == 0, "\(sent.errorText)")
        let remote = try #require(try CLI.jsonLines(sent).first?["remote"] as? String)
        #expect(remote.hasPrefix(server.endpoint.absoluteString))
        let listed = try CLI.run(["uploads", "list", "--journal", journal])
        let row = listed.outputText.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        #expect(row.contains(" done ") && row.hasSuffix(" " + remote), "\(listed.outputText)")
        let json = try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"]))
        #expect(json.first?["url"] as? String == remote, "\(json)")
    }
}
