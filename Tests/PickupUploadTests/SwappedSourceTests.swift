import Foundation
import PickupStore
import PickupTestSupport
import Testing

@testable import PickupUpload

/// A file found by a walk and swapped, before its turn, for a link to another file
/// (`~/.ssh/id_rsa`, say): refused, and nothing of the other file is sent.
@Suite("a source swapped after the walk")
struct SwappedSourceTests {
    @Test("a file swapped for a link, or for another file, is refused before a byte is read", arguments: [true, false])
    func swapped(forLink: Bool) async throws {
        let folder = try Temporary.folder("swap")
        defer { Temporary.remove(folder) }
        let path = folder + "/b2.txt"
        let secret = folder + "/id_rsa"
        try Data("holiday notes".utf8).write(to: URL(fileURLWithPath: path))
        try Data("-----BEGIN OPENSSH PRIVATE KEY-----".utf8).write(to: URL(fileURLWithPath: secret))
        let seen = try #require(FileStatus(path: path)).identity
        // Moved aside, not removed: a removed file's inode could be given to the new one.
        try FileManager.default.moveItem(atPath: path, toPath: folder + "/b2.old")
        if forLink {
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: secret)
        } else {
            try FileManager.default.copyItem(atPath: secret, toPath: path)
        }
        #expect(throws: UploadError.self) { try SourceFile(path: path, expected: seen) }
        let server = try HostileServer()
        let uploader = Uploader(journal: try UploadTestFiles.journal(), options: UploadOptions(maxAttempts: 1))
        let record = await uploader.upload(path: path, to: .tus(endpoint: server.url("anything")), expected: seen)
        #expect(record.state == .failed)
        #expect(record.error?.code == .sourceUnreadable)
        #expect(record.why.contains("no longer the file found") == true, "\(record.why)")
        #expect(server.requests().isEmpty, "the server was reached: \(server.requests())")
        // The same path, opened with no identity to keep (a file named on its own), is read.
        #expect(try SourceFile(path: path).size > 0)
    }
}
