import ArgumentParser
import Foundation
import Pickup
import PickupCommandLine
import PickupHTTP
import PickupImport
import PickupStore
import PickupUpload

/// `pickup upload`: sends files to a server, resumably.
struct UploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract:
            "Upload photos and videos (tus, S3 multipart, form POST); resumable after lost connections and killed processes.",
        discussion: """
            Each upload is recorded in the journal with the bytes the server has confirmed. A dropped \
            connection is retried with exponential backoff and jitter, asking the server where to go on; \
            an upload the server forgot starts over; a killed process is resumed with \
            'pickup uploads resume'. S3 uploads are multipart: parts planned for the file (5 MiB at least, \
            10,000 at most), each part's SHA-256 signed so the store checks it, ListParts to resume. \
            A form upload is one multipart/form-data POST streamed from the file; a failed try sends \
            it again whole. PICKUP_UPLOAD_AUTHORIZATION, when set, is sent as the Authorization header \
            to tus and form servers, as are the lines of PICKUP_UPLOAD_HEADERS ('NAME: VALUE' a line) \
            and -H headers; -H @FILE reads such lines from a file, which keeps a secret off the command \
            line (other users can read it). A header with a control character (a token file's CR, \
            say) is refused before anything is sent, naming the header, never its value. \
            S3 credentials come from the environment, else \
            from ~/.aws/credentials and ~/.aws/config (AWS_PROFILE or --profile), as the AWS CLI finds \
            them. Credentials and signed URLs never reach the journal or the output. \
            A file whose bytes (size and SHA-256) the journal has already sent to the same destination \
            is not sent again ("already there"; --force sends it). Every retry is shown as it happens. \
            On a terminal, a progress bar shows the total; Ctrl-C pauses every upload (resumable).

            Exit status: 0 when every file arrived, 1 when any did not, 2 for a usage mistake, 130 when \
            interrupted (the uploads stay resumable).
            """
                + Examples.text([
                    "pickup upload IMG_0001.MOV --to tus+https://uploads.example.com/files -H @auth-header.txt",
                    "pickup upload -r DCIM --to s3://photos/2026/ --profile backup --part-concurrency 8",
                    "pickup upload Library/*.HEIC --to tus+http://127.0.0.1:1080/files/ --parallel 4 --json",
                    "AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... pickup upload clip.mp4 --to s3://photos/2026/ --endpoint http://127.0.0.1:8333",
                    "pickup upload 3f9a1c0b2d4e --library ~/Pictures/Picked --to https://example.com/upload --form-field album=trip",
                ]))

    @Argument(
        help: ArgumentHelp(
            "FILE: Files to upload, streamed from disk. DIR: With --recursive: every file below the folder (S3 keys keep the path inside it). ITEM: With --library: the id of an imported item (a Live Photo sends its still and its movie).",
            valueName: "FILE"))
    var arguments: [String] = []

    @Option(
        name: [.customLong("to")],
        help: ArgumentHelp(
            "A tus endpoint (tus+https://uploads.example.com/files), an S3 bucket and key prefix (s3://photos/2026/), or a web form's URL (https://example.com/upload).",
            valueName: "TARGET"))
    var to: String?

    @Flag(
        name: [.customLong("recursive"), .customShort("r")],
        help: "Upload what is in the folders named, and below them (hidden files skipped).")
    var recursive = false

    @Option(
        name: [.customLong("header"), .customShort("H")],
        help: ArgumentHelp(
            "A request header for tus and form servers (an Authorization, say); repeat for more. Never stored. "
                + "@FILE: the 'NAME: VALUE' lines of FILE, off the command line that other users can see.",
            valueName: "'NAME: VALUE'|@FILE"))
    var header: [String] = []

    @Option(
        name: [.customLong("library")],
        help: ArgumentHelp(
            "A library made by 'pickup import': arguments that are not files are its item ids.", valueName: "DIR"))
    var library: String?

    @Option(
        name: [.customLong("endpoint")],
        help: ArgumentHelp(
            "The S3-compatible store, e.g. http://127.0.0.1:8333 (default: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the profile's endpoint_url, else AWS in the region).",
            valueName: "URL"))
    var endpoint: String?

    @Option(
        name: [.customLong("profile")],
        help: ArgumentHelp(
            "The profile of ~/.aws/credentials and ~/.aws/config to read (default AWS_PROFILE, else default).",
            valueName: "NAME"))
    var profile: String?

    @Option(
        name: [.customLong("credentials")],
        help: ArgumentHelp(
            "Read AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION from FILE (KEY=value lines), not the environment or ~/.aws.",
            valueName: "FILE"))
    var credentials: String?

    @Option(
        name: [.customLong("export")],
        help: ArgumentHelp(
            "Export videos first (as 'pickup export --preset'); photos go as they are.", valueName: "PRESET"))
    var export: String?

    @Flag(
        name: [.customLong("strip-location")],
        help: ArgumentHelp(
            "Send a copy whose metadata keeps only the date and orientation, in every format (SECURITY.md): "
                + "videos re-muxed, photos rewritten; a file that cannot be cleaned is held back, not sent.")
    )
    var stripLocation = false

    @Option(
        name: [.customLong("field")],
        help: ArgumentHelp("Form uploads: the field that carries the file (default file).", valueName: "NAME"))
    var field: String?

    @Option(
        name: [.customLong("form-field")],
        help: ArgumentHelp(
            "Form uploads: another field sent before the file; repeat for more.", valueName: "NAME=VALUE"))
    var formField: [String] = []

    @Option(
        name: [.customLong("key")],
        help: ArgumentHelp(
            "S3: each object's key after the prefix (default {relpath}); also {name}, {stem}, {ext}, {date}, {id}, {sha256}.",
            valueName: "TEMPLATE"))
    var key: String?

    @Option(name: [.customLong("parallel")], help: ArgumentHelp("Files uploaded at once (default 2).", valueName: "N"))
    var parallel: String?

    @Option(
        name: [.customLong("part-concurrency")],
        help: ArgumentHelp(
            "S3: parts of one file in flight at once, a new one as soon as one arrives, as aws s3 cp does (default 4).",
            valueName: "N"))
    var partConcurrency: String?

    @Option(
        name: [.customLong("multipart-threshold")],
        help: ArgumentHelp(
            "S3: files smaller than this many megabytes go in one PUT, larger ones in parts (default 8, as aws s3 cp; 0: always in parts).",
            valueName: "MB"))
    var multipartThreshold: String?

    @Option(
        name: [.customLong("chunk-size")],
        help: ArgumentHelp("Megabytes a request or S3 part (default 8; S3 parts at least 5).", valueName: "MB"))
    var chunkSize: String?

    @Option(
        name: [.customLong("retries")],
        help: ArgumentHelp(
            "Failures in a row, without the server gaining bytes, before an upload fails (default 7).", valueName: "N"))
    var retries: String?

    @Option(
        name: [.customLong("timeout")],
        help: ArgumentHelp(
            "The longest a request may go without moving before it is retried (default 20; a link that was moving is judged by its own pace, within seconds).",
            valueName: "SECONDS"))
    var timeout: String?

    @Flag(
        name: [.customLong("force")],
        help: "Send a file even when the journal says the same bytes are already at that destination.")
    var force = false

    @OptionGroup var shared: JournalOptions

    @OptionGroup var progress: ProgressOptions

    func validate() throws {
        _ = try UploadJob(self)
    }

    func run() async throws {
        try finish(await UploadJob(self).run())
    }
}

