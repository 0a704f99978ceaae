import Foundation

/// One chunk of a tus upload sent by a background `URLSession`, as its task carries it
/// (`taskDescription`, JSON): everything needed to decide, inside the delegate callback and
/// without awaiting anything, what to send next.
package struct BackgroundChunk: Sendable, Equatable, Codable {
    /// The journal's upload id.
    package var id: String
    /// The file being uploaded, and its size.
    package var path: String
    /// The file's size in bytes.
    package var size: Int64
    /// The upload's URL on the tus server.
    package var remote: URL
    /// Where this chunk starts, and how long it is.
    package var offset: Int64
    /// The chunk's length in bytes.
    package var length: Int64

    /// A chunk of a journaled tus upload.
    package init(id: String, path: String, size: Int64, remote: URL, offset: Int64, length: Int64) {
        self.id = id
        self.path = path
        self.size = size
        self.remote = remote
        self.offset = offset
        self.length = length
    }

    /// What to do once this chunk's request has ended.
    package enum Next: Sendable, Equatable {
        /// Send this chunk now, before the delegate callback returns (so the system never
        /// sees a moment with no task, and does not end the background session's events).
        case send(BackgroundChunk)
        /// The server holds the whole file: record the upload done.
        case finished(offset: Int64)
        /// Stop, and let the foreground uploader ask the server's offset when it resumes.
        case stop(offset: Int64?, error: UploadError)
    }

    /// Decides the next step from what the server said: `status` and its `Upload-Offset`
    /// (nil when it sent none), or the transport `error`.
    package func next(status: Int?, serverOffset: Int64?, error: String?, chunkSize: Int64) -> Next {
        if let error { return .stop(offset: nil, error: UploadError(.network, error)) }
        guard let status, (200..<300).contains(status) else {
            return .stop(
                offset: nil,
                error: UploadError(
                    .server, "the server answered \(status.map(String.init) ?? "nothing")", status: status))
        }
        guard let serverOffset else {
            return .stop(offset: nil, error: UploadError(.badAnswer, "the server sent no Upload-Offset"))
        }
        guard serverOffset > offset, serverOffset <= size else {
            return .stop(
                offset: nil,
                error: UploadError(
                    .badAnswer, "the server's offset \(serverOffset) is outside \(offset + 1)...\(size)"))
        }
        if serverOffset == size { return .finished(offset: serverOffset) }
        var chunk = self
        chunk.offset = serverOffset
        chunk.length = min(max(1, chunkSize), size - serverOffset)
        return .send(chunk)
    }

    /// The task description that carries this chunk.
    package var taskDescription: String {
        (try? String(decoding: JSONEncoder().encode(self), as: UTF8.self)) ?? ""
    }

    /// The chunk a task description carries, or nil for a task that is not one.
    package init?(taskDescription: String?) {
        guard let text = taskDescription,
            let chunk = try? JSONDecoder().decode(BackgroundChunk.self, from: Data(text.utf8))
        else { return nil }
        self = chunk
    }
}
