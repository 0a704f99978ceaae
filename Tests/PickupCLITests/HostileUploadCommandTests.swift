import Foundation
import PickupTestSupport
import Testing

/// `pickup upload` against servers that attack it: bounded memory, clear errors, a clean exit.
@Suite("pickup upload against hostile servers, end to end", .serialized)
struct HostileUploadCommandTests {
    /// Runs `pickup` under /usr/bin/time; the result and its peak memory in MB.
    func measured(_ arguments: [String], environment: [String: String] = [:]) throws -> (Shell.Result, Double) {
        let report = Temporary.path("time")
        defer { Temporary.remove(report) }
        let result = try Shell.execute(
            "/usr/bin/time", ["-f", "%M", "-o", report, CLI.tool] + arguments, environment: environment)
        let kilobytes =
            Double((try? String(contentsOfFile: report, encoding: .utf8))?.split(separator: "\n").last ?? "") ?? 0
        return (result, kilobytes / 1024)
    }

    @Test("endless answers over http and https: an error, a clean exit, under 100 MB", arguments: [false, true])
    func endlessAnswers(https: Bool) throws {
        let certificate = https ? try TestCertificate.make() : nil
        let server = try HostileServer(certificate: certificate)
        let folder = try Temporary.folder("hostile")
        defer { Temporary.remove(folder) }
        for behaviour in ["endless", "endless-chunked"] {
            var arguments = [
                "upload", try Fixtures.path(.jpegPlain), "--to", "tus+" + server.url(behaviour).absoluteString,
                "--journal", folder + "/j.sqlite", "--json",
            ]
            if let certificate { arguments += ["--ca-file", certificate.certificate] }
            let (result, megabytes) = try measured(arguments)
            #expect(result.status == 1, "\(behaviour): \(result.errorText)")
            #expect(result.outputText.contains("more than Pickup reads"), "\(behaviour): \(result.outputText)")
            #expect(megabytes < 100, "\(behaviour) took \(megabytes) MB")
            #expect(!result.errorText.contains("retrying"), "a bad answer is not retried: \(result.errorText)")
        }
    }

    @Test("a private certificate authority: refused without being trusted, accepted from SSL_CERT_DIR or --ca-file")
    func privateAuthority() throws {
        let certificate = try TestCertificate.make()
        let server = try HostileServer(certificate: certificate)
        let folder = try Temporary.folder("ca", inside: "certs")
        defer { Temporary.remove(folder) }
        try FileManager.default.copyItem(atPath: certificate.certificate, toPath: folder + "/certs/test.pem")
        let arguments = [
            "upload", try Fixtures.path(.jpegPlain), "--to", "tus+" + server.url("tus-big-offset").absoluteString,
            "--journal", folder + "/j.sqlite",
        ]
        let started = Date()
        let untrusted = try CLI.run(arguments)
        #expect(untrusted.status == 1)
        #expect(untrusted.outputText.contains("not trusted"), "\(untrusted.outputText)")
        #expect(!untrusted.errorText.contains("retrying"), "a certificate error is not retried")
        #expect(Date().timeIntervalSince(started) < 10)
        let fromFolder = try CLI.run(arguments, environment: ["SSL_CERT_DIR": folder + "/certs"])
        #expect(fromFolder.outputText.contains("999999999"), "past TLS, to the offset check: \(fromFolder.outputText)")
        let fromFile = try CLI.run(arguments + ["--ca-file", certificate.certificate])
        #expect(fromFile.outputText.contains("999999999"), "\(fromFile.outputText)")
    }

    @Test("a file swapped for a link to a secret while an earlier file uploads is not sent")
    func swappedAfterTheWalk() throws {
        let server = try HostileServer()
        let folder = try Temporary.folder("swap", inside: "up")
        defer { Temporary.remove(folder) }
        // Named as photos: a folder's walk sends media only (and what is named as media).
        try Data("first file".utf8).write(to: URL(fileURLWithPath: folder + "/up/a.jpg"))
        try Data("second file".utf8).write(to: URL(fileURLWithPath: folder + "/up/b2.jpg"))
        try Data("-----BEGIN OPENSSH PRIVATE KEY-----".utf8).write(to: URL(fileURLWithPath: folder + "/id_rsa"))
        let arguments = [
            "upload", "-r", folder + "/up", "--to", server.url("slow-refusal").absoluteString, "--parallel", "1",
            "--retries", "0", "--journal", folder + "/j.sqlite", "--json",
        ]
        // The tool runs on a thread of its own and this test watches from its own (blocking, off
        // the concurrency pool, which other tests may hold): the swap comes while the server waits.
        final class Outcome: @unchecked Sendable {  // written once, before `done` is signalled
            var result: Result<Shell.Result, any Error>?
            let done = DispatchSemaphore(value: 0)
        }
        let outcome = Outcome()
        Thread.detachNewThread {
            outcome.result = Result { try CLI.run(arguments) }
            outcome.done.signal()
        }
        // The first file's POST arrived (the server holds it 3 s): swap the second for a link.
        let started = Date()
        while server.requests().isEmpty, Date().timeIntervalSince(started) < 20 { usleep(10_000) }
        try FileManager.default.removeItem(atPath: folder + "/up/b2.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/up/b2.jpg", withDestinationPath: folder + "/id_rsa")
        outcome.done.wait()
        let result = try #require(outcome.result).get()
        #expect(result.status == 1, "\(result.errorText)")
        #expect(server.requests().count == 1, "the swapped file was sent: \(server.requests())")
        #expect(result.outputText.contains("no longer the file found"), "\(result.outputText)")
    }

    @Test("chunks over a proxy's limit: the upload stops at once, says so, and a resume with smaller chunks ends it")
    func chunkOverAProxysLimit() throws {
        let server = try HostileServer()
        let folder = try Temporary.folder("limit")
        defer { Temporary.remove(folder) }
        let file = folder + "/movie.bin"
        let bytes = Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 8) })
        try bytes.write(to: URL(fileURLWithPath: file))
        let journal = folder + "/j.sqlite"
        // 0.25 MB chunks, where the proxy takes bodies of up to 200,000 bytes.
        let started = Date()
        let refused = try CLI.run([
            "upload", file, "--to", "tus+" + server.url("tus-body-limit").absoluteString, "--journal", journal,
            "--chunk-size", "0.25",
        ])
        #expect(Date().timeIntervalSince(started) < 10, "the 413 is read as it comes, not after a stall")
        #expect(refused.status == 1, "\(refused.outputText)\(refused.errorText)")
        let said = refused.outputText + refused.errorText
        #expect(said.contains("refused a request of 262144 bytes as too large"), "\(said)")
        #expect(said.contains("--chunk-size MB', below the limit of the server or its proxy"), "\(said)")
        let id = try #require(
            said.split(separator: "\n").first { $0.contains("refused a request") }?.split(separator: " ").first)
        let resumed = try CLI.run(["uploads", "resume", String(id), "--journal", journal, "--chunk-size", "0.125"])
        #expect(resumed.status == 0, "\(resumed.outputText)\(resumed.errorText)")
        let patches = server.requests().filter { $0["method"] as? String == "PATCH" }.compactMap { $0["body"] as? Int }
        #expect(patches.first == -262_144 && patches.dropFirst().allSatisfy { $0 > 0 && $0 <= 131_072 }, "\(patches)")
        #expect(patches.filter { $0 > 0 }.reduce(0, +) == bytes.count)
    }
}
