/// Why an upload stopped: what happened, whether trying again can help, and
/// what to do. Never carries credentials or signed URLs.
public struct UploadError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of failure it is, for a program to act on.
    public enum Code: String, Sendable, Hashable, Codable {
        /// The connection failed or timed out.
        case network
        /// The server answered with an error status.
        case server
        /// The server no longer knows the upload (404/410): it starts over.
        case gone
        /// The server's offset differs from ours (409): ask it and go on.
        case offsetConflict
        /// The server found the chunk corrupted (460): send it again.
        case checksumMismatch
        /// The server refused the credentials (401/403).
        case unauthorized
        /// The file could not be read, or, sent from an app extension, lies outside its App
        /// Group's container (``UploadError/outsideSharedContainer``).
        case sourceUnreadable
        /// The file changed since its upload began (its size or modification time): the bytes
        /// sent are no longer its bytes, so the upload cannot be finished; send it again as a
        /// new upload, and cancel this one.
        case sourceChanged
        /// The journal could not be read or written.
        case journal
        /// The upload was cancelled.
        case cancelled
        /// The target is not one Pickup can upload to.
        case badTarget
        /// The server refuses a file this large (413, or over its Tus-Max-Size).
        case tooLarge
        /// Another process is sending this upload now.
        case busy
        /// The server's TLS certificate is not trusted.
        case certificate
        /// The server's answer could not be taken: longer than Pickup reads, or not HTTP.
        case badAnswer
    }

    /// What kind of failure it is.
    public var code: Code
    /// What happened, in a sentence.
    public var message: String
    /// The HTTP status, when the server answered.
    public var status: Int?
    /// Seconds the server asked to wait before trying again (its `Retry-After`), if it did.
    public var retryAfter: Double?
    /// Whether the endpoint itself could not be reached: no connection was ever made (refused,
    /// no route to the host, its name not found, no answer to the connection in time). Every
    /// upload to it would fail the same way, so a batch stops at the first one
    /// (`UploadQueue.stopsWhenUnreachable`).
    public var unreachable = false

    /// For a ``Code/journal`` error: the path named as the journal holds something else (a
    /// folder, a photo, another database), which was left as it is; another path is the remedy,
    /// not the disk or its permissions.
    public var notAJournal = false

    /// For a ``Code/sourceUnreadable`` error: an app extension sent a file outside its App
    /// Group's container, where the app (which resumes what the extension leaves) cannot read it.
    public var outsideSharedContainer = false

    /// The error for a file an app extension sends from outside its App Group's container:
    /// `resolved`, where its links lead; `container`, the group's.
    static func outsideSharedContainer(_ path: String, resolved: String, container: String) -> UploadError {
        let leads = resolved == path ? "" : " (it leads to \(resolved))"
        var error = UploadError(
            .sourceUnreadable,
            "\(path)\(leads) is not in the App Group's container \(container), so the app could not read it to "
                + "resume the upload; nothing was sent")
        error.outsideSharedContainer = true
        return error
    }

    /// For a ``Code/badTarget`` or ``Code/tooLarge`` error, what is wrong with the target, when
    /// Pickup knows: for a program (or a command line's hint) to act on without reading the
    /// message.
    public enum TargetProblem: String, Sendable, Hashable, Codable {
        /// The URL is a tus server's, given as a web form's.
        case tusServerGivenAsForm
        /// The server has no tus endpoint at that path.
        case noTusEndpoint
        /// A ``Code/tooLarge``: one request was refused (413), not the file: the server, or a
        /// proxy in front of it, takes smaller bodies, so smaller chunks pass
        /// (``UploadOptions/chunkSize``).
        case requestTooLarge
        /// An endpoint given again to resume an upload names another place than the upload's
        /// own: it may bring back the query (a token) the journal does not keep, nothing else.
        case otherPlace
    }

    /// What is wrong with the target, for a ``Code/badTarget`` or ``Code/tooLarge`` error that knows.
    public var targetProblem: TargetProblem?

    /// An error with its kind, its message, the HTTP status when a server answered and the
    /// wait it asked for.
    public init(_ code: Code, _ message: String, status: Int? = nil, retryAfter: Double? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.retryAfter = retryAfter
    }

    /// Decodes an error, the flags added over time (`unreachable`, `notAJournal`,
    /// `outsideSharedContainer`, `targetProblem`) false or nil where an older encoding lacks them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(Code.self, forKey: .code)
        message = try container.decode(String.self, forKey: .message)
        status = try container.decodeIfPresent(Int.self, forKey: .status)
        retryAfter = try container.decodeIfPresent(Double.self, forKey: .retryAfter)
        unreachable = try container.decodeIfPresent(Bool.self, forKey: .unreachable) ?? false
        notAJournal = try container.decodeIfPresent(Bool.self, forKey: .notAJournal) ?? false
        outsideSharedContainer = try container.decodeIfPresent(Bool.self, forKey: .outsideSharedContainer) ?? false
        targetProblem = try container.decodeIfPresent(TargetProblem.self, forKey: .targetProblem)
    }

    /// A network error that says the endpoint could not be reached at all.
    public static func unreachable(_ message: String) -> UploadError {
        var error = UploadError(.network, message)
        error.unreachable = true
        return error
    }

    /// Whether waiting and trying again may succeed.
    public var isRetryable: Bool {
        switch code {
        case .network, .offsetConflict, .checksumMismatch: return true
        // 409: a request a server is still handling (a form's earlier try, by its Idempotency-Key;
        // S3's "conflicting operation in progress"). tus's offset conflict is its own code.
        case .server: return status.map { $0 >= 500 || $0 == 408 || $0 == 409 || $0 == 429 } ?? true
        case .gone, .unauthorized, .sourceUnreadable, .sourceChanged, .journal, .cancelled, .badTarget, .tooLarge,
            .busy, .certificate, .badAnswer:
            return false
        }
    }

    /// What to do, in words that fit an app as well as a command line (the `pickup` tool
    /// names its own commands instead).
    public var hint: String {
        switch code {
        case .network: return "Check the connection; resuming goes on from the last byte the server confirmed."
        case .server where !isRetryable:
            return "The server refused the request (a client error): check the target and the headers; "
                + "resuming sends the same request."
        case .server where status == 409:
            return "The server is still handling an earlier try of this upload; resuming sends the same upload again."
        case .server: return "The server failed; try again later: resuming goes on from the last confirmed byte."
        case .gone: return "The server forgot the upload; it starts over."
        case .offsetConflict: return "Pickup asks the server where to go on."
        case .checksumMismatch: return "Pickup sends the chunk again."
        case .unauthorized: return "Check the credentials; Pickup does not retry with wrong ones."
        case .sourceUnreadable:
            if outsideSharedContainer {
                return "Import the file into the App Group's library first (an ImportSession on "
                    + "PickupStorage.appGroup(_:)'s library), then send the stored copy."
            }
            return "Check that the file is still there and readable."
        case .sourceChanged:
            return "The file changed after its upload began: send it again as a new upload, and cancel this one."
        case .journal:
            if notAJournal {
                return "Name the journal's own file, or a new path to start one: the one named was left as it is."
            }
            return "Check the journal's disk and permissions, as the message says."
        case .cancelled: return "Resume it to go on from the last byte the server confirmed."
        case .badTarget:
            if targetProblem == .otherPlace {
                return "Give the upload's own endpoint again, with its query; or start a new upload at the other place."
            }
            return "Check where the upload goes: a tus endpoint, an S3 bucket and key, or a web form's URL."
        case .tooLarge:
            if targetProblem == .requestTooLarge {
                return "Send smaller chunks (UploadOptions.chunkSize), then resume."
            }
            return "Send a smaller export of the file, or ask for a larger limit."
        case .busy: return "Wait for the other process to finish (or stop it), then resume."
        case .badAnswer: return "The server is misbehaving or is not the server you meant; check the URL."
        case .certificate:
            return "Check the server's address; for a private certificate authority, trust it (SSL_CERT_FILE)."
        }
    }

    /// What happened, with the HTTP status when there was one (no hint: see `hint`).
    public var description: String {
        message + (status.map { " (HTTP \($0))" } ?? "")
    }
}

/// A URL as it may appear in logs and errors: no user, password, query or fragment.
package func redacted(_ url: String) -> String {
    var text = url
    if let query = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<query]) }
    if let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@"),
        !text[scheme.upperBound..<at].contains("/")
    {
        text = String(text[..<scheme.upperBound]) + String(text[text.index(after: at)...])
    }
    return text
}
