import Foundation
import PickupTestSupport
import Testing

/// `pickup upload --dry-run`: what would be sent, and where; nothing sent, no journal.
@Suite("upload --dry-run, end to end")
struct UploadDryRunCommandTests {
    @Test(
        "an empty file named as a photo is an interrupted copy: not sent, said so, exit 1; an empty .txt is sent; one cut short goes, said"
    )
    func emptyPhoto() throws {
        let server = try TusServer()
        let folder = Temporary.path("cli-upload-empty")
        defer { Temporary.remove(folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let empty = folder + "/IMG_0001.JPG"
        let note = folder + "/note.txt"
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        #expect(FileManager.default.createFile(atPath: note, contents: nil))
        let to = "tus+" + server.endpoint.absoluteString
        let dry = try CLI.run(["upload", empty, note, "--to", to, "--dry-run"])
        #expect(dry.status == 1)
        #expect(dry.outputText.contains("How: by tus, resumable"), "\(dry.outputText)")
        // A plain http(s):// URL is a web form: said, with how a tus server is given.
        let form = try CLI.run(["upload", note, "--to", server.endpoint.absoluteString, "--dry-run"])
        #expect(form.outputText.contains("How: as a web form, one multipart POST a file (field 'file')"))
        #expect(form.outputText.contains("A tus server is given as --to tus+http(s)://HOST/PATH."))
        #expect(dry.errorText.contains("\(empty): the file is empty (0 bytes)"), "\(dry.errorText)")
        #expect(!dry.outputText.contains("would send \(empty)") && dry.outputText.contains("would send \(note)"))
        let sent = try CLI.run(["upload", empty, note, "--to", to, "--journal", folder + "/j.sqlite"])
        #expect(sent.status == 1, "\(sent.outputText)")
        #expect(sent.errorText.contains("\(empty): the file is empty (0 bytes)"), "\(sent.errorText)")
        #expect(sent.outputText.contains("1 uploaded") && sent.outputText.contains("1 not sent (see above)"))
        // Cut short (a card pulled out mid-write): still what there is of that video, so it goes,
        // and the run says what probe and import would say of it.
        let cut = folder + "/clip.mp4"
        let whole = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.path(.mp4BlackStart)))
        try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: cut))
        let cutSent = try CLI.run(["upload", cut, "--to", to, "--journal", folder + "/j.sqlite"])
        #expect(cutSent.status == 0 && cutSent.errorText.contains("cut short"), "\(cutSent.errorText)")
        #expect(cutSent.errorText.contains("taken as it is, not left out") && cutSent.outputText.contains("1 uploaded"))
        // A note named as a photo, found in a folder: taken as a damaged photo would be, and said so.
        let card = folder + "/card"
        try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: true)
        try Data("a note\n".utf8).write(to: URL(fileURLWithPath: card + "/IMG_0002.JPG"))
        let misnamed = try CLI.run(["upload", "-r", card, "--to", to, "--journal", folder + "/j.sqlite"])
        #expect(misnamed.status == 0 && misnamed.outputText.contains("1 uploaded"), "\(misnamed.outputText)")
        #expect(
            misnamed.errorText.contains(
                "\(card)/IMG_0002.JPG: the file holds plain text, not a photo or video; taken as it is, not left out"),
            "\(misnamed.errorText)")
    }

    @Test("a file the journal has sent with the same bytes is said to be already there, as the run skips it")
    func alreadyThere() throws {
        let server = try TusServer()
        let folder = Temporary.path("cli-upload-dry-there")
        defer { Temporary.remove(folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let sent = folder + "/IMG_0001.JPG"
        let other = folder + "/IMG_0002.JPG"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: sent)
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegEXIF), toPath: other)
        let journal = folder + "/j.sqlite"
        let to = "tus+" + server.endpoint.absoluteString
        #expect(try CLI.run(["upload", sent, "--to", to, "--journal", journal]).status == 0)

        let dry = try CLI.run(["upload", sent, other, "--to", to, "--journal", journal, "--dry-run"])
        #expect(dry.status == 0, "\(dry.errorText)")
        #expect(dry.outputText.contains("already there \(sent) ("), "\(dry.outputText)")
        #expect(dry.outputText.contains("would send \(other) ("), "\(dry.outputText)")
        #expect(dry.outputText.contains("1 file ("), "\(dry.outputText)")
        #expect(dry.outputText.contains(", 1 already there."), "\(dry.outputText)")
        let plans = try CLI.jsonLines(
            try CLI.run(["upload", sent, other, "--to", to, "--journal", journal, "--dry-run", "--json"])
        ).filter { $0["type"] as? String == "plan" }
        #expect(
            plans.map { $0["status"] as? String } == ["alreadyThere", "wouldSend"]
                && plans.first?["id"] as? String != nil, "\(plans)")
        // The run skips what the dry run said; --force sends it, and its dry run says so.
        let run = try CLI.run(["upload", sent, other, "--to", to, "--journal", journal])
        #expect(run.outputText.contains("1 uploaded, 1 already there"), "\(run.outputText)")
        let forced = try CLI.run(["upload", sent, "--to", to, "--journal", journal, "--dry-run", "--force"])
        #expect(forced.outputText.contains("would send \(sent) ("), "\(forced.outputText)")
        // Only read: a changed byte of the sent file makes it one to send again.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: sent))
        bytes[bytes.count - 3] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: sent))
        let changed = try CLI.run(["upload", sent, "--to", to, "--journal", journal, "--dry-run"])
        #expect(changed.outputText.contains("would send \(sent) ("), "\(changed.outputText)")
    }

    @Test("each file and its S3 key are listed; nothing is sent and the journal is neither made nor changed")
    func dryRun() throws {
        let folder = Temporary.path("cli-upload-dry")
        defer { Temporary.remove(folder) }
        let card = folder + "/DCIM"
        try FileManager.default.createDirectory(atPath: card + "/100APPLE", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: card + "/IMG_0001.JPG")
        try FileManager.default.copyItem(
            atPath: try Fixtures.path(.movAppleKeys), toPath: card + "/100APPLE/IMG_0002.MOV")
        try Data("a note".utf8).write(to: URL(fileURLWithPath: card + "/notes.txt"))
        let journal = folder + "/j.sqlite"
        // Nobody listens on port 9: a dry run asks no server anything.
        let arguments = [
            "upload", "-r", card, "--to", "s3://photos/trip/", "--endpoint", "http://127.0.0.1:9", "--journal",
            journal, "--dry-run",
        ]
        let environment = ["AWS_ACCESS_KEY_ID": "key", "AWS_SECRET_ACCESS_KEY": "secret", "HOME": folder]
        let plain = try CLI.run(arguments, environment: environment)
        #expect(plain.status == 0, "\(plain.errorText)")
        #expect(
            plain.outputText.contains(
                "would send \(card)/100APPLE/IMG_0002.MOV (")
                && plain.outputText.contains(
                    ") -> s3://photos/trip/100APPLE/IMG_0002.MOV at http://127.0.0.1:9"),
            "\(plain.outputText)")
        #expect(plain.outputText.contains("-> s3://photos/trip/IMG_0001.JPG at http://127.0.0.1:9"))
        #expect(!plain.outputText.contains("notes.txt"))
        #expect(plain.outputText.contains("2 files ("), "\(plain.outputText)")
        #expect(plain.outputText.contains("How: to S3, one PUT a file below 8 MB"), "\(plain.outputText)")
        #expect(plain.outputText.contains("Nothing was sent (--dry-run); the journal was only read."))
        #expect(!plain.errorText.contains("retry"), "\(plain.errorText)")
        #expect(!FileManager.default.fileExists(atPath: journal))

        // Naming the keys needs no credentials (the help's own example has none).
        let noKeys = try CLI.run(
            arguments,
            environment: ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_PROFILE": "", "HOME": folder])
        #expect(noKeys.status == 0, "\(noKeys.errorText)")
        #expect(noKeys.outputText.contains("-> s3://photos/trip/IMG_0001.JPG at http://127.0.0.1:9"))

        let json = try CLI.jsonLines(try CLI.run(arguments + ["--json"], environment: environment))
        let plans = json.filter { $0["type"] as? String == "plan" }
        #expect(
            plans.compactMap { $0["target"] as? String }.sorted() == [
                "s3://photos/trip/100APPLE/IMG_0002.MOV at http://127.0.0.1:9",
                "s3://photos/trip/IMG_0001.JPG at http://127.0.0.1:9",
            ], "\(json)")
        // The object's parts apart, for a program.
        #expect(
            plans.compactMap { $0["key"] as? String }.sorted() == ["trip/100APPLE/IMG_0002.MOV", "trip/IMG_0001.JPG"])
        #expect(
            plans.allSatisfy {
                $0["bucket"] as? String == "photos" && $0["endpoint"] as? String == "http://127.0.0.1:9"
            })
        #expect(!FileManager.default.fileExists(atPath: journal))
    }

    @Test("an option for another kind of target is refused, named, before anything is read or sent")
    func misplacedOptions() throws {
        let photo = try Fixtures.path(.jpegPlain)
        let tus = try CLI.run(["upload", photo, "--to", "tus+http://127.0.0.1:9/files", "--key", "{name}", "--dry-run"])
        #expect(
            tus.status == 2 && tus.errorText.contains("--key (for s3://) does nothing for --to tus+"),
            "\(tus.errorText)")
        let s3 = try CLI.run([
            "upload", photo, "--to", "s3://photos/", "--endpoint", "http://127.0.0.1:9", "--field", "photo",
            "--dry-run",
        ])
        #expect(s3.status == 2 && s3.errorText.contains("--field (for a web form) does nothing"), "\(s3.errorText)")
        let form = try CLI.run(["upload", photo, "--to", "http://127.0.0.1:9/upload", "--field", "photo", "--dry-run"])
        #expect(form.status == 0, "\(form.errorText)")
    }

    @Test("two files that would take one key: the dry run and the upload refuse both, say how to name them apart")
    func keyCollision() throws {
        let folder = Temporary.path("cli-upload-collide")
        defer { Temporary.remove(folder) }
        for card in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + card, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: try Fixtures.path(.jpegPlain), toPath: folder + "/" + card + "/IMG_0001.JPG")
        }
        let journal = folder + "/j.sqlite"
        let environment = ["AWS_ACCESS_KEY_ID": "key", "AWS_SECRET_ACCESS_KEY": "secret", "HOME": folder]
        for dryRun in [true, false] {
            // Nobody listens on port 9: the refusal comes before any request.
            let result = try CLI.run(
                [
                    "upload", folder + "/a/IMG_0001.JPG", folder + "/b/IMG_0001.JPG", "--to", "s3://photos/trip/",
                    "--endpoint", "http://127.0.0.1:9", "--journal", journal,
                ] + (dryRun ? ["--dry-run"] : []), environment: environment)
            #expect(result.status == 2, "\(result.errorText)")
            #expect(
                result.errorText.contains(
                    "would all be stored as trip/IMG_0001.JPG, one over the other; nothing was sent"),
                "\(result.errorText)")
            #expect(result.errorText.contains("--key '{date}/{name}'"), "\(result.errorText)")
            #expect(!result.errorText.contains("retry"), "\(result.errorText)")
        }
    }
}
