import Foundation

/// `Tests/Servers/hostile_server.py` on 127.0.0.x: a server that misbehaves on purpose, one
/// behaviour per first path segment, over http or https, logging every request it sees.
public final class HostileServer: Sendable {
    public let port: Int
    public let host: String
    public let https: Bool
    public let log: String
    private let process: Process

    /// `certificate`: serve https with it; `other`: the URL redirects and Locations point to.
    public init(
        host: String = "127.0.0.1", certificate: TestCertificate? = nil, other: String = "http://127.0.0.2:9"
    )
        throws
    {
        self.host = host
        https = certificate != nil
        port = FreePort.pick(in: 50_000...59_999)
        log = Temporary.path("hostile", suffix: ".log")
        let python = LocalServer.projectRoot.appendingPathComponent(".build/python/bin/python").path
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: FileManager.default.isExecutableFile(atPath: python) ? python : "/usr/bin/python3")
        var arguments = [
            LocalServer.projectRoot.appendingPathComponent("Tests/Servers/hostile_server.py").path, "--port",
            String(port), "--host", host, "--log", log, "--other", other,
        ]
        if let certificate { arguments += ["--cert", certificate.certificate, "--key", certificate.key] }
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let ready = output.fileHandleForReading.availableData
        guard String(decoding: ready, as: UTF8.self).hasPrefix("ready") else {
            throw FixtureError(message: "hostile_server.py did not start; run scripts/setup.sh")
        }
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: log)
    }

    public var origin: String { "\(https ? "https" : "http")://\(host):\(port)" }

    public func url(_ behaviour: String, _ rest: String = "files") -> URL {
        URL(string: "\(origin)/\(behaviour)/\(rest)") ?? URL(fileURLWithPath: "/")
    }

    /// The requests it saw, in order: method, path, headers (names lowercased), body size.
    public func requests() -> [[String: Any]] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }
}

/// A self-signed certificate for 127.0.0.1 and 127.0.0.2 (or the subject alternative names
/// given), made with openssl at test time.
public struct TestCertificate: Sendable {
    public let certificate: String
    public let key: String

    public static func make(names: String = "IP:127.0.0.1,IP:127.0.0.2") throws -> TestCertificate {
        let folder = try Temporary.folder("tls")
        let made = try Shell.run(
            "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 "
                + "-addext subjectAltName=$NAMES -keyout \"$F/key.pem\" -out \"$F/cert.pem\"",
            environment: ["F": folder, "NAMES": names])
        guard made.status == 0 else { throw FixtureError(message: "openssl: \(made.errorText)") }
        return TestCertificate(certificate: folder + "/cert.pem", key: folder + "/key.pem")
    }
}
