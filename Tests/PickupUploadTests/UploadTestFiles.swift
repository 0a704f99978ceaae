import Foundation
import PickupHTTP
import PickupStore
import PickupTestSupport
import PickupUpload

/// What the upload suites share: hashes to compare stored bytes with, throwaway
/// journals and random files.
enum UploadTestFiles {
    static func sha256(_ data: Data) -> String {
        let hasher = DigestHasher()
        data.withUnsafeBytes { hasher.update($0) }
        return hasher.finalizeHex()
    }

    static func sha256(file path: String) throws -> String {
        sha256(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Every upload in these suites goes through the transport the `pickup` tool uses on
    /// Linux (AsyncHTTPClient), installed once, before the first journal is opened.
    static let transport: Void = HTTPTransports.install(AsyncHTTPTransport.shared)

    static func journalPath() -> String {
        _ = transport
        return Temporary.path("journal", suffix: ".sqlite")
    }

    static func journal() throws -> UploadJournal { try UploadJournal(path: journalPath()) }

    /// A file of `megabytes` random MiB in the temporary folder; the caller removes it.
    static func random(megabytes: Int) throws -> String {
        let path = Temporary.path("up", suffix: ".bin")
        let random = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/urandom"))
        defer { try? random.close() }
        try random.readData(ofLength: megabytes << 20).write(to: URL(fileURLWithPath: path))
        return path
    }
}

extension UploadRecord {
    /// Why it failed, in words, with the hint: "" when it did not.
    var why: String { error.map { $0.description + ". " + $0.hint } ?? "" }
}

extension UploadTestFiles {
    /// A tus destination for journal tests that send nothing.
    static let someTusServer = UploadDestination.tus(endpoint: URL(fileURLWithPath: "/files"))
}
