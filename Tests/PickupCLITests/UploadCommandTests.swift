import Foundation
import Pickup
import PickupStore
import PickupTestSupport
import Testing

/// `pickup upload` and `pickup uploads` against a real tus server on 127.0.0.1.
@Suite("pickup upload and uploads, end to end", .serialized)
struct UploadCommandTests {
    func sha256(_ path: String) throws -> String {
        let hasher = DigestHasher()
        hasher.update([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        return hasher.finalizeHex()
    }

    /// Bytes as the tool prints them.
    func byteLabel(_ bytes: Int64) -> String { ByteCountLabel.string(bytes) }

    /// `big.bin` in `folder`: `megabytes` of random bytes.
    func randomFile(megabytes: Int, in folder: String) throws -> String {
        let big = folder + "/big.bin"
        let made = try Shell.run(
            "head -c \(megabytes << 20) /dev/urandom > \"$F\"", environment: ["F": big])
        #expect(made.status == 0)
        return big
    }

    func scratch() throws -> String {
        let folder = try Temporary.folder("cli-upload")
        return folder
    }

    /// A photo in a new scratch folder whose upload `--to target` failed once (`--retries 0`):
    /// the folder (to remove), its journal, the photo, the upload's id and the failed run.
    func failedUpload(
        to target: String, _ more: [String] = [], environment: [String: String] = [:]
    ) throws -> (folder: String, journal: String, photo: String, id: String, run: Shell.Result) {
        let folder = try scratch()
        let journal = folder + "/j.sqlite"
        let photo = folder + "/a.jpg"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: photo)
        let failed = try CLI.run(
            ["upload", photo, "--to", target, "--journal", journal, "--retries", "0"] + more, environment: environment)
        let listed = try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"]))
        let id = try #require(listed.first?["id"] as? String, "\(failed.outputText)")
        return (folder, journal, photo, id, failed)
    }

    @Test("files arrive whole; --json gives each final record; misuse exits 2")
    func upload() throws {
        let server = try TusServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let movie = try Fixtures.path(.movAppleKeys)
        let photo = try Fixtures.path(.heic)
        let result = try CLI.run([
            "upload", movie, photo, "--to", "tus+" + server.endpoint.absoluteString, "--journal", folder + "/j.sqlite",
            "--json",
        ])
        #expect(result.status == 0, "\(result.errorText)")
        let records = try CLI.jsonLines(result)
        #expect(records.map { $0["state"] as? String } == ["done", "done"])
        #expect(records.map { $0["path"] as? String } == [movie, photo])
        let remote = try #require(records.first?["remote"] as? String)
        let stored = try server.stored(remote)
        let hasher = DigestHasher()
        stored.withUnsafeBytes { hasher.update($0) }
        #expect(hasher.finalizeHex() == (try sha256(movie)))
        // The server got the file's name and its type from its bytes.
        let id = remote.split(separator: "/").last.map(String.init) ?? ""
        let info = try String(contentsOfFile: server.folder + "/" + id + ".info", encoding: .utf8)
        #expect(info.contains("video/quicktime"))

        // The same bytes to the same place again: already there, nothing sent.
        let again = try CLI.run([
            "upload", movie, "--to", "tus+" + server.endpoint.absoluteString, "--journal", folder + "/j.sqlite",
        ])
        #expect(again.status == 0)
        #expect(again.outputText.contains("already there \(movie)"))
        #expect(again.outputText.hasSuffix("\nThe file was already there; nothing was sent.\n"), "\(again.outputText)")
        #expect(!again.outputText.contains("confirmed in"))
        #expect(!again.errorText.contains("uploading"))

        // --force sends it anyway; without --json, progress goes to standard error with rate and time left.
        let plain = try CLI.run([
            "upload", movie, "--to", "tus+" + server.endpoint.absoluteString, "--journal", folder + "/j.sqlite",
            "--chunk-size", "0.25", "--force",
        ])
        #expect(plain.status == 0)
        #expect(plain.errorText.contains("/s, 0:0"))
        #expect(plain.errorText.contains("left"))
        #expect(plain.outputText.contains("done \(movie) -> tus+\(server.endpoint.absoluteString)"))
        #expect(plain.outputText.contains("1 file: 1 uploaded, 0 already there, 0 failed."))

        #expect(try CLI.run(["upload", movie]).status == 2)
        let noCredentials = try CLI.run(["upload", movie, "--to", "s3://bucket/prefix"], environment: ["HOME": folder])
        #expect(noCredentials.status == 2 && noCredentials.errorText.contains("~/.aws/credentials"))
        let notTarget = try CLI.run(["upload", movie, "--to", "ftp://example.com/upload"])
        #expect(notTarget.status == 2 && notTarget.errorText.contains("is not an upload target"))
        // A name that is no file: reported (with what an item id needs), exit 1, as probe does.
        let notFile = try CLI.run(["upload", "no-such-item", "--to", "tus+" + server.endpoint.absoluteString])
        #expect(notFile.status == 1 && notFile.errorText.contains("--library"), "\(notFile.errorText)")
    }

    @Test("not on a terminal, a file's progress is a line at each tenth, not one a chunk")
    func progressLinesInALog() throws {
        let server = try TusServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let path = try randomFile(megabytes: 8, in: folder)
        let result = try CLI.run([
            "upload", path, "--to", "tus+" + server.endpoint.absoluteString, "--journal", folder + "/j.sqlite",
            "--chunk-size", "0.0625",
        ])
        #expect(result.status == 0, "\(result.errorText)")
        // 128 chunks of 64 KB; a line at each tenth reached, at most ten.
        let progress = result.errorText.split(separator: "\n").filter { $0.contains("% ") && $0.contains(" of ") }
        #expect((1...10).contains(progress.count), "\(result.errorText)")
    }

    @Test("a missing file in a batch is reported and the others are sent; the run exits 1, as probe and export do")
    func missingFileInABatch() throws {
        let server = try TusServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let photo = try Fixtures.path(.heic)
        let result = try CLI.run([
            "upload", photo, folder + "/nosuch.jpg", "--to", "tus+" + server.endpoint.absoluteString, "--journal",
            folder + "/j.sqlite",
        ])
        #expect(result.status == 1, "\(result.errorText)")
        #expect(result.errorText.contains("nosuch.jpg: no such file"), "\(result.errorText)")
        #expect(result.outputText.contains("1 uploaded"), "\(result.outputText)")
    }

    @Test(
        "the same upload run again from its folder (a relative path) is already there; resuming a finished one says so")
    func runAgainByRelativePath() throws {
        let server = try TusServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try FileManager.default.copyItem(atPath: try Fixtures.path(.heic), toPath: folder + "/a.heic")
        let command = "cd \"$D\" && \"$TOOL\" upload a.heic --to \"$TO\" --journal j.sqlite --json"
        let environment = ["D": folder, "TOOL": CLI.tool, "TO": "tus+" + server.endpoint.absoluteString]
        let first = try CLI.jsonLines(try Shell.run(command, environment: environment))
        #expect(first.first?["state"] as? String == "done")
        let again = try Shell.run(command, environment: environment)
        #expect(try CLI.jsonLines(again).first?["state"] as? String == "alreadyThere", "\(again.outputText)")
        // Named as the upload named it, absolute, not as typed.
        let path = try #require(first.first?["path"] as? String)
        #expect(path.hasPrefix("/") && path.hasSuffix("/a.heic"))
        #expect(try CLI.jsonLines(again).first?["path"] as? String == path)
        let text = try Shell.run(command.replacingOccurrences(of: " --json", with: ""), environment: environment)
        #expect(text.outputText.contains(" already there \(path) -> tus+"), "\(text.outputText)")
        let id = try #require(first.first?["id"] as? String)
        let resumed = try CLI.run(["uploads", "resume", id, "--journal", folder + "/j.sqlite"])
        #expect(resumed.status == 0)
        #expect(resumed.outputText.contains("is already done; there is nothing to resume"), "\(resumed.outputText)")
        let all = try CLI.run(["uploads", "resume", "--journal", folder + "/j.sqlite"])
        #expect(all.outputText.contains("nothing to resume"), "\(all.outputText)")
    }

    @Test("form POST: library items by id, fields, a token from the environment that never shows")
    func form() throws {
        let server = try FormServer(token: "tok-123")
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        // A photo with an iPhone's edits beside it: the item's stored .AAE goes with it.
        try FileManager.default.createDirectory(atPath: folder + "/card", withIntermediateDirectories: true)
        let photo = folder + "/card/IMG_0001.JPG"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegEXIF), toPath: photo)
        try Data("<plist/>".utf8).write(to: URL(fileURLWithPath: folder + "/card/IMG_0001.AAE"))
        let imported = try CLI.run(["import", folder + "/card", "--into", folder + "/lib", "--json"])
        #expect(imported.status == 0, "\(imported.errorText)")
        let id = try #require(try CLI.jsonLines(imported).first?["id"] as? String)
        let result = try CLI.run(
            [
                "upload", id, "--library", folder + "/lib", "--to", server.url.absoluteString, "--form-field",
                "album=trip", "--journal", folder + "/j.sqlite", "--json",
            ], environment: ["PICKUP_UPLOAD_AUTHORIZATION": "Bearer tok-123"])
        #expect(result.status == 0, "\(result.errorText)")
        let records = try CLI.jsonLines(result)
        let record = try #require(records.first)
        #expect(record["state"] as? String == "done")
        let stored = (record["path"] as? String).map { ($0 as NSString).lastPathComponent } ?? ""
        #expect(try server.stored(stored) == (try Data(contentsOf: URL(fileURLWithPath: photo))))
        let names = records.compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }
        #expect(names == ["IMG_0001.JPG", "IMG_0001.AAE"], "\(result.outputText)")
        #expect(try server.stored("IMG_0001.AAE") == Data("<plist/>".utf8))
        #expect(!(result.outputText + result.errorText).contains("tok-123"))
        let listed = try CLI.run(["uploads", "list", "--journal", folder + "/j.sqlite", "--json"])
        #expect(!listed.outputText.contains("tok-123") && listed.outputText.contains("\"target\":\"http://127.0.0.1"))
        let unknown = try CLI.run([
            "upload", "ffffffffffff", "--library", folder + "/lib", "--to", server.url.absoluteString,
        ])
        #expect(unknown.status == 1 && unknown.errorText.contains("neither a file nor an item"), "\(unknown.errorText)")
        let refused = try CLI.run(
            ["upload", photo, "--to", server.url.absoluteString, "--journal", folder + "/j.sqlite"],
            environment: ["PICKUP_UPLOAD_AUTHORIZATION": "Bearer wrong"])
        #expect(refused.status == 1 && refused.outputText.contains("HTTP 401"))
    }

    @Test("the journal keeps the file's absolute path, however it was typed: resume works from any folder")
    func absolutePathInJournal() throws {
        let server = try TusServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        #expect(try Shell.run("head -c 4096 /dev/urandom > \"$F\"", environment: ["F": folder + "/a.bin"]).status == 0)
        let journal = folder + "/j.sqlite"
        let sent = try Shell.run(
            "cd \"$D\" && \"$TOOL\" upload a.bin --to \"$TO\" --journal \"$J\" --json",
            environment: ["TOOL": CLI.tool, "D": folder, "TO": "tus+" + server.endpoint.absoluteString, "J": journal])
        #expect(sent.status == 0, "\(sent.errorText)")
        let listed = try #require(
            try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"])).first)
        let real = try #require(realpath(folder, nil))
        defer { free(real) }
        let path = listed["path"] as? String ?? ""
        #expect(path == folder + "/a.bin" || path == String(cString: real) + "/a.bin")
    }

    @Test("the client killed with SIGKILL mid-upload; 'pickup uploads resume' finishes it from the server's offset")
    func killed() throws {
        let server = try TusServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        // 96 MB of random bytes in 384 requests: seconds of work, killed after one.
        let big = try randomFile(megabytes: 96, in: folder)
        let journal = folder + "/j.sqlite"
        // Killed once the journal has confirmed bytes (a fixed delay raced a loaded machine).
        let killed = try interruptOnceSending(
            "\"$TOOL\" upload \"$F\" --to \"$TO\" --journal \"$J\" --chunk-size 0.25", journal: journal,
            environment: ["F": big, "TO": "tus+" + server.endpoint.absoluteString], signal: "KILL")
        #expect(killed == 137)
        let before = try #require(
            try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"])).first)
        #expect(before["state"] as? String == "uploading")
        let confirmed = before["confirmed"] as? Int ?? 0
        #expect(confirmed > 0 && confirmed < 100_663_296)

        let resumed = try CLI.run(["uploads", "resume", "--journal", journal, "--json"])
        #expect(resumed.status == 0, "\(resumed.errorText)")
        let after = try #require(try CLI.jsonLines(resumed).first)
        #expect(after["state"] as? String == "done")
        #expect(after["remote"] as? String == before["remote"] as? String)
        let stored = try server.stored(try #require(after["remote"] as? String))
        let hasher = DigestHasher()
        stored.withUnsafeBytes { hasher.update($0) }
        #expect(hasher.finalizeHex() == (try sha256(big)))
        // Resumed and done, its bytes are recorded: the same file sent there again is already there.
        let again = try CLI.run([
            "upload", big, "--to", "tus+" + server.endpoint.absoluteString, "--journal", journal, "--json",
        ])
        #expect(try CLI.jsonLines(again).first?["state"] as? String == "alreadyThere", "\(again.outputText)")
    }

    /// Starts `command` in the background, waits until the journal holds confirmed bytes of an
    /// unfinished upload (or, with `until`, a line of `uploads list --json` that matches it), then
    /// interrupts it as Ctrl-C does (or kills it, with `signal` "KILL").
    /// Returns its exit status; its standard output is in `journal` + ".out".
    func interruptOnceSending(
        _ command: String, journal: String, environment: [String: String], signal: String = "INT",
        meanwhile: String = "", until: String = #""confirmed":[1-9]"#
    ) throws -> Int32 {
        let result = try Shell.run(
            """
            \(command) >"$J.out" 2>/dev/null & pid=$!
            for i in $(seq 1 400); do
              if [ -f "$J" ] && "$TOOL" uploads list --journal "$J" --json 2>/dev/null \
                | grep -q "$UNTIL"; then break; fi
              sleep 0.05
            done
            kill -$SIGNAL $pid
            \(meanwhile)
            wait $pid
            """,
            environment: environment.merging(["TOOL": CLI.tool, "J": journal, "SIGNAL": signal, "UNTIL": until]) {
                $1
            })
        return result.status
    }

    /// A 32 MB upload to a fresh tus server in `folder`, stopped by `signal` once it has
    /// confirmed bytes: its exit status and its record as `uploads list --json` gives it.
    func stoppedUpload(
        in folder: String, signal: String, meanwhile: String = ""
    ) throws -> (server: TusServer, big: String, journal: String, to: String, status: Int32, record: [String: Any]) {
        let server = try TusServer()
        let big = try randomFile(megabytes: 32, in: folder)
        let journal = folder + "/j.sqlite"
        let to = "tus+" + server.endpoint.absoluteString
        let status = try interruptOnceSending(
            "\"$TOOL\" upload \"$F\" --to \"$TO\" --journal \"$J\" --chunk-size 0.25", journal: journal,
            environment: ["F": big, "TO": to], signal: signal, meanwhile: meanwhile)
        let record = try #require(
            try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"])).first)
        return (server, big, journal, to, status, record)
    }

    @Test("stopped by Ctrl-C, then the same command again: a file that finished before the stop is already there")
    func finishedBeforeTheStop() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let server = try TusServer()
        let big = try randomFile(megabytes: 32, in: folder)
        let small = folder + "/small.bin"
        try Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }).write(
            to: URL(fileURLWithPath: small))
        let journal = folder + "/j.sqlite"
        let to = "tus+" + server.endpoint.absoluteString
        // One at a time: stopped once the small file is done (the big one next, or under way),
        // before the run's hashing of what it sent is recorded.
        let status = try interruptOnceSending(
            "\"$TOOL\" upload \"$A\" \"$B\" --to \"$TO\" --journal \"$J\" --parallel 1 --chunk-size 0.25",
            journal: journal, environment: ["A": small, "B": big, "TO": to], until: #""state":"done""#)
        #expect(status == 130)
        let again = try CLI.run(["upload", small, big, "--to", to, "--journal", journal, "--json"])
        #expect(again.status == 0, "\(again.errorText)")
        let states = try CLI.jsonLines(again).filter { $0["path"] != nil }.map {
            (($0["path"] as? String) ?? "", ($0["state"] as? String) ?? "")
        }
        #expect(
            states.contains { $0.0.hasSuffix((small as NSString).lastPathComponent) && $0.1 == "alreadyThere" },
            "\(states)")
        let uploads = try FileManager.default.contentsOfDirectory(atPath: server.folder).filter {
            $0.hasSuffix(".info")
        }
        #expect(uploads.count == 2, "each file on the server once: \(uploads)")
        // Touched since, its bytes the same: there by its content, whose SHA-256 the interrupted
        // run (or this one) recorded. Changed since, the same size: sent again, as the path alone
        // never decides.
        let later = Date().addingTimeInterval(60)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: small)
        let touched = try CLI.run(["upload", small, "--to", to, "--journal", journal, "--dry-run"])
        #expect(touched.outputText.contains("already there \(small) ("), "\(touched.outputText)")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: small))
        bytes[0] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: small))
        let changed = try CLI.run(["upload", small, "--to", to, "--journal", journal, "--dry-run"])
        #expect(changed.outputText.contains("would send \(small) ("), "\(changed.outputText)")
    }

    @Test(
        "Ctrl-C while a video is exported to send: the export stops too, at once; no copy is left; nothing said failed")
    func interruptedExport() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let video = folder + "/clip.mp4"
        let made = try Shell.run(
            "ffmpeg -v error -f lavfi -i testsrc2=size=1280x720:rate=30:duration=25 -c:v libx264 -preset ultrafast "
                + "-pix_fmt yuv420p -y \"$F\"", environment: ["F": video])
        try #require(made.status == 0, "\(made.errorText)")
        // Ctrl-C reaches the pickup process (a terminal's process group); pickup-render runs in one of its own.
        let run = try Shell.run(
            """
            "$TOOL" upload "$F" --export 640x480 --to tus+http://127.0.0.1:9/files --journal "$D/j.sqlite" \
              > "$D/out" 2> "$D/err" & pid=$!
            for i in $(seq 1 100); do pgrep -f "pickup-render export $F" > /dev/null && break; sleep 0.05; done
            sleep 0.5
            start=$(date +%s%N); kill -INT $pid; wait $pid; status=$?; end=$(date +%s%N)
            echo "$status $(( (end - start) / 1000000 ))"
            """, environment: ["TOOL": CLI.tool, "F": video, "D": folder])
        let words = run.outputText.split(separator: " ").map {
            String($0).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(words.first == "130", "\(run.outputText) \(run.errorText)")
        #expect((Int(words.last ?? "") ?? .max) < 2_000, "stopped in \(words.last ?? "?") ms")
        let errors = try String(contentsOfFile: folder + "/err", encoding: .utf8)
        #expect(!errors.contains("export failed"), "\(errors)")
        #expect(try Shell.run("pgrep -f \"pickup-render export $F\"", environment: ["F": video]).status == 1)
        let left = (try? FileManager.default.subpathsOfDirectory(atPath: folder + "/exports")) ?? []
        #expect(left.filter { $0.hasSuffix(".mp4") }.isEmpty, "\(left)")
    }

    @Test("killed mid-upload, then the same command again: the upload goes on, not a second copy; list says how")
    func killedThenRerun() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let (server, big, journal, to, status, cut) = try stoppedUpload(in: folder, signal: "KILL")
        #expect(status == 137)
        #expect(cut["state"] as? String == "uploading")
        let id = try #require(cut["id"] as? String)
        // The process that held it is gone: the list says so, and how to go on.
        let listed = try CLI.run(["uploads", "list", "--journal", journal])
        #expect(
            listed.outputText.contains("cut off earlier (no pickup sends it now); 'pickup uploads resume \(id)"),
            "\(listed.outputText)")
        let again = try CLI.run(["upload", big, "--to", to, "--journal", journal])
        #expect(again.status == 0, "\(again.errorText)")
        #expect(again.errorText.contains("\(id) continues \(big) from "), "\(again.errorText)")
        #expect(
            again.errorText.contains(
                "(cut off earlier; the server may have kept more of what was in flight; --force starts over)"),
            "\(again.errorText)")
        let records = try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"]))
        #expect(records.count == 1 && records.first?["state"] as? String == "done", "\(records)")
        let created = try FileManager.default.contentsOfDirectory(atPath: server.folder).filter {
            $0.hasSuffix(".info")
        }
        #expect(created.count == 1, "one upload on the server: \(created)")
    }

    @Test(
        "the same command while another pickup sends the file: left to it and said so; list names it; nothing sent twice"
    )
    func anotherProcessSends() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        // The first is stopped (SIGSTOP: alive, its claim holding) while the second runs, then let go.
        let (server, big, journal, to, status, _) = try stoppedUpload(
            in: folder, signal: "STOP",
            meanwhile: """
                echo $pid > "$J.pid"
                "$TOOL" upload "$F" --to "$TO" --journal "$J" > "$J.second" 2>&1; echo $? > "$J.status"
                "$TOOL" upload "$F" --to "$TO" --journal "$J" --json > "$J.json" 2>/dev/null
                "$TOOL" uploads list --journal "$J" > "$J.list" 2>&1
                kill -CONT $pid
                """)
        #expect(status == 0, "the first goes on and finishes")
        func read(_ suffix: String) throws -> String {
            try String(contentsOfFile: journal + suffix, encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
        let pid = try read(".pid")
        let second = try read(".second")
        #expect(try read(".status") == "1", "not sent by this run: \(second)")
        #expect(second.contains("left to process \(pid), which is sending \(big) now ("), "\(second)")
        #expect(
            second.contains("1 file: 0 uploaded, 0 already there, 1 left to another process, 0 failed."), "\(second)")
        #expect(!second.contains("continues"), "\(second)")
        let json = try read(".json")
        let line = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(line?["state"] as? String == "sentElsewhere", "\(json)")
        #expect(try read(".list").contains("process \(pid) is sending it now"))
        let again = try CLI.run(["upload", big, "--to", to, "--journal", journal])
        #expect(again.status == 0, "\(again.errorText)")
        #expect(again.outputText.contains("already there"), "\(again.outputText)")
        let created = try FileManager.default.contentsOfDirectory(atPath: server.folder).filter {
            $0.hasSuffix(".info")
        }
        #expect(created.count == 1, "one upload on the server: \(created)")
    }

    @Test("SIGTERM pauses as Ctrl-C does (exit 143); the file changed, the same command sends it anew, naming the old")
    func terminatedThenChanged() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let (server, big, journal, to, status, paused) = try stoppedUpload(in: folder, signal: "TERM")
        defer { withExtendedLifetime(server) {} }
        #expect(status == 143)
        #expect(paused["state"] as? String == "paused", "\(paused)")
        let id = try #require(paused["id"] as? String)
        // The file changes: the paused upload's bytes are no longer its bytes.
        let handle = try #require(FileHandle(forWritingAtPath: big))
        handle.seekToEndOfFile()
        handle.write(Data("more".utf8))
        try handle.close()
        // The dry run says so first, as the run will.
        let dry = try CLI.run(["upload", big, "--to", to, "--journal", journal, "--dry-run"])
        #expect(
            dry.outputText.contains("anew: the journal's \(id), begun before it changed, cannot be finished"),
            "\(dry.outputText)")
        let dryJSON = try CLI.run(["upload", big, "--to", to, "--journal", journal, "--dry-run", "--json"])
        #expect(try CLI.jsonLines(dryJSON).first { $0["type"] as? String == "plan" }?["outdated"] as? String == id)
        try JSONSchemaTests().check("upload", [dryJSON])
        let again = try CLI.run(["upload", big, "--to", to, "--journal", journal])
        #expect(again.status == 0, "\(again.errorText)")
        #expect(
            again.errorText.contains(
                "\(id), an unfinished upload of \(big) begun before it changed, cannot be finished: it is sent anew; "
                    + "'pickup uploads cancel \(id) --journal \(journal)' lets the old one go"), "\(again.errorText)")
        let cancelled = try CLI.run(["uploads", "cancel", id, "--journal", journal])
        #expect(cancelled.status == 0, "\(cancelled.errorText)")
        let resumed = try CLI.run(["uploads", "resume", "--journal", journal])
        #expect(resumed.outputText.contains("nothing to resume"), "\(resumed.outputText)")
    }

    @Test("Ctrl-C mid-upload, then the same command again: the paused upload goes on (one upload on the server)")
    func rerunContinues() throws {
        let server = try TusServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let big = try randomFile(megabytes: 96, in: folder)
        let journal = folder + "/j.sqlite"
        let to = "tus+" + server.endpoint.absoluteString
        let status = try interruptOnceSending(
            "\"$TOOL\" upload \"$F\" --to \"$TO\" --journal \"$J\" --chunk-size 0.25", journal: journal,
            environment: ["F": big, "TO": to])
        #expect(status == 130)
        let before = try #require(
            try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"])).first)
        #expect(before["state"] as? String == "paused")
        // The hint names the journal given, so that it can be run as it is.
        let said = try String(contentsOfFile: journal + ".out", encoding: .utf8)
        #expect(
            said.contains("'pickup uploads resume \(before["id"] as? String ?? "-") --journal \(journal)'"), "\(said)")
        // The dry run says the run would go on with it, from the bytes the journal has confirmed.
        let confirmed = before["confirmed"] as? Int ?? -1
        let dry = try CLI.run(["upload", big, "--to", to, "--journal", journal, "--dry-run", "--json"])
        let plan = try #require(try CLI.jsonLines(dry).first { $0["type"] as? String == "plan" })
        #expect(plan["status"] as? String == "wouldContinue", "\(plan)")
        #expect(plan["id"] as? String == before["id"] as? String && plan["offset"] as? Int == confirmed, "\(plan)")
        try JSONSchemaTests().check("upload", [dry])
        let dryText = try CLI.run(["upload", big, "--to", to, "--journal", journal, "--dry-run"])
        #expect(dryText.outputText.contains("would continue \(big) ("), "\(dryText.outputText)")
        #expect(dryText.outputText.contains("1 going on where it stopped"), "\(dryText.outputText)")

        let again = try CLI.run(["upload", big, "--to", to, "--journal", journal])
        #expect(again.status == 0, "\(again.errorText)")
        let id = before["id"] as? String ?? "-"
        #expect(again.errorText.contains("\(id) continues \(big) from "), "\(again.errorText)")
        // The bytes and the rate are this run's: those sent before the pause are said apart (how
        // many the server kept, which can be more than the journal's, resumeCountsTheServersBytes
        // checks).
        #expect(again.outputText.contains(" confirmed before this run."), "\(again.outputText)")
        let record = try #require(
            try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"])).first)
        #expect(record["state"] as? String == "done")
        #expect(record["id"] as? String == before["id"] as? String, "the paused upload, not a new one")
        #expect(record["remote"] as? String == before["remote"] as? String)
        let created = try FileManager.default.contentsOfDirectory(atPath: server.folder).filter {
            $0.hasSuffix(".info")
        }
        #expect(created.count == 1, "one upload on the server: \(created)")
        let stored = try server.stored(try #require(record["remote"] as? String))
        let hasher = DigestHasher()
        stored.withUnsafeBytes { hasher.update($0) }
        #expect(hasher.finalizeHex() == (try sha256(big)))
        let list = try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"]))
        #expect(list.count == 1, "no second upload in the journal")
    }

    @Test("a resume counts as earlier the bytes the server kept, when they are more than the journal's")
    func resumeCountsTheServersBytes() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let (server, _, journal, _, status, paused) = try stoppedUpload(in: folder, signal: "INT")
        defer { withExtendedLifetime(server) {} }
        #expect(status == 130)
        let id = try #require(paused["id"] as? String)
        // A process killed after a chunk landed, before the journal kept it, leaves the journal
        // behind the server: here it says nothing was confirmed.
        let asked = try Shell.run(
            """
            python3 - "$J" "$R" <<'PY'
            import sqlite3, sys, urllib.request
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE uploads SET offset = 0")
            db.commit()
            head = urllib.request.Request(sys.argv[2], method="HEAD", headers={"Tus-Resumable": "1.0.0"})
            print(urllib.request.urlopen(head).headers["Upload-Offset"])
            PY
            """, environment: ["J": journal, "R": try #require(paused["remote"] as? String)])
        let held = try #require(Int64(asked.outputText.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(held > 0, "\(asked.errorText)")
        // The pause asked the server what it kept of the chunk it cut: the journal said so.
        #expect(paused["confirmed"] as? Int == Int(held), "\(paused)")
        let again = try CLI.run(["uploads", "resume", id, "--journal", journal])
        #expect(again.status == 0, "\(again.errorText)")
        // The server's bytes are the earlier run's; this run's are the rest.
        #expect(
            again.outputText.contains(
                "\(byteLabel(Int64(32 << 20) - held)) confirmed in "), "\(again.outputText)")
        #expect(
            again.outputText.contains(", besides \(byteLabel(held)) confirmed before this run."),
            "\(again.outputText)")
    }

    @Test("a form paused by Ctrl-C says its resume sends the form again whole (a form has no offset)")
    func pausedForm() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let file = try randomFile(megabytes: 8, in: folder)
        let journal = folder + "/j.sqlite"
        // A server that takes the connection and never answers: the POST waits, then Ctrl-C. The
        // server goes with SIGKILL: a plain kill left it running under the test runner.
        let result = try Shell.run(
            """
            python3 -c 'exec("import socket, sys\\ns = socket.socket()\\ns.bind((\\"127.0.0.1\\", 0))\\ns.listen(4)\\nopen(sys.argv[1], \\"w\\").write(str(s.getsockname()[1]))\\nheld = []\\nwhile True: held.append(s.accept())")' "$J.port" >/dev/null 2>&1 & server=$!
            for i in $(seq 1 100); do [ -s "$J.port" ] && break; sleep 0.05; done
            "$TOOL" upload "$F" --to "http://127.0.0.1:$(cat "$J.port")/upload" --journal "$J" >"$J.out" 2>/dev/null & pid=$!
            for i in $(seq 1 400); do
              "$TOOL" uploads list --journal "$J" --json 2>/dev/null | grep -q '"state":"uploading"' && break
              sleep 0.05
            done
            sleep 0.3; kill -INT $pid; status=0; wait $pid || status=$?; kill -9 $server; exit $status
            """, environment: ["TOOL": CLI.tool, "J": journal, "F": file])
        #expect(result.status == 130)
        let said = try String(contentsOfFile: journal + ".out", encoding: .utf8)
        #expect(said.contains("paused") && said.contains("' sends the form again, the whole file"), "\(said)")
        #expect(!said.contains("goes on from the last byte"), "\(said)")
    }

    @Test(
        "S3 with --credentials, interrupted: resume and cancel take --credentials too; the resumed file is already there"
    )
    func s3ResumeWithCredentials() throws {
        let server = try SeaweedServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let credentials = folder + "/credentials"
        try "AWS_ACCESS_KEY_ID=\(server.accessKey)\nAWS_SECRET_ACCESS_KEY=\(server.secretKey)\n".write(
            toFile: credentials, atomically: true, encoding: .utf8)
        let big = try randomFile(megabytes: 128, in: folder)
        let journal = folder + "/j.sqlite"
        let status = try interruptOnceSending(
            "\"$TOOL\" upload \"$F\" --to s3://photos/ --endpoint \"$E\" --credentials \"$C\" "
                + "--journal \"$J\" --chunk-size 5 --part-concurrency 1",
            journal: journal, environment: ["F": big, "E": server.endpoint.absoluteString, "C": credentials])
        #expect(status == 130)
        let before = try #require(
            try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"])).first)
        #expect(before["state"] as? String == "paused")
        let id = try #require(before["id"] as? String)

        // Without the credentials the resume says what it needs; with them it finishes.
        let bare = try CLI.run(["uploads", "resume", id, "--journal", journal], environment: ["AWS_PROFILE": ""])
        #expect(bare.status != 0)
        let resumed = try CLI.run([
            "uploads", "resume", id, "--journal", journal, "--credentials", credentials, "--json",
        ])
        #expect(resumed.status == 0, "\(resumed.errorText)")
        #expect(try CLI.jsonLines(resumed).first?["state"] as? String == "done", "\(resumed.outputText)")
        let object = try server.object("big.bin")
        let hasher = DigestHasher()
        object.withUnsafeBytes { hasher.update($0) }
        #expect(hasher.finalizeHex() == (try sha256(big)), "stored \(object.count) bytes")
        let again = try CLI.run([
            "upload", big, "--to", "s3://photos/", "--endpoint", server.endpoint.absoluteString, "--credentials",
            credentials, "--journal", journal, "--json",
        ])
        #expect(try CLI.jsonLines(again).first?["state"] as? String == "alreadyThere", "\(again.outputText)")
        let cancel = try CLI.run(["uploads", "cancel", id, "--journal", journal, "--credentials", credentials])
        #expect(cancel.errorText.contains("already done"), "cancel reads --credentials: \(cancel.errorText)")
    }

    @Test("already there whatever the endpoint's spelling (a trailing slash, a default port); --check asks the server")
    func checkAndSpelling() throws {
        let server = try TusServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let journal = folder + "/j.sqlite"
        let photo = try Fixtures.path(.jpegPlain)
        let endpoint = server.endpoint.absoluteString
        let slashed = endpoint.hasSuffix("/") ? endpoint : endpoint + "/"
        let bare = String(slashed.dropLast())
        let first = try CLI.run(["upload", photo, "--to", "tus+" + slashed, "--journal", journal, "--json"])
        let remote = try #require(try CLI.jsonLines(first).first?["remote"] as? String)
        let again = try CLI.run(["upload", photo, "--to", "tus+" + bare, "--journal", journal, "--json"])
        #expect(try CLI.jsonLines(again).first?["state"] as? String == "alreadyThere", "\(again.outputText)")
        // The server still holds it: --check skips it too.
        let checked = try CLI.run(["upload", photo, "--to", "tus+" + bare, "--journal", journal, "--check"])
        #expect(checked.status == 0)
        #expect(checked.outputText.contains("already there") && checked.outputText.contains("the server has them"))
        // A copy under another name: its bytes are there, and the line says under which name they went.
        let copy = folder + "/renamed.jpg"
        try FileManager.default.copyItem(atPath: photo, toPath: copy)
        let renamed = try CLI.run(["upload", copy, "--to", "tus+" + slashed, "--journal", journal])
        #expect(
            renamed.outputText.contains(
                " already there \(copy) -> tus+\(slashed) (the same bytes were sent there as \(photo); --force sends it again)"
            ), "\(renamed.outputText)")
        // The server lost it: without --check the journal's word stands; with it, the file goes again.
        let id = remote.split(separator: "/").last.map(String.init) ?? ""
        for name in try FileManager.default.contentsOfDirectory(atPath: server.folder) where name.hasPrefix(id) {
            try FileManager.default.removeItem(atPath: server.folder + "/" + name)
        }
        let trusted = try CLI.run(["upload", photo, "--to", "tus+" + slashed, "--journal", journal, "--json"])
        #expect(try CLI.jsonLines(trusted).first?["state"] as? String == "alreadyThere")
        let told = try CLI.run(["upload", photo, "--to", "tus+" + slashed, "--journal", journal, "--check"])
        #expect(told.errorText.contains("is no longer on the server: sending \(photo) again"), "\(told.errorText)")
        for name in try FileManager.default.contentsOfDirectory(atPath: server.folder) {
            try FileManager.default.removeItem(atPath: server.folder + "/" + name)
        }
        let resent = try CLI.run(["upload", photo, "--to", "tus+" + slashed, "--journal", journal, "--json", "--check"])
        #expect(resent.status == 0, "\(resent.errorText)")
        let record = try #require(try CLI.jsonLines(resent).first)
        #expect(record["state"] as? String == "done")
        #expect(record["remote"] as? String != remote, "a new upload on the server")
    }

    @Test("a form the server failed says its resume sends it again whole; a file changed since says what to do")
    func formFailedAndFileChanged() throws {
        let server = try FormServer(fail: 1)
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let journal = folder + "/j.sqlite"
        let photo = folder + "/a.jpg"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: photo)
        let failed = try CLI.run([
            "upload", photo, "--to", server.url.absoluteString, "--journal", journal, "--retries", "0",
        ])
        #expect(failed.status == 1)
        let id = try #require(
            try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"])).first?["id"] as? String)
        #expect(
            failed.outputText.contains(
                "try again later with 'pickup uploads resume \(id) --journal \(journal)' (it sends the form again, the whole file)"
            ), "\(failed.outputText)")
        // The file changes before the resume: the bytes the journal began with are gone.
        try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: photo))
        let resumed = try CLI.run(["uploads", "resume", id, "--journal", journal])
        #expect(resumed.status == 1)
        #expect(
            resumed.outputText.contains(
                "changed since the upload began. To send the file as it is now, 'pickup upload \(photo) --to "
                    + "\(server.url.absoluteString) --journal \(journal)'; 'pickup uploads cancel \(id) --journal \(journal)' "
                    + "lets this one go."), "\(resumed.outputText)")
        // Both work as printed.
        let sent = try CLI.run(["upload", photo, "--to", server.url.absoluteString, "--journal", journal])
        #expect(sent.status == 0, "\(sent.errorText)")
        #expect(try CLI.run(["uploads", "cancel", id, "--journal", journal]).status == 0)
        // --check has nothing to ask a web form: it says the journal is trusted, never that the server has it.
        let checked = try CLI.run([
            "upload", photo, "--to", server.url.absoluteString, "--journal", journal, "--check",
        ])
        #expect(
            checked.outputText.contains("a web form cannot be asked whether it still has them"), "\(checked.outputText)"
        )
        #expect(!checked.outputText.contains("the server has them"), "\(checked.outputText)")
    }

    @Test("a form whose answer was lost, run again: the same upload is sent again with its key, and stored once")
    func formRunAgainAfterLostAnswer() throws {
        let server = try FormServer(loseReplies: 1)
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let journal = folder + "/j.sqlite"
        let photo = folder + "/a.jpg"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: photo)
        let command = ["upload", photo, "--to", server.url.absoluteString, "--journal", journal]
        let failed = try CLI.run(command + ["--retries", "0"])
        #expect(failed.status == 1, "\(failed.outputText)")
        let id = try #require(
            try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"])).first?["id"] as? String)
        let plan = try CLI.run(command + ["--dry-run"])
        #expect(
            plan.outputText.contains("again as the journal's \(id) (failed earlier; a form cannot go on"),
            "\(plan.outputText)")
        let planJSON = try CLI.jsonLines(try CLI.run(command + ["--dry-run", "--json"]))
        #expect(planJSON.first?["status"] as? String == "wouldContinue" && planJSON.first?["id"] as? String == id)
        let again = try CLI.run(command)
        #expect(again.status == 0, "\(again.errorText)")
        #expect(again.errorText.contains("\(id) sends \(photo) again (failed earlier;"), "\(again.errorText)")
        // One copy: the second try carried the first one's key, and the server answered it as before.
        #expect(server.stores().count == 1, "\(server.stores())")
        #expect(try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"])).count == 1)
        // Left out on request (a server that refuses the header); refused for a target that is no form.
        let other = folder + "/b.jpg"
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegEXIF), toPath: other)
        let bare = try CLI.run([
            "upload", other, "--to", server.url.absoluteString, "--journal", journal, "--no-idempotency-key",
        ])
        #expect(bare.status == 0, "\(bare.errorText)")
        #expect(server.stores().last?.key == nil, "\(server.stores())")
        // The key is the run's, not the upload's: the file sent with one is already there without.
        let sentBefore = try CLI.run(command + ["--no-idempotency-key"])
        #expect(sentBefore.status == 0 && sentBefore.outputText.contains("already there"), "\(sentBefore.outputText)")
        let misplaced = try CLI.run([
            "upload", other, "--to", "tus+http://127.0.0.1:9/files/", "--journal", journal, "--no-idempotency-key",
        ])
        #expect(misplaced.status == 2 && misplaced.errorText.contains("--no-idempotency-key (for a web form)"))
    }

    @Test("uploads resume sends a form's key again, or none with --no-idempotency-key")
    func resumeWithoutKey() throws {
        // A server that stores every POST whatever its key, and loses its first two answers.
        let server = try FormServer(loseReplies: 2, ignoreKeys: true)
        let (folder, journal, _, id, failed) = try failedUpload(to: server.url.absoluteString)
        defer { Temporary.remove(folder) }
        #expect(failed.status == 1, "\(failed.outputText)")
        // The second answer is lost too: the resume sends the first try's key, and fails again.
        #expect(try CLI.run(["uploads", "resume", id, "--journal", journal, "--retries", "0"]).status == 1)
        let keyed = server.stores()
        #expect(keyed.count == 2 && keyed[0].key != nil && keyed[1].key == keyed[0].key, "\(keyed)")
        let bare = try CLI.run(["uploads", "resume", id, "--journal", journal, "--no-idempotency-key"])
        #expect(bare.status == 0, "\(bare.errorText)")
        #expect(server.stores().count == 3 && server.stores().last?.key == nil, "\(server.stores())")
    }

    @Test("uploads resume --to brings back a query, never another place; the hint says to give the query again")
    func resumeElsewhereRefused() throws {
        let server = try FormServer()
        let (folder, journal, _, id, failed) = try failedUpload(to: "http://127.0.0.1:9/upload?token=abc")
        defer { Temporary.remove(folder) }
        #expect(failed.status == 1)
        #expect(
            failed.outputText.contains(
                "'pickup uploads resume \(id) --to \"http://127.0.0.1:9/upload?QUERY\" --journal \(journal)'"),
            "\(failed.outputText)")
        let elsewhere = try CLI.run([
            "uploads", "resume", id, "--to", server.url.absoluteString + "?token=abc", "--journal", journal,
        ])
        #expect(elsewhere.status == 2, "\(elsewhere.outputText)")
        #expect(elsewhere.errorText.contains("is not where upload \(id) goes (http://127.0.0.1:9/upload)"))
        #expect(server.stores().isEmpty)
        let listed = try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"]))
        #expect(listed.first?["state"] as? String == "failed", "\(listed)")
        // Cancelled, a form's upload has nothing on the server to let go, and says so.
        #expect(try CLI.run(["uploads", "cancel", id, "--journal", journal]).status == 0)
        let cancelled = try CLI.run(["uploads", "resume", id, "--journal", journal])
        #expect(cancelled.status == 1 && cancelled.errorText.contains("was cancelled; there is nothing to resume"))
        #expect(!cancelled.errorText.contains("let go"), "\(cancelled.errorText)")
    }

    @Test("uploads resume of an S3 upload refuses --to and --no-idempotency-key, which do not shape it")
    func resumeS3Misplaced() throws {
        let environment = ["AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b", "AWS_REGION": "us-east-1"]
        let (folder, journal, _, id, failed) = try failedUpload(
            to: "s3://bucket/p/", ["--endpoint", "http://127.0.0.1:9"], environment: environment)
        defer { Temporary.remove(folder) }
        #expect(failed.status == 1, "\(failed.outputText)")
        let to = try CLI.run(
            ["uploads", "resume", id, "--to", "http://127.0.0.1:9/x", "--journal", journal], environment: environment)
        #expect(
            to.status == 2 && to.errorText.contains("the journal keeps an S3 upload's place whole"), "\(to.errorText)")
        let key = try CLI.run(
            ["uploads", "resume", id, "--no-idempotency-key", "--journal", journal], environment: environment)
        #expect(key.status == 2 && key.errorText.contains("is for a web form's upload"), "\(key.errorText)")
    }

    @Test("a server that refuses the request itself (HTTP 400) is not told to be tried again later")
    func clientErrorHint() throws {
        let server = try FormServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        // A web form's URL given as a tus endpoint: the form server answers the tus POST with 400.
        let to = "tus+" + server.url.absoluteString
        let failed = try CLI.run([
            "upload", try Fixtures.path(.jpegPlain), "--to", to, "--journal", folder + "/j.sqlite", "--retries", "0",
        ])
        #expect(failed.status == 1)
        #expect(failed.outputText.contains("The server refused the request (HTTP 4"), "\(failed.outputText)")
        #expect(!failed.outputText.contains("try again later"), "\(failed.outputText)")
    }

    @Test("uploads resume leaves out a failed upload the server refused for where it goes, and keeps its error")
    func resumeLeavesOutRefused() throws {
        let server = try TusServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let journal = folder + "/j.sqlite"
        let wrong = server.endpoint.absoluteString.replacingOccurrences(of: "/files", with: "/nothing-here")
        let failed = try CLI.run([
            "upload", try Fixtures.path(.jpegPlain), "--to", "tus+" + wrong, "--journal", journal, "--retries", "0",
            "--json",
        ])
        let record = try #require(try CLI.jsonLines(failed).first)
        #expect(record["state"] as? String == "failed")
        #expect((record["error"] as? [String: Any])?["message"] is String)
        let started = Date()
        let resumed = try CLI.run(["uploads", "resume", "--journal", journal])
        #expect(resumed.status == 1)
        #expect(
            resumed.errorText.contains("left out 1 failed upload that resuming cannot mend"), "\(resumed.errorText)")
        #expect(Date().timeIntervalSince(started) < 20, "no retries spent on it")
        let after = try #require(
            try CLI.jsonLines(try CLI.run(["uploads", "list", "--journal", journal, "--json"])).first)
        #expect(
            (after["error"] as? [String: Any])?["message"] as? String
                == (record["error"] as? [String: Any])?["message"] as? String, "its first error is kept")
    }

    @Test("resume gives an upload the tries its first run's --retries gave it, or those its own --retries gives")
    func resumeKeepsRetries() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let journal = folder + "/j.sqlite"
        // Nobody listens on port 9: each try fails at once, and each retry is a --json line.
        let first = try CLI.run([
            "upload", try Fixtures.path(.jpegPlain), "--to", "tus+http://127.0.0.1:9/files", "--retries", "1",
            "--journal", journal, "--json",
        ])
        let id = try #require(try CLI.jsonLines(first).first { $0["type"] as? String == "upload" }?["id"] as? String)
        func retries(_ arguments: [String]) throws -> [(retry: Int, of: Int)] {
            let result = try CLI.run(["uploads", "resume", id, "--journal", journal, "--json"] + arguments)
            #expect(result.status == 1, "\(result.errorText)")
            return try CLI.jsonLines(result).filter { $0["type"] as? String == "retry" }.compactMap { line in
                guard let retry = line["retry"] as? Int, let of = line["of"] as? Int else { return nil }
                return (retry, of)
            }
        }
        // Not the default 7: the one retry the first run asked for, said as "1 of 1".
        let kept = try retries([])
        #expect(kept.map(\.retry) == [1] && kept.map(\.of) == [1], "\(kept)")
        let given = try retries(["--retries", "2"])
        #expect(given.map(\.retry) == [1, 2] && given.allSatisfy { $0.of == 2 }, "\(given)")
        // From then on, the upload keeps the tries its last resume gave it.
        #expect(try retries([]).map(\.retry) == [1, 2])
        let wrong = try CLI.run(["uploads", "resume", id, "--journal", journal, "--retries", "101"])
        #expect(wrong.status == 2 && wrong.errorText.contains("--retries takes a whole number from 0 to 100"))
    }

    @Test("cancel marks an unfinished upload cancelled; a finished one has nothing to cancel; list shows both")
    func cancel() throws {
        let server = try TusServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let journal = folder + "/j.sqlite"
        let done = try CLI.run([
            "upload", try Fixtures.path(.jpegPlain), "--to", "tus+" + server.endpoint.absoluteString, "--journal",
            journal,
            "--json",
        ])
        let id = try #require(try CLI.jsonLines(done).first?["id"] as? String)
        // A finished upload has nothing left to cancel: said so, not reported as cancelled.
        let finished = try CLI.run(["uploads", "cancel", id, "--journal", journal])
        #expect(finished.status == 1 && finished.errorText.contains("already done; there is nothing to cancel"))
        #expect(try CLI.run(["uploads", "cancel", "nosuchid", "--journal", journal]).status == 1)
        let list = try CLI.run(["uploads", "list", "--journal", journal])
        #expect(list.outputText.contains("1 upload in"))
        #expect(state(of: id, in: list.outputText) == "done", "\(list.outputText)")
        // Nobody listens on port 9: the upload fails and waits in the journal until cancelled.
        let failed = try CLI.run([
            "upload", try Fixtures.path(.jpegPlain), "--to", "tus+http://127.0.0.1:9/files", "--retries", "0",
            "--journal", journal, "--json",
        ])
        let unfinished = try #require(try CLI.jsonLines(failed).first?["id"] as? String)
        let cancelled = try CLI.run(["uploads", "cancel", unfinished, "--journal", journal])
        #expect(cancelled.status == 0 && cancelled.outputText.contains("\(unfinished) cancelled"))
        // Resumed by its id, a cancelled upload is not started over behind the user's back.
        let resumed = try CLI.run(["uploads", "resume", unfinished, "--journal", journal])
        #expect(resumed.status == 1)
        #expect(resumed.errorText.contains("was cancelled") && resumed.errorText.contains("nothing to resume"))
        #expect(resumed.errorText.contains("pickup upload "), "it says how to send the file again")
        let after = try CLI.run(["uploads", "list", "--journal", journal]).outputText
        #expect(state(of: unfinished, in: after) == "cancelled", "\(after)")
    }

    /// The STATE column of the `uploads list` row whose ID is `id`: the table aligns its columns, so
    /// the row is read by its fields, not by one space between them.
    private func state(of id: String, in table: String) -> String? {
        let rows = table.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        return rows.first { $0.first.map(String.init) == id }.flatMap { $0.count > 1 ? String($0[1]) : nil }
    }

    @Test("S3: credentials from a file, parts to a real store, resumable from the journal")
    func s3() throws {
        let server = try SeaweedServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let credentials = folder + "/credentials"
        try "AWS_ACCESS_KEY_ID=\(server.accessKey)\nAWS_SECRET_ACCESS_KEY=\(server.secretKey)\n".write(
            toFile: credentials, atomically: true, encoding: .utf8)
        let movie = try Fixtures.path(.mp4Large)
        let result = try CLI.run([
            "upload", movie, "--to", "s3://photos/2026/", "--endpoint", server.endpoint.absoluteString, "--credentials",
            credentials, "--journal", folder + "/j.sqlite", "--json",
        ])
        #expect(result.status == 0, "\(result.errorText)")
        let record = try #require(try CLI.jsonLines(result).first)
        #expect(record["state"] as? String == "done")
        #expect(!(result.outputText + result.errorText).contains(server.secretKey))
        let stored = try server.object("2026/large.mp4")
        let hasher = DigestHasher()
        stored.withUnsafeBytes { hasher.update($0) }
        #expect(hasher.finalizeHex() == (try sha256(movie)))
        let bad = try CLI.run([
            "upload", movie, "--to", "s3://photos/x/", "--endpoint", server.endpoint.absoluteString, "--credentials",
            folder + "/missing",
        ])
        #expect(bad.status == 2 && bad.errorText.contains("cannot read the credentials file"))
    }

    @Test("an S3 key that holds another file Pickup sent is not replaced by a photo of the same name, unless --force")
    func sameNameOtherPhoto() throws {
        let server = try SeaweedServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        for (card, fixture) in [("a", Fixture.jpegPlain), ("b", .jpegEXIF)] {
            try FileManager.default.createDirectory(atPath: folder + "/" + card, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: try Fixtures.path(fixture), toPath: folder + "/\(card)/IMG_0001.JPG")
        }
        let environment = ["AWS_ACCESS_KEY_ID": server.accessKey, "AWS_SECRET_ACCESS_KEY": server.secretKey]
        func upload(_ card: String, _ more: [String] = []) throws -> Shell.Result {
            try CLI.run(
                [
                    "upload", folder + "/\(card)/IMG_0001.JPG", "--to", "s3://photos/trip/", "--key", "{name}",
                    "--endpoint", server.endpoint.absoluteString, "--journal", folder + "/j.sqlite",
                ] + more, environment: environment)
        }
        let first = try upload("a")
        #expect(first.status == 0, "\(first.errorText)")
        let firstBytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/a/IMG_0001.JPG"))
        // Another camera's IMG_0001.JPG: refused, the first one kept, saying what to do.
        let second = try upload("b")
        #expect(second.status == 1)
        #expect(
            second.errorText.contains("not sent: s3://photos/trip/IMG_0001.JPG at http")
                && second.errorText.contains(" holds another file Pickup sent there"),
            "\(second.errorText)")
        #expect(second.errorText.contains("--force replaces it"), "\(second.errorText)")
        #expect(
            second.outputText.contains("1 file: 0 uploaded, 0 already there, 0 failed, 1 not sent (see above)"),
            "\(second.outputText)")
        #expect(try server.object("trip/IMG_0001.JPG") == firstBytes)
        let json = try CLI.jsonLines(try upload("b", ["--json"]))
        #expect(json.contains { ($0["error"] as? [String: Any])?["code"] as? String == "keyTaken" }, "\(json)")
        // The same file again is already there, not refused; changed since (new metadata), it is
        // named as this file as it was.
        #expect(try upload("a").status == 0)
        var edited = firstBytes
        edited.append(contentsOf: [0x00])
        try edited.write(to: URL(fileURLWithPath: folder + "/a/IMG_0001.JPG"))
        let changed = try upload("a")
        #expect(changed.status == 1)
        #expect(changed.errorText.contains("holds this file as it was before it changed"), "\(changed.errorText)")
        // --force replaces it.
        #expect(try upload("b", ["--force"]).status == 0)
        #expect(
            try server.object("trip/IMG_0001.JPG")
                == (try Data(contentsOf: URL(fileURLWithPath: folder + "/b/IMG_0001.JPG"))))
    }

    @Test("a folder with -r to S3, credentials and endpoint from ~/.aws and AWS_PROFILE, keys keep the folder's paths")
    func recursiveToS3WithAWSProfile() throws {
        let server = try SeaweedServer()
        let home = try scratch()
        defer { Temporary.remove(home) }
        try FileManager.default.createDirectory(atPath: home + "/.aws", withIntermediateDirectories: true)
        try """
        [default]
        aws_access_key_id = wrong
        aws_secret_access_key = wrong

        [backup]
        aws_access_key_id = \(server.accessKey)
        aws_secret_access_key = \(server.secretKey)
        """.write(toFile: home + "/.aws/credentials", atomically: true, encoding: .utf8)
        try """
        [profile backup]
        region = eu-west-1
        endpoint_url = \(server.endpoint.absoluteString)
        """.write(toFile: home + "/.aws/config", atomically: true, encoding: .utf8)
        let card = home + "/DCIM"
        try FileManager.default.createDirectory(atPath: card + "/100APPLE", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Fixtures.path(.mp4Large), toPath: card + "/100APPLE/IMG_0001.MP4")
        try FileManager.default.copyItem(atPath: try Fixtures.path(.jpegPlain), toPath: card + "/IMG_0002.JPG")
        let environment = ["HOME": home, "AWS_PROFILE": "backup"]
        let arguments = [
            "upload", "-r", card, "--to", "s3://photos/trip/", "--journal", home + "/j.sqlite", "--part-concurrency",
            "3", "--chunk-size", "5",
        ]
        // A folder without -r is a usage mistake that says what to add.
        let flat = try CLI.run(Array(arguments.filter { $0 != "-r" }), environment: environment)
        #expect(flat.status == 2 && flat.errorText.contains("add --recursive"))

        let sent = try CLI.run(arguments, environment: environment)
        #expect(sent.status == 0, "\(sent.errorText)")
        #expect(sent.outputText.contains("2 files: 2 uploaded, 0 already there, 0 failed."))
        #expect(
            try server.object("trip/100APPLE/IMG_0001.MP4")
                == (try Data(contentsOf: URL(fileURLWithPath: card + "/100APPLE/IMG_0001.MP4"))))
        #expect(
            try server.object("trip/IMG_0002.JPG")
                == (try Data(contentsOf: URL(fileURLWithPath: card + "/IMG_0002.JPG"))))
        #expect(!(sent.outputText + sent.errorText).contains(server.secretKey))

        let again = try CLI.run(arguments + ["--json"], environment: environment)
        #expect(again.status == 0)
        #expect(try CLI.jsonLines(again).map { $0["state"] as? String } == ["alreadyThere", "alreadyThere"])
        let plainAgain = try CLI.run(arguments, environment: environment)
        #expect(plainAgain.outputText.contains("\nAll 2 files were already there; nothing was sent.\n"))
        #expect(!plainAgain.outputText.contains(" B confirmed"), "\(plainAgain.outputText)")

        // The default profile's wrong keys are refused, with a hint that names the credentials' places.
        let refused = try CLI.run(
            arguments + ["--force"], environment: ["HOME": home, "AWS_ENDPOINT_URL": server.endpoint.absoluteString])
        #expect(refused.status == 1)
        #expect(refused.outputText.contains("AWS_PROFILE"), "\(refused.outputText)")
    }

    @Test("-H headers reach the server and never the journal; every retry is shown; hints fit the cause")
    func headersRetriesAndHints() throws {
        let form = try FormServer(token: "tok-456")
        let tus = try TusServer()
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        let journal = folder + "/j.sqlite"
        let photo = try Fixtures.path(.jpegPlain)
        let sent = try CLI.run([
            "upload", photo, "--to", form.url.absoluteString, "-H", "Authorization: Bearer tok-456", "--journal",
            journal,
        ])
        #expect(sent.status == 0, "\(sent.outputText)")
        let listed = try CLI.run(["uploads", "list", "--journal", journal, "--json"])
        #expect(!listed.outputText.contains("tok-456"))
        #expect(try CLI.run(["upload", photo, "--to", form.url.absoluteString, "-H", "no colon"]).status == 2)

        // Nobody listens on port 9: two retries, each on its own line, then a failure that says what to do.
        let closed = try CLI.run([
            "upload", photo, "--to", "tus+http://127.0.0.1:9/files", "--retries", "2", "--journal", journal,
        ])
        #expect(closed.status == 1)
        #expect(closed.errorText.contains("retry 1 of 2") && closed.errorText.contains("retry 2 of 2"))
        #expect(closed.outputText.contains("connection refused"))

        // A tus server given as a form, and a wrong tus path: each says what to change.
        let asForm = try CLI.run(["upload", photo, "--to", tus.endpoint.absoluteString, "--journal", journal])
        #expect(asForm.status == 1 && asForm.outputText.contains("--to tus+http://"), "\(asForm.outputText)")
        let wrongPath = try CLI.run([
            "upload", photo, "--to", "tus+http://127.0.0.1:\(tus.port)/nope", "--journal", journal,
        ])
        #expect(wrongPath.status == 1 && wrongPath.outputText.contains("no tus endpoint"), "\(wrongPath.outputText)")
        #expect(wrongPath.outputText.contains("tusd serves /files/"), "the hint for that case: \(wrongPath.outputText)")
        #expect(!wrongPath.outputText.contains("no longer knows"))
        #expect(asForm.outputText.contains("a plain http(s):// URL means a web form"), "\(asForm.outputText)")

        // A URL whose server takes no POST (405): the hint says to check the URL, not to wait.
        var wrongURL = URLComponents(url: form.url, resolvingAgainstBaseURL: false)
        wrongURL?.path = "/wrong"
        let notAllowed = try CLI.run([
            "upload", photo, "--to", try #require(wrongURL?.url).absoluteString, "--journal", journal,
        ])
        #expect(notAllowed.status == 1)
        #expect(notAllowed.outputText.contains("Check the URL given to --to"), "\(notAllowed.outputText)")
        #expect(!notAllowed.outputText.contains("try again later"), "\(notAllowed.outputText)")
    }

    /// `count` photos in `folder` (a folder's walk sends only media): a small JPEG's bytes,
    /// each with its own comment, so each is a file of its own.
    func photos(_ count: Int, in folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let photo = try Fixtures.bytes(.jpegPlain)
        for number in 0..<count {
            let comment = Array("photo \(number)".utf8)
            let marker: [UInt8] = [0xFF, 0xFE, 0, UInt8(comment.count + 2)] + comment
            try Data(photo.prefix(2) + marker + photo.dropFirst(2)).write(
                to: URL(fileURLWithPath: folder + "/\(number).jpg"))
        }
    }

    @Test("on a terminal, the bar names one file sending and how many more are in flight beside it")
    func barSaysHowManyInFlight() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try photos(4, in: folder + "/photos")
        // Four at once against a port that refuses: all four are sending (retrying) together.
        let port = FreePort.pick(in: 20_000...29_999)
        let run = try Shell.run(
            "script -qec \"\\\"$TOOL\\\" upload -r \\\"$DIR\\\" --to tus+http://127.0.0.1:$PORT/files --parallel 4 "
                + "--retries 2 --journal \\\"$J\\\"\" /dev/null",
            environment: ["TOOL": CLI.tool, "DIR": folder + "/photos", "PORT": String(port), "J": folder + "/j.sqlite"])
        #expect(run.outputText.contains("0/4 ["), "\(run.outputText)")
        #expect(run.outputText.contains(".jpg +3 more"), "\(run.outputText)")
    }

    @Test("uploads resume to an S3 store that cannot be reached stops after one upload's retries, all paused")
    func resumeStopsAtADeadStore() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try photos(6, in: folder + "/photos")
        let port = FreePort.pick(in: 20_000...29_999)
        let keys = folder + "/keys"
        try Data("AWS_ACCESS_KEY_ID=test\nAWS_SECRET_ACCESS_KEY=secret\n".utf8).write(to: URL(fileURLWithPath: keys))
        let first = try CLI.run([
            "upload", "-r", folder + "/photos", "--to", "s3://bucket/roll/", "--endpoint", "http://127.0.0.1:\(port)",
            "--credentials", keys, "--parallel", "3", "--retries", "1", "--journal", folder + "/j.sqlite",
        ])
        #expect(first.errorText.contains("pickup upload: stopped"), "\(first.errorText)")
        // Each S3 upload has a key of its own; they go to one store, and stop together there.
        let resumed = try CLI.run([
            "uploads", "resume", "--journal", folder + "/j.sqlite", "--retries", "1", "--credentials", keys,
        ])
        #expect(resumed.errorText.contains("pickup uploads: stopped"), "\(resumed.errorText)")
        #expect(!resumed.errorText.contains("not started"), "resumed uploads began before: \(resumed.errorText)")
    }

    @Test("an endpoint that cannot be reached stops a 1,000-file run after one file's retries, within a minute")
    func unreachableEndpointStopsTheRun() throws {
        let folder = try scratch()
        defer { Temporary.remove(folder) }
        try photos(1_000, in: folder + "/photos")
        let port = FreePort.pick(in: 20_000...29_999)
        let started = Date()
        // The default retries (7): what would take each file its own half a minute.
        let run = try CLI.run([
            "upload", "-r", folder + "/photos", "--to", "tus+http://127.0.0.1:\(port)/files", "--journal",
            folder + "/j.sqlite",
        ])
        let seconds = Date().timeIntervalSince(started)
        #expect(run.status == 1)
        #expect(seconds < 60, "\(seconds) s")
        // Said once, with what is left; retries only for the uploads that had begun (8 at once).
        let said = run.errorText.components(separatedBy: "stopped: the endpoint cannot be reached").count - 1
        #expect(said == 1, "\(run.errorText)")
        #expect(run.errorText.contains("connection refused"))
        #expect(run.errorText.contains("not started"))
        // Only the same command sends the files not started (the journal holds the begun ones
        // only): `uploads resume` is not offered, as it would say all went well without them.
        #expect(run.errorText.contains(": run the same command again when it is back."), "\(run.errorText)")
        #expect(!run.errorText.contains("pickup uploads resume"), "\(run.errorText)")
        // The first upload to use its retries stops the run. Another whose last retry failed in
        // the same moment (8 began together, their waits alike) has failed too, and says so.
        let failed = run.errorText.firstMatch(of: #/(\d+) failed after (its|their) retries, /#).flatMap { Int($0.1) }
        #expect(failed.map { (1...8).contains($0) } == true, "\(run.errorText)")
        let unknown = try CLI.run(["uploads", "resume", "zzzzzz", "--journal", folder + "/j.sqlite"])
        #expect(unknown.errorText.contains("Run 'pickup uploads list --journal "), "\(unknown.errorText)")
        let retries = run.errorText.components(separatedBy: "; retrying in ").count - 1
        #expect((7...56).contains(retries), "\(retries) retries")
        #expect(run.outputText.contains("1000 files: 0 uploaded, 0 already there, "), "\(run.outputText)")
        #expect(run.outputText.contains(" paused, "))
        #expect(run.outputText.contains(" not started, \(failed ?? 1) failed."), "\(run.outputText)")
        // Resumed, they go to the same place: stopped again after one upload's retries.
        let resumed = try CLI.run(["uploads", "resume", "--journal", folder + "/j.sqlite", "--retries", "1"])
        #expect(
            resumed.errorText.contains("pickup uploads: stopped: the endpoint cannot be reached"),
            "\(resumed.errorText)")
        // The journal holds only the uploads that began; the rest are sent by the same command again.
        let listed = try CLI.run(["uploads", "list", "--journal", folder + "/j.sqlite", "--json"])
        #expect((1...8).contains(try CLI.jsonLines(listed).count), "\(listed.outputText)")
    }
}