/// What the command does, from its checked arguments.
struct UploadJob {
    let files: [String]
    let target: UploadTarget
    let endpoint: URL?
    let credentials: S3Credentials?
    let parallel: Int
    let keyTemplate: RemoteKey
    let caFile: String?
    let chunkSize: Int
    let multipartThreshold: Int64
    let journalPath: String
    let json: Bool
    let library: String?
    let preset: ExportPreset?
    let stripLocation: Bool
    let field: String
    let formFields: [FormField]
    let headers: [String: String]
    let recursive: Bool
    let retries: Int
    let timeout: Double
    let partConcurrency: Int
    let force: Bool
    let progress: ProgressOptions

    init(_ command: UploadCommand) throws(ValidationError) {
        guard !command.arguments.isEmpty else {
            throw ValidationError("name at least one file to upload")
        }
        guard let text = command.to else {
            throw ValidationError("say where to upload with --to tus+http(s)://HOST/PATH")
        }
        do {
            target = try UploadTarget(parsing: text)
        } catch {
            throw ValidationError(error.message)
        }
        let aws = AWSConfiguration.load(profile: command.profile)
        if let text = command.endpoint {
            guard let url = URL(string: text), url.host != nil, ["http", "https"].contains(url.scheme ?? "") else {
                throw ValidationError("--endpoint takes an http(s):// URL, not '\(text)'")
            }
            endpoint = url
        } else {
            // As the AWS CLI: the configured endpoint, else AWS itself in the region (a region
            // name the AWS CLI refuses is not pasted into a host name).
            endpoint = aws.endpoint ?? AWSConfiguration.awsEndpoint(region: aws.region)
            if endpoint == nil, case .s3 = target {
                throw ValidationError(
                    "the region (AWS_REGION, AWS_DEFAULT_REGION or the \(aws.profile) profile's region) is not a "
                        + "region name: letters, digits and hyphens, as the AWS CLI takes them (us-east-1, say); "
                        + "set a valid one, or give the store with --endpoint")
            }
        }
        if let file = command.credentials {
            credentials = try UploadJob.credentials(file: file)
        } else {
            credentials = aws.credentials
        }
        if case .s3 = target, credentials == nil {
            throw ValidationError(
                "no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, put them in the "
                    + "\(aws.profile) profile of ~/.aws/credentials (AWS_PROFILE or --profile picks another), "
                    + "or pass --credentials FILE")
        }
        guard let parallel = Int(command.parallel ?? "2"), (1...32).contains(parallel) else {
            throw ValidationError("--parallel takes a whole number from 1 to 32")
        }
        guard let megabytes = Double(command.chunkSize ?? "8"), megabytes >= 0.0625, megabytes <= 1024
        else {
            throw ValidationError("--chunk-size takes megabytes from 0.0625 to 1024")
        }
        files = command.arguments
        self.parallel = parallel
        switch RemoteKey.parse(command.key ?? "{relpath}") {
        case .success(let template): keyTemplate = template
        case .failure(let error): throw ValidationError(error.message)
        }
        chunkSize = Int(megabytes * 1_048_576)
        guard let threshold = Double(command.multipartThreshold ?? "8"), threshold >= 0, threshold <= 5_120 else {
            throw ValidationError("--multipart-threshold takes megabytes from 0 to 5120 (S3's largest PUT: 5 GiB)")
        }
        multipartThreshold = Int64(threshold * 1_048_576)
        journalPath = command.shared.journal ?? UploadJournal.defaultPath
        caFile = command.shared.caFile
        json = command.shared.json
        library = command.library
        if let name = command.export {
            guard let preset = ExportPreset(rawValue: name) else {
                throw ValidationError(
                    "no preset '\(name)'; choose one of "
                        + ExportPreset.allCases.map(\.rawValue).joined(separator: ", "))
            }
            self.preset = preset
        } else {
            preset = nil
        }
        stripLocation = command.stripLocation
        field = command.field ?? "file"
        var formFields: [FormField] = []
        for text in command.formField {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw ValidationError("--form-field takes NAME=VALUE, not '\(text)'")
            }
            formFields.append(FormField(name: parts[0], value: parts[1]))
        }
        self.formFields = formFields
        let headers = try UploadHeaders.headers(flags: command.header)
        self.headers = headers
        recursive = command.recursive
        force = command.force
        progress = command.progress
        guard let retries = Int(command.retries ?? "7"), (0...100).contains(retries) else {
            throw ValidationError("--retries takes a whole number from 0 to 100")
        }
        self.retries = retries
        guard let timeout = Double(command.timeout ?? "20"), timeout >= 1, timeout <= 3600 else {
            throw ValidationError("--timeout takes seconds from 1 to 3600")
        }
        self.timeout = timeout
        guard let parts = Int(command.partConcurrency ?? "4"), (1...64).contains(parts) else {
            throw ValidationError("--part-concurrency takes a whole number from 1 to 64")
        }
        partConcurrency = parts
    }

    func run() async -> Int32 {
        // AsyncHTTPClient sends the requests; its connections close before the program ends.
        let transport = AsyncHTTPTransport(caFile: caFile)
        let status = await run(transport: transport)
        await transport.shutdown()
        return status
    }

    private func run(transport: AsyncHTTPTransport) async -> Int32 {
        let uploader: Uploader
        var options = UploadOptions(
            chunkSize: chunkSize, maxAttempts: retries + 1, stallTimeout: timeout, headers: headers,
            transport: transport, partConcurrency: partConcurrency)
        options.multipartThreshold = multipartThreshold
        do {
            uploader = Uploader(
                journal: try UploadJournal(path: journalPath), options: options,
                s3Credentials: credentials)
        } catch {
            Console.error(Text.clean("pickup upload: " + UploadHints.line(error)))
            return ExitStatus.someFailed
        }
        let resolved: [ResolvedFile]
        var failedEarly = false
        do {
            (resolved, failedEarly) = try await resolvedPaths()
        } catch {
            Console.error("pickup upload: " + error.message + " (see 'pickup upload --help')")
            return ExitStatus.usage
        }
        var digests = FileDigests()
        for file in resolved { if let sha256 = file.sha256 { digests.note(sha256, of: file.path) } }
        let paths = resolved.map(\.path)
        let expected = Dictionary(
            resolved.compactMap { file in file.expected.map { (file.path, $0) } },
            uniquingKeysWith: { first, _ in first })
        let probes = await ParallelProbe.probe(paths)
        var prepared = probes.enumerated().map { index, result in
            (path: paths[index], type: (try? result.get())?.container.mimeType ?? "application/octet-stream")
        }
        var facts = resolved.enumerated().map { index, file in
            RemoteKey.Facts(
                relativePath: file.relativePath,
                taken: (try? probes[index].get())?.creationDate, itemID: file.item)
        }
        var sources = paths
        if preset != nil || stripLocation {
            let files = prepared
            let exporting = Task { [self] in await exportForUpload(files, expected: expected) }
            let interrupted = InterruptWatch { exporting.cancel() }
            let exported = await exporting.value
            interrupted.stop()
            if interrupted.fired { return 130 }
            // An export keeps its source's name (a video's extension becomes .mp4).
            let kept = zip(exported, facts).compactMap {
                file, fact -> ((path: String, type: String), RemoteKey.Facts)? in
                guard let file else { return nil }
                var named = fact
                let name = (file.path as NSString).lastPathComponent
                named.relativePath = ((fact.relativePath as NSString).deletingLastPathComponent as NSString)
                    .appendingPathComponent(name)
                return (file, named)
            }
            prepared = kept.map(\.0)
            facts = kept.map(\.1)
            sources = zip(exported, paths).compactMap { $0 == nil ? nil : $1 }
            failedEarly = failedEarly || exported.contains { $0 == nil }
        }
        // Two sources never land on one key: refused before anything is sent.
        var keys: [String?] = Array(repeating: nil, count: prepared.count)
        if case .s3(_, let prefix) = target {
            for (index, file) in prepared.enumerated() {
                var fact = facts[index]
                if keyTemplate.needsSHA256 { fact.sha256 = digests.sha256(of: file.path) }
                keys[index] = UploadJob.s3Key(prefix: prefix, keyTemplate.render(fact))
            }
            let collisions = RemoteKey.collisions(
                zip(keys, sources).map { (key: $0 ?? "", source: $1) })
            if let first = collisions.first {
                Console.error(
                    "pickup upload: \(first.sources.joined(separator: " and ")) would all be stored as \(first.key), "
                        + "one over the other; nothing was sent. Name them apart with --key (for example "
                        + "--key '{date}/{name}' or --key '{id}-{name}')"
                        + (collisions.count > 1 ? " (\(collisions.count - 1) more keys collide)" : ""))
                return ExitStatus.usage
            }
        }
        let made = Dictionary(
            zip(prepared.map(\.path), sources).filter { $0 != $1 }, uniquingKeysWith: { first, _ in first })
        let began = Date()
        // An endpoint that cannot be reached stops the run after one upload's retries, not each file's.
        let queue = UploadQueue(uploader: uploader, concurrency: parallel, stopsWhenUnreachable: true)
        var alreadyThere: [UploadRecord] = []
        var queued: [String] = []
        let destinations = prepared.enumerated().map { index, file in destination(path: file.path, key: keys[index]) }
        let sizes = prepared.map { FileStatus(path: $0.path)?.size }
        // The whole run's "already there" candidates in one journal call: finished uploads of
        // each file's size to its destination. Only a file with one is hashed.
        let candidates =
            force
            ? []
            : ((try? await uploader.journal.finishedUploads(
                to: zip(destinations, sizes).map { ($0, $1 ?? -1) })) ?? [])
        for (index, file) in prepared.enumerated() {
            let destination = destinations[index]
            if index < candidates.count, !candidates[index].isEmpty, let sha256 = digests.sha256(of: file.path),
                let earlier = candidates[index][sha256]
            {
                alreadyThere.append(earlier)
                Console.raw(
                    json
                        ? UploadRunner.line(earlier, source: made[file.path], status: "alreadyThere", path: file.path)
                        : "\(earlier.id) already there \(file.path) (sent with the same bytes; --force sends it again)\n"
                )
                continue
            }
            await queue.add(.upload(path: file.path, to: destination, type: file.type, expected: expected[file.path]))
            queued.append(file.path)
        }
        // Each finished upload's SHA-256 is recorded so that sending the same bytes there
        // again is skipped. The files are hashed beside the uploads (from the page cache, as
        // a rule), not after them: on a fast link hashing afterwards added a fifth to the time.
        let hashing = Task { [queued, digests] in await digests.adding(queued) }
        let work = Task {
            await UploadRunner.run(queue, json: json, progress: progress, sources: made, tries: retries + 1)
        }
        let interrupted = InterruptWatch {
            Task { for item in await queue.all() { await queue.pause(item.id) } }
        }
        let items = await work.value
        interrupted.stop()
        if !interrupted.fired { digests = await hashing.value }
        // One transaction for the run's hashes, not one a file.
        let hashes = items.compactMap { item -> (id: String, sha256: String)? in
            guard item.state == .done, let record = item.record, let sha256 = digests.sha256(of: record.path) else {
                return nil
            }
            return (record.id, sha256)
        }
        try? await uploader.journal.recordSHA256(hashes)
        if !json {
            Console.out(
                UploadRunner.closing(items, alreadyThere: alreadyThere.count, failedEarly: failedEarly, since: began))
        }
        if let error = await queue.stoppedBy, items.contains(where: { $0.state == .paused }) {
            UploadRunner.stopped(error, items: items, json: json)
        }
        if interrupted.fired { return 130 }
        // Exports are kept until their upload is done (a resumed upload needs them), then removed.
        for item in items where item.state == .done {
            if let path = item.record?.path, path.hasPrefix(exportFolder + "/") {
                unlink(path)
                rmdir((path as NSString).deletingLastPathComponent)
            }
        }
        return items.allSatisfy { $0.state == .done } && !failedEarly ? ExitStatus.success : ExitStatus.someFailed
    }

    /// How `--strip-location` rewrites a photo of this type; nil where it cannot.
    static func photoStripper(for type: String) -> (([UInt8]) throws(ProbeError) -> [UInt8])? {
        switch type {
        case "image/jpeg": return JPEGPrivacy.stripped
        case "image/heic", "image/heif", "image/avif": return HEIFPrivacy.stripped
        case "image/png": return PNGPrivacy.stripped
        case "image/webp": return WebPPrivacy.stripped
        case "image/gif": return GIFPrivacy.stripped
        default: return nil
        }
    }

    /// A photo rewritten without its place and camera (orientation and date kept), beside the
    /// journal until uploaded; nil (reported) when it cannot be rewritten.
    func strippedCopy(
        of file: (path: String, type: String), expected: FileIdentity?,
        using strip: ([UInt8]) throws(ProbeError) -> [UInt8]
    ) -> (path: String, type: String)? {
        let name = (file.path as NSString).lastPathComponent
        let folder = exportFolder + "/" + UUID().uuidString.prefix(8)
        let output = folder + "/" + name
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let source = try SourceFile(path: file.path, expected: expected)
            let bytes = [UInt8](try source.read(at: 0, count: Int(source.size)))
            try Data(try strip(bytes)).write(to: URL(fileURLWithPath: output), options: .atomic)
            return (output, file.type)
        } catch {
            notSent(
                file.path, code: "sourceUnreadable", message: "cannot strip its location (\(error)); it is not sent",
                hint: "Send it without --strip-location, or strip it with another tool first.")
            return nil
        }
    }

    /// A file that will not be sent, and why: an error line with --json, a message otherwise.
    func notSent(_ path: String, code: String, message: String, hint: String) {
        if json {
            Console.out(JSONObject.failure(path: path, code: code, message: message, hint: hint).text)
        } else {
            Console.error(Text.clean("pickup upload: \(path): \(message)"))
        }
    }

    /// Where exports wait for their upload: beside the journal, so a resumed upload finds them.
    var exportFolder: String {
        let folder = (journalPath as NSString).deletingLastPathComponent
        return (folder.isEmpty ? "." : folder) + "/exports"
    }

    /// Each video exported with the preset (passthrough when only --strip-location is given);
    /// nil for a file that cannot be sent as asked (reported).
    func exportForUpload(
        _ files: [(path: String, type: String)], expected: [String: FileIdentity]
    ) async -> [(path: String, type: String)?] {
        // Readable by its owner only: what waits there is the user's photos and videos.
        try? FileManager.default.createDirectory(
            atPath: exportFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var result: [(path: String, type: String)?] = []
        for file in files {
            if Task.isCancelled { break }
            guard file.type.hasPrefix("video/") else {
                if stripLocation, let strip = UploadJob.photoStripper(for: file.type) {
                    result.append(strippedCopy(of: file, expected: expected[file.path], using: strip))
                } else if stripLocation {
                    notSent(
                        file.path, code: "sourceUnreadable",
                        message: "--strip-location can rewrite videos and JPEG, HEIC, AVIF, PNG, WebP and GIF photos, "
                            + "not this one (\(file.type)); it is not sent, so its location does not leave the machine",
                        hint: "Send it without --strip-location if its location may go with it.")
                    result.append(nil)
                } else {
                    result.append(file)
                }
                continue
            }
            if let identity = expected[file.path], FileStatus(path: file.path)?.identity != identity {
                notSent(
                    file.path, code: "sourceUnreadable",
                    message: "it is no longer the file found when its folder was read (it was replaced, by a link "
                        + "or another file); it is not sent",
                    hint: "Check what replaced it.")
                result.append(nil)
                continue
            }
            let name = ((file.path as NSString).lastPathComponent as NSString).deletingPathExtension
            let folder = exportFolder + "/" + UUID().uuidString.prefix(8)
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let output = folder + "/\(name).mp4"
            // The export runs in pickup-render, which links FFmpeg.
            var arguments = [
                "export", file.path, "--preset", (preset ?? .passthrough).rawValue, "-o", output, "--json",
            ]
            if stripLocation { arguments.append("--strip-location") }
            let (status, text) = await RenderCommands.run(arguments)
            let lines = text.split(separator: "\n").map(String.init)
            if status == 0, FileManager.default.fileExists(atPath: output) {
                if !json, let plan = lines.first { Console.error(Text.clean("\(file.path): exported \(plan)")) }
                result.append((output, "video/mp4"))
            } else {
                let reason = lines.last ?? "pickup-render did not run"
                notSent(
                    file.path, code: "sourceUnreadable", message: "the export failed: \(reason); it is not sent",
                    hint: "Try 'pickup export' on it alone to see why, or send it without --export.")
                result.append(nil)
            }
        }
        return result
    }

    /// An object's key: the prefix, then `name` (a `/` between them unless the prefix ends with one).
    static func s3Key(prefix: String, _ name: String) -> String {
        prefix.isEmpty || prefix.hasSuffix("/") ? prefix + name : prefix + "/" + name
    }

    func destination(path: String, key: String?) -> UploadDestination {
        switch target {
        case .tus(let url):
            return .tus(endpoint: url)
        case .s3(let bucket, let prefix):
            let key = key ?? UploadJob.s3Key(prefix: prefix, (path as NSString).lastPathComponent)
            // init found an endpoint for every S3 target.
            let store = endpoint ?? URL(fileURLWithPath: "/")
            return .s3(S3Location(endpoint: store, bucket: bucket, key: key))
        case .form(let url):
            return .form(FormTarget(url: url, field: field, fields: formFields))
        }
    }

    /// A file to send, the library item it belongs to, and its path inside the folder named
    /// (its name, for a file named itself); a library file's SHA-256, checked against the catalog.
    struct ResolvedFile {
        var path: String
        var item: String?
        var relativePath: String
        var sha256: String? = nil
        /// Which file the path led to when it was found: a file swapped since (for a link) is not sent.
        var expected: FileIdentity? = nil
    }

    /// The files to send: each argument that is a file, the files below each folder (with
    /// --recursive), and the stored files of each library item named by its id (with
    /// --library; a Live Photo sends still and movie). Also whether some could not be read
    /// (reported).
    func resolvedPaths() async throws(ValidationError) -> ([ResolvedFile], unreadable: Bool) {
        var paths: [ResolvedFile] = []
        var unreadable = false
        var catalog: ImportCatalog?
        for argument in files {
            if let status = FileStatus(path: argument) {
                if status.kind == .directory {
                    guard recursive else {
                        throw ValidationError("\(argument) is a folder; add --recursive (-r) to upload what is in it")
                    }
                    let base = argument.hasSuffix("/") ? argument : argument + "/"
                    for entry in FileWalker(recursive: true).expand([argument]) {
                        switch entry {
                        case .file(let path, let identity):
                            paths.append(
                                ResolvedFile(
                                    path: path, item: nil, relativePath: String(path.dropFirst(base.count)),
                                    expected: identity))
                        case .problem(let path, let message):
                            unreadable = true
                            notSent(
                                path, code: "sourceUnreadable", message: "\(message); it is not sent",
                                hint: "Check that the file exists and can be read.")
                        case .leftAlone(let path, let reason):
                            if json {
                                Console.out(JSONObject.leftAlone(path: path, reason: reason).text)
                            } else {
                                Console.error(Text.clean("pickup upload: left alone \(path): \(reason)"))
                            }
                        }
                    }
                } else {
                    paths.append(
                        ResolvedFile(
                            path: argument, item: nil, relativePath: (argument as NSString).lastPathComponent,
                            expected: status.identity))
                }
                continue
            }
            guard let library else {
                throw ValidationError("\(argument) is not a file (to upload a library item, add --library DIR)")
            }
            do {
                if catalog == nil { catalog = try ImportCatalog(folder: library, readOnly: true) }
                guard let item = try await catalog?.item(id: argument) else {
                    throw ValidationError("\(argument) is neither a file nor an item of the library \(library)")
                }
                // Only the bytes the catalog records are sent: a stored file that changed is refused.
                // The photo or video and a Live Photo's movie go; an iPhone's edits file stays.
                for file in item.files where file.role != .edits {
                    let path = library + "/" + file.name
                    guard case .success(let found) = FileHash.sha256(ofFileAt: path), found.sha256 == file.sha256
                    else {
                        throw ValidationError(
                            "\(path) (item \(item.id)) is missing or no longer matches its catalog record, "
                                + "so it is not sent; run 'pickup library \(library) verify', then import its source "
                                + "again to restore it")
                    }
                    paths.append(
                        ResolvedFile(
                            path: path, item: item.id, relativePath: (path as NSString).lastPathComponent,
                            sha256: found.sha256, expected: FileStatus(path: path)?.identity))
                }
            } catch let error as ValidationError {
                throw error
            } catch {
                throw ValidationError("cannot read the library \(library): \(error)")
            }
        }
        return (paths, unreadable)
    }
}

