import Foundation
import PickupStore

/// One upload as the journal keeps it, so that a new process resumes what an old one left.
public struct UploadRecord: Sendable, Hashable {
    /// Where the upload stands.
    public enum State: String, Sendable, Hashable, Codable {
        /// Not started yet.
        case waiting
        /// Being sent (or was, when a process died: resume it).
        case uploading
        /// Stopped by the person; resumable.
        case paused
        /// Every byte is on the server and the upload is finished there.
        case done
        /// Stopped by an error (`error` says which); resumable when it can help.
        case failed
        /// Stopped for good; the server was asked to forget it.
        case cancelled
    }

    /// The upload's id in the journal (a UUID).
    public var id: String
    /// The file being uploaded.
    public var path: String
    /// The file's size in bytes.
    public var size: Int64
    /// The file's modification time (ns) when the upload began; a changed file is not resumed.
    public var modified: Int64
    /// Where it goes, as shown: without credentials, query or fragment.
    public var target: String
    /// Where it goes, as the journal keeps it (no credentials, headers or query); nil only
    /// for a row the journal cannot read back.
    public var destination: UploadDestination?
    /// The file's MIME type, sent in `Upload-Metadata`.
    public var type: String
    /// The server's URL for this upload (tus `Location`), without query or fragment.
    public var remote: String?
    /// Bytes the server has confirmed.
    public var offset: Int64
    /// Where the upload stands.
    public var state: State
    /// Why it failed: the code, the message and the HTTP status, kept as they were.
    public var error: UploadError?
    /// When the upload was added, in seconds since 1970.
    public var created: Double
    /// When it last changed, in seconds since 1970.
    public var updated: Double
    /// How many tries the run that began it allowed (`pickup upload --retries` plus one): a resume
    /// allows as many; nil for an upload recorded before the journal kept it.
    public var maxAttempts: Int? = nil
    /// The `UploadOptions.chunkSize` of the run that began it: a resume sends with it again, so
    /// that S3 parts keep their size and a size chosen for a proxy's limit holds (nil for an
    /// upload recorded before the journal kept it).
    public var chunkSize: Int? = nil
    /// The `UploadOptions.largestTusChunk` of the run that began it, which a resume keeps too.
    public var largestTusChunk: Int? = nil
    /// The server's answer to a form's POST, its body as text (the first
    /// ``UploadRecord/replyLimit`` bytes): what the web app says of the file it took, such as
    /// its id or address. Nil for tus and S3 uploads, and for an answer with no body.
    public var reply: String? = nil

    /// What the app sends with a tus upload in `Upload-Metadata`, beside the file's `filename`
    /// and `filetype` (its own keys win: a picked file's original name, say): an album, a
    /// user's id, what the server's hooks read. Kept in the journal, so that a resume or the
    /// background session creates the upload with it. Empty for other uploads.
    public var metadata: [String: String] = [:]

    /// How much of a form's answer the journal keeps: 64 KB.
    public static let replyLimit = 64 << 10

    /// A form's answer as the journal keeps it: its first `replyLimit` bytes as text (a
    /// character cut at the limit dropped); nil when it is empty.
    public static func reply(from body: Data) -> String? {
        guard !body.isEmpty else { return nil }
        var bytes = [UInt8](body.prefix(replyLimit))
        if body.count > replyLimit, let lead = bytes.lastIndex(where: { $0 & 0xC0 != 0x80 }) {
            // Not half a character: the last one is dropped when it has fewer bytes than its
            // first byte announces (110xxxxx two, 1110xxxx three, 11110xxx four).
            let first = bytes[lead]
            let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
            if bytes.count - lead < length { bytes.removeSubrange(lead...) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A reply's first line as a person reads it: its spaces trimmed, cut to `limit` characters
    /// ("…" after it), and whether it was cut or lines follow it. A refusal's error quotes it,
    /// and `pickup upload` prints it.
    package static func firstLine(of reply: String, limit: Int) -> (line: String, cut: Bool, more: Bool) {
        let lines = reply.split(whereSeparator: \.isNewline)
        let line = (lines.first.map(String.init) ?? "").trimmingCharacters(in: .whitespaces)
        let cut = line.count > limit
        return (cut ? String(line.prefix(limit)) + "…" : line, cut, lines.count > 1)
    }
}

extension UploadRecord {
    /// A failed record for an upload that never reached the journal (the file or the journal could not be opened).
    static func failed(
        path: String, destination: UploadDestination?, type: String, size: Int64 = 0, modified: Int64 = 0,
        error: UploadError
    ) -> UploadRecord {
        UploadRecord(
            id: "-", path: path, size: size, modified: modified, target: destination?.displayName ?? "-",
            destination: destination?.stored, type: type, remote: nil, offset: 0, state: .failed, error: error,
            created: 0, updated: 0)
    }

    /// A failed record for an id the journal does not hold.
    public static func missing(id: String) -> UploadRecord {
        UploadRecord(
            id: id, path: "", size: 0, modified: 0, target: "", destination: nil, type: "", remote: nil, offset: 0,
            state: .failed, error: UploadError(.badTarget, "the journal has no upload \(id)"), created: 0, updated: 0)
    }
}
