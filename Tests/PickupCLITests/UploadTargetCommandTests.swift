import Foundation
import PickupTestSupport
import Testing

/// `pickup upload --to` and `--endpoint` in any case of scheme, through the built tool.
@Suite("upload targets, end to end", .serialized)
struct UploadTargetCommandTests {
    func scratch() throws -> String {
        let folder = try Temporary.folder("cli-target")
        return folder
    }

    @Test("schemes are case-insensitive (RFC 3986): TUS+HTTP://, HTTP:// and S3:// are taken; a wrong one says why")
    func upperCaseSchemes() throws {
        let tus = try TusServer()
        let form = try FormServer()
        let s3 = try SeaweedServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let journal = folder + "/j.sqlite"
        let photo = try Fixtures.path(.jpegPlain)
        func upper(_ url: URL) -> String {
            let text = url.absoluteString
            return text.replacingOccurrences(of: "http://", with: "HTTP://")
        }
        let toTus = try CLI.run(["upload", photo, "--to", "TUS+" + upper(tus.endpoint), "--journal", journal, "--json"])
        #expect(toTus.status == 0, "\(toTus.errorText)\(toTus.outputText)")
        #expect(try CLI.jsonLines(toTus).first?["state"] as? String == "done")
        let toForm = try CLI.run(["upload", photo, "--to", upper(form.url), "--journal", journal, "--json"])
        #expect(toForm.status == 0, "\(toForm.errorText)\(toForm.outputText)")
        #expect(try CLI.jsonLines(toForm).first?["state"] as? String == "done")
        // The web app's answer comes with the record: here, what the test server says it stored.
        let reply = try #require(try CLI.jsonLines(toForm).first?["reply"] as? String)
        #expect(reply.contains("\"name\": \"plain.jpg\""), "\(reply)")
        #expect(try CLI.jsonLines(toTus).first?["reply"] == nil, "a tus upload has no reply")
        // tus metadata from the command line, as the server records it; refused for the others.
        let tagged = try CLI.run([
            "upload", try Fixtures.path(.pngRGBA), "--to", "tus+" + tus.endpoint.absoluteString, "--metadata",
            "album=trip", "--metadata", "user=42", "--journal", journal, "--json",
        ])
        #expect(tagged.status == 0, "\(tagged.errorText)")
        let remote = try #require(try CLI.jsonLines(tagged).first?["remote"] as? String)
        let info = try String(
            contentsOfFile: tus.folder + "/" + (remote as NSString).lastPathComponent + ".info", encoding: .utf8)
        #expect(info.contains("trip") && info.contains("42"), "\(info)")
        #expect(try CLI.jsonLines(tagged).first?["metadata"] as? [String: String] == ["album": "trip", "user": "42"])
        // Other metadata is another upload, not one already there: the server files it elsewhere.
        let retagged = try CLI.run([
            "upload", try Fixtures.path(.pngRGBA), "--to", "tus+" + tus.endpoint.absoluteString, "--metadata",
            "album=other", "--journal", journal, "--json",
        ])
        let other = try #require(try CLI.jsonLines(retagged).first?["remote"] as? String)
        #expect(other != remote, "\(retagged.outputText)")
        // A form's answer in the human output too.
        let shown = try CLI.run([
            "upload", try Fixtures.path(.pngRGBA), "--to", form.url.absoluteString, "--journal", journal,
        ])
        #expect(shown.outputText.contains("server replied: {\"name\": \"rgba.png\""), "\(shown.outputText)")
        let misplaced = try CLI.run(["upload", photo, "--to", form.url.absoluteString, "--metadata", "album=trip"])
        #expect(
            misplaced.status == 2
                && misplaced.errorText.contains(
                    "--metadata (for tus; a form takes --form-field NAME=VALUE) does nothing")
        )
        // Said before anything S3 needs is looked for: no credentials here, the option named first.
        let onS3 = try CLI.run(
            ["upload", photo, "--to", "s3://photos/", "--metadata", "album=trip"], environment: ["HOME": folder])
        #expect(onS3.status == 2 && onS3.errorText.contains("--metadata (for tus) does nothing"), "\(onS3.errorText)")
        let spaced = try CLI.run([
            "upload", photo, "--to", "tus+" + tus.endpoint.absoluteString, "--metadata", "my album=x",
        ])
        #expect(spaced.status == 2 && spaced.errorText.contains("'my album' has a space"), "\(spaced.errorText)")
        let credentials = folder + "/credentials"
        try "AWS_ACCESS_KEY_ID=\(s3.accessKey)\nAWS_SECRET_ACCESS_KEY=\(s3.secretKey)\n".write(
            toFile: credentials, atomically: true, encoding: .utf8)
        let toS3 = try CLI.run([
            "upload", photo, "--to", "S3://photos/upper/", "--endpoint", upper(s3.endpoint), "--credentials",
            credentials, "--journal", journal, "--json",
        ])
        #expect(toS3.status == 0, "\(toS3.errorText)\(toS3.outputText)")
        #expect(try s3.object("upper/plain.jpg") == (try Data(contentsOf: URL(fileURLWithPath: photo))))

        // A target that is none says what --to takes.
        let wrong = try CLI.run(["upload", photo, "--to", "FTP://example.com/upload"])
        #expect(wrong.status == 2)
        #expect(wrong.errorText.contains("is not an upload target: --to takes a tus endpoint"), "\(wrong.errorText)")
    }
}