extension UploadJob {
    /// S3 credentials from a file of `KEY=value` lines, else from the environment.
    static func credentials(file: String?) throws(ValidationError) -> S3Credentials? {
        guard let file else { return S3Credentials.fromEnvironment() }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw ValidationError("cannot read the credentials file \(file)")
        }
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, !parts[0].hasPrefix("#") { values[parts[0]] = parts[1] }
        }
        guard let credentials = S3Credentials.fromEnvironment(values) else {
            throw ValidationError("\(file) lacks AWS_ACCESS_KEY_ID or AWS_SECRET_ACCESS_KEY (KEY=value lines)")
        }
        return credentials
    }
}

/// Runs a queue of uploads and reports them: on a terminal, a line when an
/// upload starts, retries or ends, under a progress bar of the total; otherwise
/// a line per event on standard error (nothing with --json); then one line per
/// final record on standard output, in the order given.
enum UploadRunner {
    /// `sources`: for a file sent in place of another (a stripped photo, an exported video),
    /// the file it was made from, printed beside it.
    static func run(
        _ queue: UploadQueue, json: Bool, progress: ProgressOptions, sources: [String: String] = [:], tries: Int = 8
    ) async -> [UploadQueue.Item] {
        let terminal = !json && Console.errorIsTerminal
        let showBar = terminal && progress.showsProgress
        let reporter = Task {
            var items: [Int: UploadQueue.Item] = [:]
            var bar: ProgressBar?
            for await item in queue.updates {
                let previous = items[item.id]
                items[item.id] = item
                if json {
                    // Every retry, as it happens, for scripts too: a line of its own.
                    if let (error, delay) = newRetry(item, previous: previous) {
                        Console.raw(retryLine(item, error: error, delay: delay, tries: tries))
                    }
                    continue
                }
                let total = items.values.reduce(Int64(0)) { $0 + $1.size }
                let confirmed = items.values.reduce(Int64(0)) { $0 + $1.confirmed }
                if showBar, bar?.totalBytes != total { bar = ProgressBar(totalItems: items.count, totalBytes: total) }
                if !progress.quiet,
                    let line = report(
                        item, previous: previous, percent: !terminal && progress.showsProgress, tries: tries)
                {
                    bar?.finish()
                    Console.error(Text.clean(line))
                }
                bar?.draw(
                    itemsDone: items.values.filter { $0.state == .done }.count, bytesDone: confirmed,
                    current: Text.clean((item.path as NSString).lastPathComponent), force: true)
            }
            bar?.finish()
        }
        let items = await queue.waitUntilSettled()
        await queue.close()
        await reporter.value
        Console.raw(
            items.compactMap { $0.record }.map { record in
                let source = sources[record.path]
                return json ? line(record, source: source) : summary(record, source: source)
            }.joined())
        return items
    }

