#if canImport(URLSessionTransportLinux)
    import Foundation
    import PickupStore
    import PickupTestSupport
    import Testing

    /// A 1 GB form upload through `URLSessionTransport` (FoundationNetworking) peaks under
    /// 64 MB: the whole process's peak resident memory (`/usr/bin/time -f %M`) of
    /// `urlsession-upload`, a small program that makes that one upload and nothing else (this
    /// test binary alone, with no test run, takes some 75 MB). The form server runs here,
    /// outside the figure.
    @Suite("URLSession transport memory (FoundationNetworking)", .serialized)
    struct URLSessionMemoryTests {
        static let target = 64.0

        /// `urlsession-upload` sits beside the test bundle in the build folder.
        static let program: String = {
            let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            for candidate in [folder, folder.deletingLastPathComponent()] {
                let path = candidate.appendingPathComponent("urlsession-upload").path
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
            return ".build/debug/urlsession-upload"
        }()

        @Test("a 1 GB form through URLSessionTransport peaks under 64 MB, the whole process")
        func peak() throws {
            let server = try FormServer()
            let folder = Temporary.url("mem")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { Temporary.remove(folder) }
            // 1 GiB of zeros, sparse on disk: what is read and sent is 1 GiB all the same.
            let path = folder.appendingPathComponent("big.mp4").path
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try file.truncate(atOffset: 1 << 30)
            try file.close()
            let report = folder.appendingPathComponent("peak.txt").path
            let log = folder.appendingPathComponent("out.txt").path
            #expect(FileManager.default.createFile(atPath: log, contents: nil))
            let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
            process.arguments = [
                "-f", "%M", "-o", report, URLSessionMemoryTests.program, server.url.absoluteString, path,
            ]
            process.standardOutput = output
            process.standardError = output
            try process.run()
            process.waitUntilExit()
            try output.close()
            let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(process.terminationStatus == 0, "urlsession-upload: \(said.suffix(2_000))")
            let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n")
            let kilobytes = try #require(lines.last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
            let megabytes = Double(kilobytes) / 1024
            print("URLSessionTransport, 1 GiB form: peak \(String(format: "%.1f", megabytes)) MB (/usr/bin/time -f %M)")
            #expect(megabytes < URLSessionMemoryTests.target, "peak \(megabytes) MB")
            // The server has it all, byte for byte.
            let sent = try FileHash.sha256(ofFileAt: path).get()
            let got = try FileHash.sha256(ofFileAt: server.folder + "/big.mp4").get()
            #expect(got.size == 1 << 30 && got.sha256 == sent.sha256)
        }
    }
#endif
