import Foundation
import PickupTestSupport
import Testing

/// `pickup upload` and `pickup uploads` with credentials: headers checked before anything is
/// sent and never shown, headers read from a file or the environment, a credential sent
/// only to the server it was given for, a journal only its owner can read.
@Suite("pickup upload's credentials and journal, end to end", .serialized)
struct UploadSecurityCommandTests {
    static let secret = "SUPERSECRET-TOKEN"

    func scratch() throws -> String {
        let folder = try Temporary.folder("cli-secure")
        return folder
    }

    /// The headers (names lowercased) of each request `server` saw.
    func headers(_ server: HostileServer) -> [[String: String]] {
        server.requests().map { ($0["headers"] as? [String: String]) ?? [:] }
    }

    @Test(
        "a header with a control character exits 2 before anything is sent, naming the header, never its value",
        arguments: [
            (["-H", "X-Api-Key: \(secret)\u{01}"], [String: String](), "X-Api-Key"),
            (["-H", "X-Api-Key: \(secret)\r"], [:], "X-Api-Key"),
            ([], ["PICKUP_UPLOAD_AUTHORIZATION": "Bearer \(secret)\r"], "PICKUP_UPLOAD_AUTHORIZATION"),
            ([], ["PICKUP_UPLOAD_HEADERS": "X-Api-Key: \(secret)\u{7F}"], "X-Api-Key"),
            // A stray CR inside a line (not a CR LF line end) is the header's, named as such.
            ([], ["PICKUP_UPLOAD_HEADERS": "Authorization: Bearer \(secret)\rmore\r\nX-Trace: 1"], "Authorization"),
            (["-H", "no colon in \(secret)"], [:], "NAME: VALUE"),
        ])
    func controlCharacters(flags: [String], environment: [String: String], named: String) throws {
        let server = try HostileServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        for json in [false, true] {
            let result = try CLI.run(
                [
                    "upload", try Fixtures.path(.jpegPlain), "--to",
                    "tus+" + server.url("tus-big-offset").absoluteString,
                    "--journal", folder + "/j.sqlite",
                ] + flags + (json ? ["--json"] : []), environment: environment)
            #expect(result.status == 2, "\(result.errorText)")
            #expect(result.errorText.contains(named), "\(result.errorText)")
            for text in [result.errorText, result.outputText] {
                #expect(!text.contains(Self.secret), "the value was shown: \(text)")
                #expect(!text.contains("HTTPClientError"), "a library's description was shown: \(text)")
            }
        }
        #expect(server.requests().isEmpty, "something was sent: \(server.requests())")
        // Nothing reached the journal either.
        if FileManager.default.fileExists(atPath: folder + "/j.sqlite") {
            let raw = try Data(contentsOf: URL(fileURLWithPath: folder + "/j.sqlite"))
            #expect(!String(decoding: raw, as: UTF8.self).contains(Self.secret))
        }
    }

