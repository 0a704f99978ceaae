import Foundation

/// Starts the test servers of `Tests/Servers` (Python, from the project's
/// `.build/python` made by `scripts/setup.sh`) on 127.0.0.1 and waits until
/// they answer `GET /health`.
public enum LocalServer {
    static let projectRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// Runs `Tests/Servers/<script>` with `arguments`; returns the process once
    /// http(s)://127.0.0.1:`port`/health answers 200.
    public static func launch(script: String, arguments: [String], port: Int, https: Bool = false) throws -> Process {
        let python = projectRoot.appendingPathComponent(".build/python/bin/python").path
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: FileManager.default.isExecutableFile(atPath: python) ? python : "/usr/bin/python3")
        process.arguments = [projectRoot.appendingPathComponent("Tests/Servers/" + script).path] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<300 {
            if answers(port: port, https: https) { return process }
            usleep(100_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw FixtureError(message: "\(script) did not start on port \(port); run scripts/setup.sh")
    }

    static func answers(port: Int, https: Bool) -> Bool {
        let scheme = https ? "https" : "http"
        let result = try? Shell.run("curl -s -k -o /dev/null -w '%{http_code}' \(scheme)://127.0.0.1:\(port)/health")
        return result?.outputText == "200"
    }
}

/// A plain upload form (Tests/Servers/form_server.py) on 127.0.0.1: files posted
/// to `url` land in `folder` under their names.
public final class FormServer: Sendable {
    public let port: Int
    public let folder: String
    public let url: URL
    private let process: Process

    /// `fail`: answer 503 to that many uploads first; `token`: want `Authorization: Bearer token`;
    /// `loseReplies`: store that many uploads first and close the connection without answering;
    /// `conflicts`: answer 409 to that many uploads with a key first (an earlier try still being
    /// handled); `ignoreKeys`: store every POST, where by default a repeated `Idempotency-Key`
    /// gets the first answer and stores nothing (draft-ietf-httpapi-idempotency-key-header).
    public init(
        fail: Int = 0, token: String? = nil, loseReplies: Int = 0, conflicts: Int = 0, ignoreKeys: Bool = false
    ) throws {
        folder = Temporary.path("form")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = FreePort.pick(in: 40_000...49_999)
        guard let url = URL(string: "http://127.0.0.1:\(port)/upload") else {
            throw FixtureError(message: "no URL for port \(port)")
        }
        self.url = url
        var arguments = ["--port", String(port), "--dir", folder, "--fail", String(fail)]
        if let token { arguments += ["--token", token] }
        arguments += ["--lose-replies", String(loseReplies), "--conflicts", String(conflicts)]
        if ignoreKeys { arguments.append("--ignore-keys") }
        process = try LocalServer.launch(script: "form_server.py", arguments: arguments, port: port)
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The bytes stored under `name`.
    public func stored(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
    }

    /// Each upload the server stored, in order: the `Idempotency-Key` it came with (nil for
    /// none), the multipart boundary and the file's name.
    public func stores() -> [(key: String?, boundary: String, name: String)] {
        let log = (try? String(contentsOfFile: folder + "/.stores.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            return (parts[0] == "-" ? nil : parts[0], parts.count > 1 ? parts[1] : "", parts.count > 2 ? parts[2] : "")
        }
    }

    /// The other fields that came with the file stored as `name`, and the name of its own field.
    public func fields(of name: String) throws -> (fields: [String: String], fileField: String) {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name + ".fields.json"))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let fields = object["fields"] as? [String: String], let field = object["fileField"] as? String
        else { throw FixtureError(message: "the form server kept no fields for \(name)") }
        return (fields, field)
    }
}