    /// The line an update deserves, if any: starts, retries, ends; with `percent` (not on a terminal),
    /// progress too.
    static func report(_ item: UploadQueue.Item, previous: UploadQueue.Item?, percent: Bool, tries: Int) -> String? {
        let id = shownID(item)
        // Every retry, as it happens: what failed, the wait, and which try comes next.
        if let (error, delay) = newRetry(item, previous: previous) {
            return "\(id) \(error.description); retrying in \(Text.fixed(delay, 1)) s "
                + "(retry \(item.retries) of \(tries - 1))"
        }
        if item.uploadID != nil, previous?.uploadID == nil {
            return "\(id) uploading \(item.path) (\(Text.byteCount(item.size)))"
        }
        if item.state == .paused, previous?.state != .paused {
            return "\(id) paused at \(Text.byteCount(item.confirmed))"
        }
        if percent, item.state == .uploading, item.confirmed != previous?.confirmed {
            let percent = item.size > 0 ? Int(Double(item.confirmed) * 100 / Double(item.size)) : 100
            let left = item.secondsLeft.map { ", " + DurationLabel.string(seconds: $0) + " left" } ?? ""
            return "\(id) \(percent)% \(Text.byteCount(item.confirmed)) of \(Text.byteCount(item.size)), "
                + "\(Text.byteCount(Int64(item.bytesPerSecond)))/s" + left
        }
        return nil
    }

