import Foundation

/// One upload sent by the background session in one task, as the task carries it (its
/// `taskDescription`): enough to decide, when the task ends, even in a relaunched app that
/// remembers nothing else, what the journal should say.
package struct BackgroundTransfer: Sendable, Hashable, Codable {
    /// Which protocol's request the task sends.
    package enum Kind: String, Sendable, Hashable, Codable {
        /// A tus PATCH of the rest of the file, from `offset`.
        case tus
        /// An S3 PUT of the whole object, to a presigned URL.
        case s3
        /// A form POST of the whole body (its head, the file and its end).
        case form
    }

    /// The journal's upload id.
    package var id: String
    /// The request the task sends.
    package var kind: Kind
    /// The file's first byte the task sends (tus); 0 for S3 and forms.
    package var offset: Int64
    /// The file's size in bytes.
    package var size: Int64
    /// The file the task sends: the picked file itself, or a copy made for the task.
    package var body: String
    /// Whether `body` was written for this task (removed when it ends).
    package var bodyIsCopy: Bool
    /// Where the request went: an answer from anywhere else was redirected.
    package var url: URL
    /// How many tasks in a row have carried this upload (a failed one is handed over again, a few times).
    package var attempt: Int
    /// Bytes of the body before the file's (a form's head); nil: none.
    package var leading: Int64?

    /// A transfer of upload `id`.
    package init(
        id: String, kind: Kind, offset: Int64, size: Int64, body: String, bodyIsCopy: Bool, url: URL, attempt: Int = 1,
        leading: Int64? = nil
    ) {
        self.id = id
        self.kind = kind
        self.offset = offset
        self.size = size
        self.body = body
        self.bodyIsCopy = bodyIsCopy
        self.url = url
        self.attempt = attempt
        self.leading = leading
    }

    /// The file's bytes on their way once the task has sent `total` bytes of its body (URLSession's
    /// `totalBytesSent`): those before the task's first, then the body's past its head, within the file.
    package func fileBytes(sent total: Int64) -> Int64 {
        offset + min(size - offset, max(0, total - (leading ?? 0)))
    }

    /// What marks a task description as Pickup's.
    static let label = "pickup.upload "

    /// The task description that carries this transfer.
    package var taskDescription: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return BackgroundTransfer.label + ((try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "{}")
    }

    /// The transfer a task description carries, or nil for a task that is not Pickup's.
    package init?(taskDescription: String?) {
        guard let text = taskDescription, text.hasPrefix(BackgroundTransfer.label),
            let transfer = try? JSONDecoder().decode(
                BackgroundTransfer.self, from: Data(text.dropFirst(BackgroundTransfer.label.count).utf8))
        else { return nil }
        self = transfer
    }

    /// How a task ended, for the journal.
    package enum Outcome: Sendable, Hashable {
        /// The server holds the whole file.
        case done
        /// Not finished: `confirmed` bytes are on the server when the answer says so (nil: ask
        /// it); the foreground resumes from the server's offset.
        case stopped(confirmed: Int64?, error: UploadError)
    }

    /// Decides how the task ended from its answer: the `status` and `headers` (names in lower
    /// case), the URL that answered (`finalURL`; a background session follows redirects, so an
    /// answer from another origin is not taken as the server's), or the task's `error`
    /// (`.cancelled` for a cancelled task, `.network` for a connection that failed).
    package func outcome(status: Int?, headers: [String: String], finalURL: URL?, error: UploadError?) -> Outcome {
        if let error { return .stopped(confirmed: nil, error: error) }
        if let finalURL, !finalURL.hasSameOrigin(as: url) {
            return .stopped(
                confirmed: nil,
                error: UploadError(
                    .badTarget,
                    "the server redirected the background upload to \(finalURL.host ?? "another host"); "
                        + "the system follows redirects in the background, so this answer is not the server's"))
        }
        guard let status else {
            return .stopped(confirmed: nil, error: UploadError(.network, "the background upload got no answer"))
        }
        switch status {
        case 200..<300: break
        case 401, 403:
            let why = kind == .s3 ? "the presigned URL was refused (expired?)" : "the server refused the credentials"
            return .stopped(confirmed: nil, error: UploadError(.unauthorized, why, status: status))
        case 404, 410:
            return .stopped(
                confirmed: nil, error: UploadError(.gone, "the server no longer knows the upload", status: status))
        case 409 where kind == .form:
            // An earlier try of the form still being handled (same Idempotency-Key): the
            // foreground asks again after a wait, not a new task at once.
            return .stopped(
                confirmed: nil,
                error: UploadError(.server, "the server is still handling an earlier try of this upload", status: 409))
        case 409:
            return .stopped(
                confirmed: nil,
                error: UploadError(.offsetConflict, "the server holds a different offset", status: status))
        case 413:
            return .stopped(
                confirmed: nil, error: UploadError(.tooLarge, "the server refuses a file this large", status: status))
        default:
            return .stopped(
                confirmed: nil, error: UploadError(.server, "the background upload was refused", status: status))
        }
        guard kind == .tus else { return .done }
        guard let text = headers["upload-offset"], let serverOffset = Int64(text) else {
            return .stopped(
                confirmed: nil, error: UploadError(.badAnswer, "the server sent no Upload-Offset", status: status))
        }
        guard serverOffset > offset, serverOffset <= size else {
            return .stopped(
                confirmed: nil,
                error: UploadError(
                    .badAnswer, "the server's offset \(serverOffset) is outside \(offset + 1)...\(size)",
                    status: status))
        }
        if serverOffset == size { return .done }
        return .stopped(
            confirmed: serverOffset,
            error: UploadError(.network, "the server kept \(serverOffset) of \(size) bytes; the rest goes on resume"))
    }
}
