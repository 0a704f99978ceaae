import Foundation
import Pickup
import PickupUpload

/// `pickup upload`: sends files to a server, resumably.
struct UploadCommand: Command {
    static let spec = CommandSpec(
        name: "upload",
        abstract:
            "Upload photos and videos (tus, S3 multipart); resumable after lost connections and killed processes.",
        synopsis:
            "FILE... --to tus+http(s)://HOST/PATH | s3://BUCKET/PREFIX --endpoint URL [--credentials FILE] [--parallel N] [--chunk-size MB] [--journal PATH] [--json]",
        arguments: [("FILE", "Files to upload, streamed from disk a chunk at a time.")],
        options: [
            .init(
                names: ["--to"], value: "TARGET",
                help:
                    "A tus endpoint (tus+https://uploads.example.com/files) or an S3 bucket and key prefix (s3://photos/2026/)."
            ),
            .init(
                names: ["--endpoint"], value: "URL",
                help: "The S3-compatible store, e.g. https://s3.eu-west-1.amazonaws.com."),
            .init(
                names: ["--credentials"], value: "FILE",
                help:
                    "Read AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION from FILE (KEY=value lines), not the environment."
            ),
            .init(names: ["--parallel"], value: "N", help: "Files uploaded at once (default 2)."),
            .init(
                names: ["--chunk-size"], value: "MB",
                help: "Megabytes a request or S3 part (default 8; S3 parts at least 5)."),
            .init(
                names: ["--journal"], value: "PATH",
                help: "The upload journal (default ~/.local/state/pickup/uploads.sqlite, or $PICKUP_STATE_DIR)."),
            .init(names: ["--json"], value: nil, help: "Print one JSON object a line: each upload's final record."),
        ],
        discussion: """
            Each upload is recorded in the journal with the bytes the server has confirmed. A dropped
            connection is retried with exponential backoff and jitter, asking the server where to go on;
            an upload the server forgot starts over; a killed process is resumed with
            'pickup uploads resume'. S3 uploads are multipart: parts planned for the file (5 MiB at least,
            10,000 at most), each part's SHA-256 signed so the store checks it, ListParts to resume.
            Credentials and signed URLs never reach the journal or the output. Form POST targets are not
            built yet.

            Exit status: 0 when every file arrived, 1 when any did not, 2 for a usage mistake, 130 when
            interrupted (the uploads stay resumable).
            """,
        examples: [
            "pickup upload IMG_0001.MOV --to tus+https://uploads.example.com/files",
            "pickup upload Library/*.HEIC --to tus+http://127.0.0.1:1080/files/ --parallel 4 --json",
            "AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... pickup upload clip.mp4 --to s3://photos/2026/ --endpoint http://127.0.0.1:8333",
        ])

    let files: [String]
    let target: UploadTarget
    let endpoint: URL?
    let credentials: S3Credentials?
    let parallel: Int
    let chunkSize: Int
    let journalPath: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.positionals.isEmpty else {
            throw UsageError(message: "name at least one file to upload", command: "upload")
        }
        guard let text = arguments.value("--to") else {
            throw UsageError(message: "say where to upload with --to tus+http(s)://HOST/PATH", command: "upload")
        }
        do {
            target = try UploadTarget(parsing: text)
        } catch {
            throw UsageError(message: error.message, command: "upload")
        }
        endpoint = arguments.value("--endpoint").flatMap { URL(string: $0) }
        credentials = try UploadCommand.credentials(file: arguments.value("--credentials"))
        if case .s3 = target {
            guard endpoint?.host != nil else {
                throw UsageError(message: "an S3 target needs --endpoint URL (the store's address)", command: "upload")
            }
            guard credentials != nil else {
                throw UsageError(
                    message:
                        "no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or pass --credentials FILE",
                    command: "upload")
            }
        }
        guard let parallel = Int(arguments.value("--parallel") ?? "2"), (1...32).contains(parallel) else {
            throw UsageError(message: "--parallel takes a whole number from 1 to 32", command: "upload")
        }
        guard let megabytes = Double(arguments.value("--chunk-size") ?? "8"), megabytes >= 0.0625, megabytes <= 1024
        else {
            throw UsageError(message: "--chunk-size takes megabytes from 0.0625 to 1024", command: "upload")
        }
        files = arguments.positionals
        self.parallel = parallel
        chunkSize = Int(megabytes * 1_048_576)
        journalPath = arguments.value("--journal") ?? UploadJournal.defaultPath
        json = arguments.has("--json")
    }

    func run() async -> Int32 {
        let uploader: Uploader
        do {
            uploader = Uploader(
                journal: try UploadJournal(path: journalPath), options: UploadOptions(chunkSize: chunkSize))
        } catch {
            Console.error("pickup upload: " + error.description)
            return ExitStatus.someFailed
        }
        let types = await ParallelProbe.probe(files).map { result in
            (try? result.get())?.container.mimeType ?? "application/octet-stream"
        }
        let target = self.target
        let endpoint = self.endpoint
        let credentials = self.credentials
        let work = Task {
            await UploadRunner.run(count: files.count, parallel: parallel, json: json) { index, events in
                switch target {
                case .tus(let url):
                    return await uploader.upload(path: files[index], to: url, type: types[index], events: events)
                case .s3(let bucket, let prefix):
                    let name = (files[index] as NSString).lastPathComponent
                    let key = prefix.isEmpty || prefix.hasSuffix("/") ? prefix + name : prefix + "/" + name
                    guard let endpoint, let credentials else { return UploadRecord.missing(id: "-") }
                    return await uploader.upload(
                        path: files[index], to: S3Location(endpoint: endpoint, bucket: bucket, key: key),
                        credentials: credentials, type: types[index], events: events)
                }
            }
        }
        let interrupted = InterruptWatch { work.cancel() }
        let records = await work.value
        interrupted.stop()
        if interrupted.fired { return 130 }
        return records.allSatisfy { $0.state == .done } ? ExitStatus.success : ExitStatus.someFailed
    }
}