    /// Where the upload goes as resuming sends it (the journal's destination), not the
    /// journal's text of it, which an edited row could make say something else.
    static func shownTarget(_ record: UploadRecord) -> String {
        guard let destination = record.destination else { return record.target }
        return destination.displayName
            + (record.target.hasSuffix(UploadJournal.queryNotStored) ? UploadJournal.queryNotStored : "")
    }

    static func summary(_ record: UploadRecord, source: String? = nil) -> String {
        var text =
            "\(record.id) \(record.state.rawValue) \(record.path) -> \(shownTarget(record)) "
            + "\(Text.byteCount(record.offset))/\(Text.byteCount(record.size))"
        if let source { text += " (from \(source))" }
        if let error = record.error { text += ": " + UploadHints.line(error) }
        return Text.clean(text) + "\n"
    }

    /// The closing line: how many files arrived, were already there or failed, and the bytes
    /// sent, the time and the rate.
    static func closing(
        _ items: [UploadQueue.Item], alreadyThere: Int, failedEarly: Bool, since began: Date
    ) -> String {
        let done = items.filter { $0.state == .done }
        let paused = items.filter { $0.state == .paused }.count
        let failed = items.count - done.count - paused
        let bytes = done.reduce(Int64(0)) { $0 + $1.size }
        let seconds = max(0.001, Date().timeIntervalSince(began))
        let total = items.count + alreadyThere
        var parts = ["\(done.count) uploaded", "\(alreadyThere) already there"]
        if paused > 0 { parts.append("\(paused) paused") }
        parts.append("\(failed) failed" + (failedEarly ? " (+ files not sent, see above)" : ""))
        return "\n\(total) file\(total == 1 ? "" : "s"): " + parts.joined(separator: ", ") + ". "
            + "\(Text.byteCount(bytes)) in \(Text.fixed(seconds, 1)) s (\(Text.byteCount(Int64(Double(bytes) / seconds)))/s)."
    }

