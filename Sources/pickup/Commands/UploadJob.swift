import ArgumentParser
import Foundation
import Pickup
import PickupCommandLine
import PickupHTTP
import PickupImport
import PickupStore
import PickupUpload

/// What the command does, from its checked arguments.
struct UploadJob: CommandJob {
    let files: [String]
    /// The files that came from a list (`--files-from`, `-`): sent as if found in a folder, when media.
    let listed: Set<String>
    /// Which files of the folders are sent (--include, --exclude).
    let selection: FileSelection
    let target: UploadTarget
    let endpoint: URL?
    let credentials: S3Credentials?
    let parallel: Int
    let keyTemplate: RemoteKey
    let caFile: String?
    /// How each upload is sent (chunks, retries, stall timeout, headers, parts), as the flags
    /// say; the transport is added when the job runs.
    let options: UploadOptions
    let journalPath: String
    /// The journal as the person named it (`--journal`), nil for the default.
    let journalNamed: String?
    let json: Bool
    let library: String?
    let preset: ExportPreset?
    let stripLocation: Bool
    let field: String
    let formFields: [FormField]
    /// What each tus upload carries besides its file's name and type (`--metadata`).
    let metadata: [String: String]
    let recursive: Bool
    let force: Bool
    let check: Bool
    /// Says what would be sent where; sends nothing, touches no journal.
    let dryRun: Bool
    let progress: ProgressOptions
    /// How many files were refused before sending (each said by `notSent`), for the closing line.
    let refused = LockedValue(0)