extension UploadCommand {
    /// S3 credentials from a file of `KEY=value` lines, else from the environment.
    static func credentials(file: String?) throws(UsageError) -> S3Credentials? {
        guard let file else { return S3Credentials.fromEnvironment() }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw UsageError(message: "cannot read the credentials file \(file)", command: "upload")
        }
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, !parts[0].hasPrefix("#") { values[parts[0]] = parts[1] }
        }
        guard let credentials = S3Credentials.fromEnvironment(values) else {
            throw UsageError(
                message: "\(file) lacks AWS_ACCESS_KEY_ID or AWS_SECRET_ACCESS_KEY (KEY=value lines)", command: "upload"
            )
        }
        return credentials
    }
}

/// Runs uploads with bounded concurrency and reports them: a line per event
/// on standard error (or nothing with --json), one line per final record on
/// standard output, in the order given.
enum UploadRunner {
    static func run(
        count: Int, parallel: Int, json: Bool,
        upload: @escaping @Sendable (Int, AsyncStream<UploadEvent>.Continuation) async -> UploadRecord
    ) async -> [UploadRecord] {
        let (events, continuation) = AsyncStream<UploadEvent>.makeStream()
        let reporter = Task {
            for await event in events where !json { report(event) }
        }
        var records = [UploadRecord?](repeating: nil, count: count)
        await withTaskGroup(of: (Int, UploadRecord).self) { group in
            var next = 0
            while next < min(parallel, count) {
                let index = next
                group.addTask { (index, await upload(index, continuation)) }
                next += 1
            }
            for await (index, record) in group {
                records[index] = record
                if next < count {
                    let index = next
                    group.addTask { (index, await upload(index, continuation)) }
                    next += 1
                }
            }
        }
        continuation.finish()
        await reporter.value
        let final = records.compactMap { $0 }
        Console.raw(final.map { json ? line($0) : summary($0) }.joined())
        return final
    }

    static func report(_ event: UploadEvent) {
        switch event {
        case .started(let id, let path, let size):
            Console.error("\(id) uploading \(path) (\(Text.byteCount(size)))")
        case .progress(let id, let confirmed, let size, let rate):
            let percent = size > 0 ? Int(Double(confirmed) * 100 / Double(size)) : 100
            let left = rate > 0 ? Double(size - confirmed) / rate : 0
            Console.error(
                "\(id) \(percent)% \(Text.byteCount(confirmed)) of \(Text.byteCount(size)), "
                    + "\(Text.byteCount(Int64(rate)))/s, \(DurationLabel.string(seconds: left)) left")
        case .retrying(let id, let error, let delay):
            Console.error("\(id) retrying in \(Text.fixed(delay, 1)) s: \(error.message)")
        case .finished: break
        }
    }

    static func summary(_ record: UploadRecord) -> String {
        var text =
            "\(record.id) \(record.state.rawValue) \(record.path) \(Text.byteCount(record.offset))/\(Text.byteCount(record.size))"
        if let error = record.error { text += ": " + error }
        return text + "\n"
    }

    static func line(_ record: UploadRecord) -> String {
        var object = JSONObject()
        object.add("id", record.id)
        object.add("path", record.path)
        object.add("state", record.state.rawValue)
        object.add("confirmed", record.offset)
        object.add("size", record.size)
        object.add("target", record.target)
        if let remote = record.remote { object.add("remote", redacted(remote)) }
        if let error = record.error { object.add("error", error) }
        return object.text + "\n"
    }
}