    /// Says once that the run stopped at an endpoint that cannot be reached, and what is left
    /// (a `stopped` line with `--json`).
    static func stopped(_ error: UploadError, items: [UploadQueue.Item], json: Bool) {
        let begun = items.filter { $0.state == .paused && $0.uploadID != nil }.count
        let left = items.filter { $0.state == .paused && $0.uploadID == nil }.count
        if json {
            var object = JSONObject()
            object.add("type", "stopped")
            object.add(
                "error",
                object: JSONObject.error(
                    code: error.code.rawValue, message: error.description, hint: UploadHints.hint(for: error)))
            object.add("paused", Int64(begun))
            object.add("notStarted", Int64(left))
            Console.raw(object.text + "\n")
            return
        }
        Console.error(
            Text.clean(
                "pickup upload: stopped: the endpoint cannot be reached (\(error.description)); every upload "
                    + "there would fail the same way. \(left) file\(left == 1 ? "" : "s") not started"
                    + (begun > 0 ? " and \(begun) paused ('pickup uploads resume')" : "")
                    + ": run the same command again when it is back."))
    }

    /// The retry an update begins, if it begins one: what failed and the wait.
    static func newRetry(
        _ item: UploadQueue.Item, previous: UploadQueue.Item?
    ) -> (error: UploadError, delay: Double)? {
        guard let retrying = item.retrying, item.retries > previous?.retries ?? 0 else { return nil }
        return retrying
    }