    @Test("uploads resume checks the environment's headers the same way")
    func resumeChecksHeaders() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let result = try CLI.run(
            ["uploads", "resume", "abc", "--journal", folder + "/j.sqlite"],
            environment: ["PICKUP_UPLOAD_AUTHORIZATION": "Bearer \(Self.secret)\r\n"])
        #expect(result.status == 2, "\(result.errorText)")
        #expect(result.errorText.contains("carriage return") && !result.errorText.contains(Self.secret))
    }

    @Test("-H @FILE and PICKUP_UPLOAD_HEADERS send any header without it being on the command line")
    func headersFromAFileAndTheEnvironment() throws {
        let server = try HostileServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        // Saved with CR LF line ends, as an editor on Windows does: the line ends are not the value.
        try "# for the photo server\r\nAuthorization: Bearer from-file\r\nX-Trace: 1\r\n".write(
            toFile: folder + "/headers.txt", atomically: true, encoding: .utf8)
        let result = try CLI.run(
            [
                "upload", try Fixtures.path(.jpegPlain), "--to", "tus+" + server.url("tus-big-offset").absoluteString,
                "--journal", folder + "/j.sqlite", "-H", "@" + folder + "/headers.txt",
            ], environment: ["PICKUP_UPLOAD_HEADERS": "X-Api-Key: from-environment\nX-Other: 2"])
        #expect(result.status == 1, "past the headers, to the server's bad offset: \(result.errorText)")
        let seen = try #require(headers(server).first)
        #expect(seen["authorization"] == "Bearer from-file" && seen["x-trace"] == "1", "\(seen)")
        #expect(seen["x-api-key"] == "from-environment" && seen["x-other"] == "2", "\(seen)")
        let missing = try CLI.run([
            "upload", try Fixtures.path(.jpegPlain), "--to", "tus+" + server.url("x").absoluteString, "-H",
            "@" + folder + "/none.txt", "--journal", folder + "/j.sqlite",
        ])
        #expect(missing.status == 2 && missing.errorText.contains("cannot read that file"), "\(missing.errorText)")
    }

    /// Two uploads that failed, one to `first`, one to `second`, in the journal at `journal`: their ids.
    func twoFailedUploads(_ first: HostileServer, _ second: HostileServer, journal: String) throws -> [String] {
        try [first, second].map { server in
            let result = try CLI.run([
                "upload", try Fixtures.path(.jpegPlain), "--to", server.url("refused").absoluteString, "--retries",
                "0", "--journal", journal, "--json",
            ])
            #expect(result.status == 1, "\(result.errorText)")
            return try #require(try CLI.jsonLines(result).first?["id"] as? String)
        }
    }

    @Test("with a credential set, uploads resume needs an id: the token goes to no other server of the journal")
    func resumeSendsACredentialToItsOwnServerOnly() throws {
        let first = try HostileServer()
        let second = try HostileServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let journal = folder + "/j.sqlite"
        let ids = try twoFailedUploads(first, second, journal: journal)
        let before = (first.requests().count, second.requests().count)
        let token = ["PICKUP_UPLOAD_AUTHORIZATION": "Bearer \(Self.secret)"]
        let all = try CLI.run(["uploads", "resume", "--journal", journal], environment: token)
        #expect(all.status == 2, "\(all.errorText)")
        #expect(all.errorText.contains("pickup uploads resume \(ids[0])"), "\(all.errorText)")
        #expect(!all.errorText.contains(Self.secret))
        #expect(first.requests().count == before.0 && second.requests().count == before.1, "something was sent")
        // By id: that upload's server only.
        _ = try CLI.run(["uploads", "resume", ids[0], "--journal", journal], environment: token)
        #expect(first.requests().count > before.0)
        #expect(headers(first).last?["authorization"] == "Bearer \(Self.secret)")
        #expect(second.requests().count == before.1, "the other server was reached: \(second.requests())")
        // With no credential set, the other upload goes on, and carries none. (By id: resuming
        // every upload leaves out the ones the server refused for where they go, as these were.)
        let plain = try CLI.run(["uploads", "resume", ids[1], "--journal", journal])
        #expect(plain.status == 1, "\(plain.errorText)")
        #expect(second.requests().count > before.1)
        #expect(headers(second).allSatisfy { $0["authorization"] == nil })
    }

    @Test("the journal's folder is made 0700 and the journal 0600; a bare name is in the current folder")
    func journalPermissions() throws {
        let server = try HostileServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let result = try CLI.run([
            "upload", try Fixtures.path(.jpegPlain), "--to", server.url("refused").absoluteString, "--retries", "0",
            "--journal", folder + "/state/pickup/j.sqlite",
        ])
        #expect(result.status == 1, "\(result.errorText)")
        let mode = { (path: String) throws -> Int in
            try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        #expect(try mode(folder + "/state/pickup") == 0o700)
        #expect(try mode(folder + "/state/pickup/j.sqlite") == 0o600)
        // A journal named with no folder: the current one, not "The file doesn't exist".
        let bare = try Shell.run(
            "cd \"$D\" && \"$TOOL\" upload \"$F\" --to \"$URL\" --retries 0 --journal bare.sqlite",
            environment: [
                "D": folder, "TOOL": CLI.tool, "F": try Fixtures.path(.jpegPlain),
                "URL": server.url("refused").absoluteString,
            ])
        #expect(bare.status == 1, "\(bare.errorText)")
        #expect(!bare.errorText.contains("doesn't exist"), "\(bare.errorText)")
        #expect(FileManager.default.fileExists(atPath: folder + "/bare.sqlite"))
        #expect(try mode(folder + "/bare.sqlite") == 0o600)
    }

    @Test("uploads list shows where resuming would send an upload, even when the journal's text says otherwise")
    func listShowsTheDestinationUsed() throws {
        let server = try HostileServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let journal = folder + "/j.sqlite"
        let upload = try CLI.run([
            "upload", try Fixtures.path(.jpegPlain), "--to", server.url("refused").absoluteString, "--retries", "0",
            "--journal", journal,
        ])
        #expect(upload.status == 1)
        // An edited row: the text says one server, the destination resuming uses is another.
        let edited = try Shell.run(
            "sqlite3 \"$J\" \"UPDATE uploads SET target = 'https://trusted.example/upload'\"",
            environment: ["J": journal])
        #expect(edited.status == 0, "\(edited.errorText)")
        let list = try CLI.run(["uploads", "list", "--journal", journal])
        #expect(list.outputText.contains(server.url("refused").absoluteString), "\(list.outputText)")
        #expect(!list.outputText.contains("trusted.example"), "\(list.outputText)")
    }
}
