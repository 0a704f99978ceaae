import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real tus 1.0 server on 127.0.0.1, started for a test and stopped when it
/// ends: tuspyserver on uvicorn (Tests/Servers/tus_server.py), or tuswsgi, which
/// has the checksum extension (Tests/Servers/tus_checksum_server.py). Uploads
/// land in `folder`, one file per upload named by its id. `scripts/setup.sh`
/// installs both into `.build/python`.
public final class TusServer: @unchecked Sendable {
    // @unchecked: `process` is replaced only by start/stop, which tests call from one task at a time.
    public let port: Int
    public let folder: String
    public let kind: Kind
    private var process: Process?

    public enum Kind: Sendable {
        /// tuspyserver: creation, termination, expiration; no checksums.
        case tuspyserver
        /// tuswsgi: creation, termination, checksum (sha1, 460), concatenation.
        case tuswsgi
    }

    /// The tus endpoint, `http://127.0.0.1:PORT/files` (https with a certificate).
    public let endpoint: URL
    /// With it, the server speaks https only (tuspyserver).
    public let certificate: TestCertificate?

    public init(_ kind: Kind = .tuspyserver, certificate: TestCertificate? = nil) throws {
        self.kind = kind
        self.certificate = certificate
        folder = Temporary.path("tus")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = FreePort.pick(in: 40_000...49_999)
        guard let endpoint = URL(string: "\(certificate == nil ? "http" : "https")://127.0.0.1:\(port)/files") else {
            throw FixtureError(message: "no URL for port \(port)")
        }
        self.endpoint = endpoint
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Starts the server (again, after `stop`: uploads on disk are kept) and waits until it answers.
    public func start() throws {
        var arguments = ["--port", String(port), "--dir", folder]
        if let certificate { arguments += ["--certificate", certificate.certificate, "--key", certificate.key] }
        process = try LocalServer.launch(
            script: kind == .tuspyserver ? "tus_server.py" : "tus_checksum_server.py", arguments: arguments, port: port,
            https: certificate != nil)
    }

    /// Stops the server at once, as a crash would.
    ///
    /// tuspyserver appends a chunk's bytes to the file before it saves the new
    /// offset, so killing it in the middle of a request can leave bytes past the
    /// offset it reports, which no client can see. Tests kill it between requests.
    public func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// The bytes the server stored for an upload URL.
    public func stored(_ upload: String) throws -> Data {
        let id = upload.split(separator: "/").last.map(String.init) ?? ""
        return try Data(contentsOf: URL(fileURLWithPath: folder + "/" + id))
    }

    /// Forgets an upload, as a server does when it expires.
    public func forget(_ upload: String) {
        let id = upload.split(separator: "/").last.map(String.init) ?? ""
        try? FileManager.default.removeItem(atPath: folder + "/" + id)
        try? FileManager.default.removeItem(atPath: folder + "/" + id + ".info")
    }

}