    /// An upload's id as lines show it: the journal's, or the queue's number before it has one.
    static func shownID(_ item: UploadQueue.Item) -> String { item.uploadID ?? "#\(item.id)" }

    /// The `--json` line of a retry: which upload, what failed, the wait, and which retry it is.
    static func retryLine(_ item: UploadQueue.Item, error: UploadError, delay: Double, tries: Int) -> String {
        var object = JSONObject()
        object.add("type", "retry")
        object.add("id", shownID(item))
        object.add("path", item.path)
        object.add(
            "error",
            object: JSONObject.error(
                code: error.code.rawValue, message: error.description, hint: UploadHints.hint(for: error)))
        object.add("delay", (delay * 100).rounded() / 100)
        object.add("retry", Int64(item.retries))
        object.add("of", Int64(tries - 1))
        return object.text + "\n"
    }

    static func line(
        _ record: UploadRecord, source: String? = nil, status: String? = nil, path: String? = nil
    ) -> String {
        var object = JSONObject()
        object.add("type", "upload")
        object.add("id", record.id)
        object.add("path", path ?? record.path)
        object.add("source", source ?? path ?? record.path)
        object.add("state", status ?? record.state.rawValue)
        object.add("confirmed", record.offset)
        object.add("size", record.size)
        object.add("target", shownTarget(record))
        object.add("remote", record.remote.map(redacted))
        object.add(
            "error",
            object: record.error.map {
                JSONObject.error(code: $0.code.rawValue, message: $0.description, hint: UploadHints.hint(for: $0))
            })
        return object.text + "\n"
    }
}