    init(_ command: UploadCommand) throws(ValidationError) {
        try command.fileList.requirePaths(
            command.arguments,
            command.library.map {
                "name the items of --library \($0) to upload by their ids ('pickup library \(Text.shellQuoted($0)) "
                    + "list' shows them), or files"
            } ?? "name at least one file to upload")
        guard let text = command.to else {
            throw ValidationError("say where to upload with --to tus+http(s)://HOST/PATH")
        }
        do {
            target = try UploadTarget(parsing: text)
        } catch {
            throw ValidationError(error.message)
        }
        // An option for another kind of target would be ignored without a word: refused, naming it,
        // before anything the target itself needs (S3's credentials) is looked for.
        var misplaced: [String] = []
        if !target.isS3, command.key != "{relpath}" { misplaced.append("--key (for s3://)") }
        if !target.isForm, command.field != "file" { misplaced.append("--field (for a web form)") }
        if !target.isForm, !command.formField.isEmpty { misplaced.append("--form-field (for a web form)") }
        if !target.isForm, !command.formKey.sendsKey { misplaced.append("--no-idempotency-key (for a web form)") }
        if !target.isTus, !command.metadata.isEmpty {
            misplaced.append("--metadata (for tus\(target.isForm ? "; a form takes --form-field NAME=VALUE" : ""))")
        }
        if let first = misplaced.first {
            throw ValidationError(
                "\(misplaced.joined(separator: " and ")) \(misplaced.count == 1 ? "does" : "do") nothing for --to "
                    + "\(text); drop \(misplaced.count == 1 ? "it" : "them")"
                    + (first.hasPrefix("--key") ? " (a tus server and a form name the file themselves)" : ""))
        }
        let aws = AWSConfiguration.load(profile: command.s3.profile)
        if let text = command.endpoint {
            guard let url = URL(string: UploadTarget.lowercasingScheme(text)), url.host != nil,
                ["http", "https"].contains(url.scheme ?? "")
            else {
                throw ValidationError("--endpoint takes an http(s):// URL with a host, not '\(text)'")
            }
            if let problem = url.portProblem { throw ValidationError("--endpoint: " + problem) }
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
        if let file = command.s3.credentials {
            credentials = try UploadJob.credentials(file: file)
        } else {
            credentials = aws.credentials
        }
        // A dry run only names the keys: it needs no credentials.
        if case .s3 = target, credentials == nil, !command.dryRun {
            throw ValidationError(
                "no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, put them in the "
                    + "\(aws.profile) profile of ~/.aws/credentials (AWS_PROFILE or --profile picks another), "
                    + "or pass --credentials FILE")
        }
        let parallel = try OptionRange.whole(command.parallel, 1...32, flag: "--parallel")
        let chunkBytes = try command.chunkSize.map(UploadJob.chunkBytes)
        (files, listed) = try command.fileList.sources(command.arguments)
        selection = command.fileList.selection
        self.parallel = parallel
        switch RemoteKey.parse(command.key) {
        case .success(let template): keyTemplate = template
        case .failure(let error): throw ValidationError(error.message)
        }
        let threshold = try OptionRange.number(
            command.multipartThreshold.value, 0...5_120, flag: "--multipart-threshold", unit: "megabytes",
            why: "S3's largest PUT: 5 GiB")
        try OutputCheck.utf8(command.shared.journal, option: "--journal")
        journalPath = command.shared.journal ?? UploadJournal.defaultPath
        journalNamed = command.shared.journal
        caFile = command.trust.caFile
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
        field = command.field
        formFields = try KeyValueOption.pairs(command.formField, flag: "--form-field").map {
            FormField(name: $0.name, value: $0.value)
        }
        metadata = Dictionary(try KeyValueOption.pairs(command.metadata, flag: "--metadata", form: "KEY=VALUE")) {
            _, last in last
        }
        if let problem = TusClient.problem(metadata: metadata) { throw ValidationError("--metadata: " + problem) }
        recursive = command.recursive
        force = command.force
        check = command.check
        dryRun = command.dryRun
        progress = command.progress
        let retries = try OptionRange.whole(command.retries, 0...100, flag: "--retries")
        let timeout = try OptionRange.number(command.timeout.value, 1...3600, flag: "--timeout", unit: "seconds")
        let parts = try OptionRange.whole(command.partConcurrency, 1...64, flag: "--part-concurrency")
        var options = UploadOptions(
            maxAttempts: retries + 1, stallTimeout: timeout, headers: try UploadHeaders.headers(flags: command.header),
            partConcurrency: parts)
        UploadJob.chunks(chunkBytes, on: &options)
        options.multipartThreshold = Int64(threshold * 1_048_576)
        // As many connections as files in flight; a video alone still sends its parts side by side.
        options.connectionLimit = max(parallel, parts)
        options.idempotencyKey = command.formKey.sendsKey
        self.options = options
    }

    /// The tool sends through AsyncHTTPClient, which streams every body from the file, on macOS
    /// too: tus chunks grow to the 64 MiB of the help, not to the 16 MiB URLSession's transport
    /// keeps to (`UploadOptions.defaultLargestTusChunk` on Apple platforms).
    static let largestTusChunk = 64 << 20

    /// The line for a file not sent because the journal sent the same bytes to its destination:
    /// `shown` is the file (a copy's source), and the file those bytes were sent as, when it was
    /// another (a copy made to send has a name of its own each run: not said).
    func alreadyThereLine(_ earlier: UploadRecord, shown: String, copy: Bool) -> String {
        let how = copy || earlier.path == shown ? "sent before" : "the same bytes were sent there as \(earlier.path)"
        // --check asks tus and S3 servers (HEAD); a web form has nothing to ask: the journal is trusted.
        var asked = ""
        if check, case .form = earlier.destination {
            asked = "; a web form cannot be asked whether it still has them, so --check trusts the journal"
        } else if check {
            asked = ", and the server has them"
        }
        return Text.clean(
            "\(earlier.id) already there \(shown) -> \(UploadRunner.shownTarget(earlier)) "
                + "(\(how)\(asked); --force sends it again)") + "\n"
    }

    /// Why a form's unfinished upload is sent whole as the same upload, in words; `key`: whether
    /// it carries its Idempotency-Key (not --no-idempotency-key).
    static func formAgain(key: Bool) -> String {
        key
            ? "a form cannot go on from a byte: the whole file, as the same upload with the same Idempotency-Key, so a "
                + "server that kept the earlier try keeps one copy"
            : "a form cannot go on from a byte: the whole file, with no Idempotency-Key (--no-idempotency-key), so a "
                + "server that kept the earlier try may keep two copies"
    }

    /// How the upload a run continues ended before, in words: paused, failed, or cut off (a
    /// process killed while it sent).
    static func earlier(_ state: UploadRecord.State) -> String {
        switch state {
        case .paused, .failed: return state.rawValue + " earlier"
        default: return "cut off earlier"
        }
    }

    /// `--chunk-size MB` in bytes, checked against its range (`upload` and `uploads resume`).
    static func chunkBytes(_ size: DecimalValue) throws(ValidationError) -> Int {
        Int(try OptionRange.number(size.value, 0.0625...1024, flag: "--chunk-size", unit: "megabytes") * 1_048_576)
    }

    /// The tool's chunk sizes on `options`: a size asked for is every chunk's (growing past it
    /// could meet the very limit it was chosen for); none, tus chunks grow to `largestTusChunk`.
    static func chunks(_ bytes: Int?, on options: inout UploadOptions) {
        guard let bytes else {
            options.largestTusChunk = largestTusChunk
            return
        }
        options.chunkSize = bytes
        options.largestTusChunk = bytes
    }

    func run() async -> Int32 {
        // AsyncHTTPClient sends the requests; its connections close before the program ends.
        await AsyncHTTPTransport.using(caFile: caFile) { await run(transport: $0) }
    }

    private func run(transport: AsyncHTTPTransport) async -> Int32 {
        if dryRun { return await planOnly() }
        let uploader: Uploader
        var options = options
        options.transport = transport
        do {
            uploader = Uploader(
                journal: try UploadJournal(path: journalPath), options: options,
                s3Credentials: credentials)
        } catch {
            Console.error(Text.clean("pickup upload: " + UploadHints.line(error)))
            return ExitStatus.someFailed
        }
        guard let (resolved, probes, named, leftAlone) = await mediaToSend() else { return ExitStatus.usage }
        var failedEarly = named
        let known = Dictionary(
            resolved.compactMap { file in file.sha256.map { (file.path, $0) } }, uniquingKeysWith: { first, _ in first }
        )
        let paths = resolved.map(\.path)
        let expected = Dictionary(
            resolved.compactMap { file in file.expected.map { (file.path, $0) } },
            uniquingKeysWith: { first, _ in first })
        var prepared = probes.enumerated().map { index, result in
            (path: paths[index], type: (try? result.get())?.container.mimeType ?? "application/octet-stream")
        }
        var facts = resolved.enumerated().map { index, file in
            RemoteKey.Facts(
                relativePath: file.relativePath,
                taken: (try? probes[index].get())?.creationDate, itemID: file.item)
        }
        UploadJob.dateCompanions(&facts, probes: probes, items: resolved.map(\.item), paths: resolved.map(\.path))
        var sources = paths
        if preset != nil || stripLocation {
            let files = prepared
            let exporting = Task { [self] in await exportForUpload(files, expected: expected) }
            let interrupted = InterruptWatch { exporting.cancel() }
            let exported = await exporting.value
            interrupted.stop()
            if interrupted.fired { return interrupted.status }
            // An export keeps its source's name (a transcoded video's extension becomes .mp4).
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
        let made = Dictionary(
            zip(prepared.map(\.path), sources).filter { $0 != $1 }, uniquingKeysWith: { first, _ in first })
        let files = prepared.enumerated().map { index, file in
            UploadBatch.File(
                path: file.path, type: file.type, expected: expected[file.path], facts: facts[index],
                madeFrom: made[file.path])
        }
        // Every destination decided, and two sources never on one key, before anything is sent.
        guard var batch = batch(files, known: known) else { return ExitStatus.usage }
        let began = Date()
        // An endpoint that cannot be reached stops the run after one upload's retries, not each file's.
        let queue = UploadQueue(uploader: uploader, concurrency: parallel, stopsWhenUnreachable: true)
        let alreadyThere = await batch.enqueue(on: queue, force: force, check: check)
        // Each file named as its upload lines name it: absolute, whatever the folder it was given from.
        let shown = files.map { SystemPath.absolute($0.path) }
        for index in files.indices where !json {
            if let earlier = batch.continued[index], case .form = earlier.destination {
                Console.error(
                    "\(earlier.id) sends \(shown[index]) again (\(UploadJob.earlier(earlier.state)); "
                        + "\(UploadJob.formAgain(key: options.idempotencyKey)); --force starts a new upload)")
            } else if let earlier = batch.continued[index] {
                Console.error(
                    "\(earlier.id) continues \(shown[index]) from at least \(Text.byteCount(earlier.offset)) of "
                        + "\(Text.byteCount(earlier.size)) (\(UploadJob.earlier(earlier.state)); the server may have "
                        + "kept more of what was in flight; --force starts over)")
            }
            if let old = batch.outdated[index] {
                Console.error(
                    "\(old.id), an unfinished upload of \(shown[index]) begun before it changed, cannot be finished: "
                        + "it is sent anew; '\(UploadHints.cancel(old.id, journal: journalNamed))' lets the old one go")
            }
            if let gone = batch.lost[index] {
                Console.error("\(gone.id) is no longer on the server: sending \(shown[index]) again")
            }
        }
        for (index, busy) in batch.sentElsewhere.sorted(by: { $0.key < $1.key }) {
            var record = busy.record
            record.error = UploadError(.busy, "process \(busy.process) is sending it now")
            Console.raw(
                json
                    ? UploadRunner.line(record, status: "sentElsewhere", path: shown[index], journal: journalNamed)
                    : Text.clean(
                        "\(record.id) left to process \(busy.process), which is sending \(shown[index]) now "
                            + "(\(Text.byteCount(record.offset)) of \(Text.byteCount(record.size)) confirmed): "
                            + "run this again once it ends") + "\n")
        }
        // An S3 key that holds another file Pickup sent: not replaced unless --force says so.
        for (index, held) in batch.keyTaken.sorted(by: { $0.key < $1.key }) {
            // The same file sent before, changed since (an edit, new metadata), or another file.
            let what =
                held.path == shown[index]
                ? "this file as it was before it changed (\(held.id), \(Text.byteCount(held.size)))"
                : "another file Pickup sent there (\(held.id), \(held.path), \(Text.byteCount(held.size)))"
            notSent(
                shown[index], code: "keyTaken", message: "not sent: \(held.target) holds \(what)",
                hint: "--force replaces it; a --key template keeps them apart (as '{date}/{stem}-{id}.{ext}').")
        }
        for (index, file) in files.enumerated() {
            guard let earlier = alreadyThere[index] else { continue }
            Console.raw(
                json
                    ? UploadRunner.line(earlier, source: made[file.path], status: "alreadyThere", path: shown[index])
                    : alreadyThereLine(earlier, shown: made[file.path] ?? shown[index], copy: made[file.path] != nil))
        }
        let work = Task {
            await UploadRunner.run(
                queue, json: json, progress: progress, sources: made, tries: options.maxAttempts,
                journal: journalNamed)
        }
        let interrupted = InterruptWatch {
            Task { for item in await queue.all() { await queue.pause(item.id) } }
        }
        let items = await work.value
        interrupted.stop()
        await batch.recordFinished(items, in: uploader.journal, waitForHashes: !interrupted.fired)
        if !json {
            Console.out(
                UploadRunner.closing(
                    items, alreadyThere: alreadyThere.count, failedEarly: failedEarly || !batch.keyTaken.isEmpty,
                    notSent: refused.withValue { $0 },
                    since: began,
                    leftAlone: leftAlone, elsewhere: batch.sentElsewhere.count,
                    before: Dictionary(
                        batch.continued.values.map { ($0.id, $0.offset) }, uniquingKeysWith: { first, _ in first })))
        }
        if let error = await queue.stoppedBy, items.contains(where: { $0.state == .paused }) {
            UploadRunner.stopped(error, items: items, json: json, journal: journalNamed)
        }
        // Copies made to send are kept while their upload is unfinished (a resumed upload needs
        // them), and removed once it is done, or when none was queued (already there, its key
        // taken, another process sending it).
        let unfinished = Set(items.filter { $0.state != .done }.compactMap { $0.record?.path })
        for path in made.keys where !unfinished.contains(SystemPath.absolute(path)) {
            unlink(path)
            rmdir((path as NSString).deletingLastPathComponent)
        }
        if interrupted.fired { return interrupted.status }
        // A file another process is sending is not known sent yet: the run did not do all it was asked.
        return items.allSatisfy { $0.state == .done } && !failedEarly && batch.sentElsewhere.isEmpty
            && batch.keyTaken.isEmpty
            ? ExitStatus.success : ExitStatus.someFailed
    }

    /// A Live Photo's movie is dated as its still (a `{date}` key puts the two side by side; a
    /// movie's own date is often missing or in another zone): the pairs found among the files by
    /// their content identifier, and the files of one library item. An iPhone's edits
    /// (`IMG_0001.AAE`, which holds no date) are dated as the photo they edit, beside it.
    static func dateCompanions(
        _ facts: inout [RemoteKey.Facts], probes: [Result<MediaInfo, ProbeError>], items: [String?], paths: [String]
    ) {
        let probed = probes.enumerated().compactMap { index, result in
            (try? result.get()).map { (item: index, info: $0) }
        }
        for pair in LivePhotoPairing.pairs(in: probed) where facts[pair.still].taken != nil {
            facts[pair.movie].taken = facts[pair.still].taken
        }
        var firstOfItem: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            guard let item else { continue }
            if let first = firstOfItem[item] {
                if let taken = facts[first].taken { facts[index].taken = taken }
            } else {
                firstOfItem[item] = index
            }
        }
        var takenByStem: [String: MediaDate] = [:]
        for index in paths.indices where !MediaNames.namedAsEdits(paths[index]) {
            if let taken = facts[index].taken { takenByStem[MediaNames.editsKey(paths[index])] = taken }
        }
        for index in paths.indices where MediaNames.namedAsEdits(paths[index]) && facts[index].taken == nil {
            facts[index].taken = takenByStem[MediaNames.editsKey(paths[index])]
        }
    }

    /// The batch of these files to the target, or nil when two would be stored under one key
    /// (said on stderr, with how to name them apart).
    func batch(_ files: [UploadBatch.File], known: [String: String]) -> UploadBatch? {
        do {
            var batch = try UploadBatch(files: files, to: batchTarget, knownSHA256: known)
            batch.metadata = metadata
            return batch
        } catch {
            Console.error(
                "pickup upload: \(error.sources.joined(separator: " and ")) would all be stored as \(error.key), "
                    + "one over the other; nothing was sent. Name them apart with --key (for example "
                    + "--key '{date}/{name}' or --key '{id}-{name}')"
                    + (error.more > 0 ? " (\(error.more) more keys collide)" : ""))
            return nil
        }
    }

    /// Where the batch goes: the target named with --to, with the S3 store and key template.
    var batchTarget: UploadBatch.Target {
        switch target {
        case .tus(let url):
            return .tus(url)
        case .s3(let bucket, let prefix):
            // init found an endpoint for every S3 target.
            return .s3(
                endpoint: endpoint ?? URL(fileURLWithPath: "/"), bucket: bucket, prefix: prefix, key: keyTemplate)
        case .form(let url):
            return .form(FormTarget(url: url, field: field, fields: formFields))
        }
    }

}
