import ArgumentParser
import Foundation
import PickupCommandLine
import PickupHTTP
import PickupUpload

/// `pickup uploads`: the journal's uploads — list, resume, cancel, prune.
struct UploadsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uploads",
        abstract: "List, resume, cancel or prune the uploads in the journal.",
        discussion: "Exit status: 0 on success, 1 when an upload failed or was not found, 2 for a usage mistake."
            + Examples.text([
                "pickup uploads list", "pickup uploads resume", "pickup uploads cancel 7k2m9q",
                "pickup uploads prune --older-than 30d",
            ]),
        subcommands: [List.self, Resume.self, Cancel.self, Prune.self])

    /// `pickup uploads resume [ID]`.
    struct Resume: JobCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Go on with one upload, or with every unfinished one, from the byte the server holds (a form: sent again whole)."
        )

        @Argument(
            help: ArgumentHelp(
                "The upload's id (default: every unfinished upload; needed when PICKUP_UPLOAD_AUTHORIZATION, "
                    + "PICKUP_UPLOAD_HEADERS or AWS keys are set, so a credential goes only to its own server).",
                valueName: "ID"))
        var id: String?

        @Option(
            name: .customLong("to"),
            help: ArgumentHelp(
                "With an ID: the tus endpoint or form URL again, when it had a query (a token) the journal does "
                    + "not keep.", valueName: "URL"))
        var to: String?

        @Option(
            name: .customLong("retries"),
            help: ArgumentHelp(
                "Failures in a row, without the server gaining bytes, before an upload fails again (0 to 100; "
                    + "default: as many as 'pickup upload --retries' gave it; given, kept for later resumes).",
                valueName: "N"))
        var retries: Int?

        @Option(
            name: [.customLong("chunk-size")],
            help: ArgumentHelp(
                "tus: megabytes a request at most, 0.0625 to 1024, for this run (default: as the upload began; a "
                    + "proxy that refused a chunk as too large wants less). S3 parts keep their size.",
                valueName: "MB"))
        var chunkSize: DecimalValue?

        @OptionGroup var formKey: FormKeyOption

        @OptionGroup var s3: S3CredentialOptions

        @OptionGroup var shared: JournalOptions

        @OptionGroup var trust: TrustOptions

        @OptionGroup var progress: ProgressOptions

        func job() throws -> UploadsJob {
            if let retries { _ = try OptionRange.whole(retries, 0...100, flag: "--retries") }
            var job = try UploadsJob(
                .resume(id, retries: retries), shared, to: to, progress: progress, s3: s3, caFile: trust.caFile)
            job.chunkSize = try chunkSize.map(UploadJob.chunkBytes)
            job.idempotencyKey = formKey.sendsKey
            return job
        }
    }
}

/// What the command does, from its checked arguments.
struct UploadsJob: CommandJob {
    enum Action {
        /// The uploads in these states (every one when empty).
        case list(Set<UploadRecord.State>)
        /// One upload or every unfinished one; `retries` in place of the ones each first run gave.
        case resume(String?, retries: Int?)
        case cancel(String)
    }

    /// The states an upload can be in, as `--state` takes them.
    static let states = ["waiting", "uploading", "paused", "failed", "done", "cancelled"]

    /// The states `--state` names (none: every upload).
    static func states(_ text: String?) throws(ValidationError) -> Set<UploadRecord.State> {
        guard let text else { return [] }
        var found: Set<UploadRecord.State> = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let state = UploadRecord.State(rawValue: String(word)) else {
                throw ValidationError(
                    "--state takes \(states.joined(separator: ", ")) (commas: any of them), not '\(word)'"
                        + UnknownOptions.guess(String(word), among: states))
            }
            found.insert(state)
        }
        return found
    }

    let action: Action
    let journalPath: String
    /// Whether the journal was named with --journal (not the default place).
    let journalNamed: Bool
    let caFile: String?
    let endpoint: URL?
    /// Whether `--to` named the endpoint as tus (`tus+http://…`).
    let endpointSaysTus: Bool
    let json: Bool
    let progress: ProgressOptions
    /// Headers for tus and form servers, from the environment (checked; never stored or printed).
    let headers: [String: String]

    /// S3 credentials for resuming and aborting (never stored: found again each time).
    let s3Credentials: S3Credentials?
    /// `resume --chunk-size`: the largest tus chunk this run sends, in bytes.
    var chunkSize: Int?
    /// Whether form uploads send their Idempotency-Key (`--no-idempotency-key`: not this run).
    var idempotencyKey = true

    init(
        _ action: Action, _ shared: JournalOptions, to: String? = nil, progress: ProgressOptions = ProgressOptions(),
        s3: S3CredentialOptions? = nil, caFile: String? = nil
    ) throws(ValidationError) {
        self.action = action
        s3Credentials = try s3?.resolved() ?? S3Credentials.fromEnvironment()
        self.progress = progress
        try OutputCheck.utf8(shared.journal, option: "--journal")
        journalPath = shared.journal ?? UploadJournal.defaultPath
        journalNamed = shared.journal != nil
        self.caFile = caFile
        if let given = to {
            let text = UploadTarget.lowercasingScheme(given)
            guard case .resume(.some, _) = action,
                let url = URL(string: text.hasPrefix("tus+") ? String(text.dropFirst(4)) : text),
                ["http", "https"].contains(url.scheme?.lowercased() ?? "")
            else {
                throw ValidationError("--to goes with 'resume ID' and takes an http(s) tus endpoint or form URL")
            }
            endpoint = url
            endpointSaysTus = text.hasPrefix("tus+")
        } else {
            endpoint = nil
            endpointSaysTus = false
        }
        json = shared.json
        if case .list = action { headers = [:] } else { headers = try UploadHeaders.headers() }
    }

    func run() async -> Int32 {
        // AsyncHTTPClient sends the requests; its connections close before the program ends.
        await AsyncHTTPTransport.using(caFile: caFile) { await run(transport: $0) }
    }

    private func run(transport: AsyncHTTPTransport) async -> Int32 {
        let named = journalNamed ? journalPath : nil  // said again in the commands that hints name
        let journal: UploadJournal
        // Resuming or cancelling an upload by its id in a journal that is not there: no upload to
        // find, and no journal made to say so.
        switch action {
        case .cancel(let id), .resume(.some(let id), _):
            if !UploadJournal.exists(at: journalPath) { return notFound(id) }
        default: break
        }
        do {
            if case .list = action {
                // Listing changes nothing: no journal is created to say that there is none.
                guard UploadJournal.exists(at: journalPath) else {
                    // A journal named with --journal that is not there is likely a typo: said, exit 1.
                    if journalNamed {
                        Console.error("pickup uploads: no journal at \(journalPath); check the path given to --journal")
                        return ExitStatus.someFailed
                    }
                    if !json { Console.out("0 uploads (no journal at \(journalPath))") }
                    return ExitStatus.success
                }
                journal = try UploadJournal(path: journalPath, readOnly: true)
            } else {
                journal = try UploadJournal(path: journalPath)
            }
        } catch {
            Console.error(Text.clean("pickup uploads: " + UploadHints.line(error, journal: named)))
            return ExitStatus.someFailed
        }
        // S3 uploads resume and abort with the credentials found again (--credentials, --profile,
        // the environment, ~/.aws); none are ever stored.
        var options = UploadOptions(headers: headers, transport: transport)
        // As `pickup upload`'s; a resumed upload keeps the sizes its journal record holds, and a
        // tus upload sends smaller chunks when --chunk-size asks (Uploader keeps the smaller).
        UploadJob.chunks(chunkSize, on: &options)
        options.idempotencyKey = idempotencyKey
        let uploader = Uploader(journal: journal, options: options, s3Credentials: s3Credentials)
        switch action {
        case .list(let states):
            let records: [UploadRecord]
            do {
                records = try await journal.all()
            } catch {
                Console.error(Text.clean("pickup uploads: " + UploadHints.line(error, journal: named)))
                return ExitStatus.someFailed
            }
            let shown = states.isEmpty ? records : records.filter { states.contains($0.state) }
            if json {
                Console.raw(shown.map { UploadRunner.line($0) }.joined())
            } else if !shown.isEmpty {
                let sending = (try? await journal.sentElsewhere()) ?? [:]
                Console.raw(UploadRunner.table(shown, journal: named, sending: sending))
            }
            if !json {
                let of = shown.count == records.count ? "" : " (of \(records.count))"
                Console.out("\(shown.count) upload\(shown.count == 1 ? "" : "s")\(of) in \(journalPath)")
            }
            return ExitStatus.success
        case .resume(let id, let retries):
            let ids: [String]
            // Each as the journal has it: shown so from the start, and what it had confirmed
            // before (the closing line counts only this run's bytes).
            var records: [String: UploadRecord] = [:]
            // The tries each has: its first run's, unless --retries gives others.
            var tries: [String: Int] = [:]
            // The servers they go to (`server(of:)`): one alone, and the run stops when it cannot be reached.
            var servers: Set<String> = []
            if let id {
                guard let record = try? await journal.record(id: id) else { return notFound(id) }
                if record.state == .done {
                    Console.out(
                        Text.clean(
                            "upload \(record.id) of \(record.path) is already done; there is nothing to resume"))
                    return ExitStatus.success
                }
                // Cancelling ended the upload on the server too (tus termination, S3 abort):
                // nothing is left to go on from, and starting over unasked would undo the cancel.
                if record.state == .cancelled {
                    // A form keeps nothing on the server between tries: nothing was let go there.
                    let letGo = record.isForm ? "" : ", and its bytes on the server were let go"
                    Console.error(
                        Text.clean(
                            "pickup uploads: upload \(record.id) of \(record.path) was cancelled\(letGo); there is "
                                + "nothing to resume. To send the file again, run "
                                + "'pickup upload \(Text.shellQuoted(record.path)) --to ...\(UploadHints.journalFlag(named))' "
                                + "to the same place "
                                + "(\(UploadRunner.shownTarget(record)))"))
                    return ExitStatus.someFailed
                }
                // --to and --no-idempotency-key speak of tus and form targets, and a form's key:
                // given for an upload they do not shape, a mistake said, not passed over.
                if endpoint != nil || !idempotencyKey, let destination = record.destination,
                    let misplaced = UploadsJob.misplaced(
                        to: endpoint != nil, tus: endpointSaysTus, key: !idempotencyKey, for: destination)
                {
                    Console.error(
                        Text.clean("pickup uploads: \(misplaced) upload \(record.id) (\(destination.displayName))"))
                    if case .form = destination {
                        Console.error(
                            Text.clean(
                                "  The journal keeps how an upload is sent. To send the file to a tus server: "
                                    + "'pickup uploads cancel \(record.id)\(UploadHints.journalFlag(named))', then 'pickup upload "
                                    + "\(Text.shellQuoted(record.path)) --to tus+\(redacted(endpoint?.absoluteString ?? "URL"))"
                                    + "\(UploadHints.journalFlag(named))'"
                            ))
                    }
                    return ExitStatus.usage
                }
                // --to brings back the query the journal did not keep; another place is a mistake
                // (the file would go where the journal does not say, with that place's credentials).
                if let endpoint, let destination = record.destination, !destination.isSamePlace(as: endpoint) {
                    Console.error(
                        Text.clean(
                            "pickup uploads: --to \(redacted(endpoint.absoluteString)) is not where upload \(record.id) "
                                + "goes (\(destination.displayName)); give its own URL with the query it had, or send "
                                + "the file to the other place with 'pickup upload \(Text.shellQuoted(record.path)) --to URL"
                                + "\(UploadHints.journalFlag(named))'"
                        ))
                    return ExitStatus.usage
                }
                ids = [record.id]
                records[record.id] = record
                tries[record.id] = record.maxAttempts
                servers.insert(UploadsJob.server(of: record) ?? record.id)
            } else {
                let unfinished = (try? await journal.unfinished()) ?? []
                // A credential belongs to the server it was given for: with one set, each upload is
                // resumed by its id, so it goes to no other server the journal names.
                if !unfinished.isEmpty, let credential = credentialInUse(for: unfinished) {
                    Console.error(
                        "pickup uploads: \(credential) is set, and it would go to every server of the "
                            + "\(unfinished.count) unfinished upload\(unfinished.count == 1 ? "" : "s"); resume one at a "
                            + "time, by id, the ones meant for its server: "
                            + unfinished.prefix(5).map { UploadHints.resume($0.id, journal: named) }.joined(
                                separator: ", ")
                            + (unfinished.count > 5 ? ", ... (pickup uploads list shows them all)" : ""))
                    return ExitStatus.usage
                }
                // An upload refused for where it goes (a wrong endpoint, a 404 or 412, a file the
                // server takes no larger) fails the same way again: left out, and said so, with
                // its first error kept. Resumed by its id, it is tried again.
                let hopeless = unfinished.filter { record in
                    guard record.state == .failed, let error = record.error, !error.isRetryable else { return false }
                    return [.badTarget, .tooLarge, .server].contains(error.code)
                }
                if !hopeless.isEmpty, !json {
                    Console.error(
                        "pickup uploads: left out \(hopeless.count) failed upload\(hopeless.count == 1 ? "" : "s") "
                            + "that resuming cannot mend (the server refused where \(hopeless.count == 1 ? "it goes" : "they go")): "
                            + hopeless.prefix(3).map { "\($0.id) (\($0.error?.message ?? "refused"))" }.joined(
                                separator: ", ")
                            + (hopeless.count > 3 ? ", ..." : "")
                            + ". Resume one by its id to try again, or 'pickup uploads cancel ID'")
                }
                let left = Set(hopeless.map(\.id))
                ids = unfinished.map(\.id).filter { !left.contains($0) }
                for record in unfinished {
                    records[record.id] = record
                    tries[record.id] = record.maxAttempts
                    if !left.contains(record.id) { servers.insert(UploadsJob.server(of: record) ?? record.id) }
                }
                if ids.isEmpty, !hopeless.isEmpty { return ExitStatus.someFailed }
                if ids.isEmpty {
                    if !json { Console.out("nothing to resume: every upload in \(journalPath) is done or cancelled") }
                    return ExitStatus.success
                }
            }
            if let retries {
                for id in ids { tries[id] = retries + 1 }
                do {
                    try await journal.allowAttempts(retries + 1, for: ids)
                } catch {
                    Console.error(Text.clean("pickup uploads: " + UploadHints.line(error, journal: named)))
                    return ExitStatus.someFailed
                }
            }
            let began = Date()
            // As upload sends them: 8 at once, and when they all go to one place, a place that
            // cannot be reached stops the run after one upload's retries (the rest stay paused).
            let queue = UploadQueue(uploader: uploader, concurrency: 8, stopsWhenUnreachable: servers.count == 1)
            // Every id comes from a record read above.
            for record in ids.compactMap({ records[$0] }) { await queue.add(restoring: record, endpoint: endpoint) }
            let triesOf = tries
            let work = Task {
                await UploadRunner.run(queue, json: json, progress: progress, triesOf: triesOf, journal: named)
            }
            let interrupted = InterruptWatch {
                Task { for item in await queue.all() { await queue.pause(item.id) } }
            }
            let items = await work.value
            interrupted.stop()
            if !json {
                Console.out(
                    UploadRunner.closing(
                        items, alreadyThere: 0, failedEarly: false, since: began, before: records.mapValues(\.offset),
                        resumed: true))
            }
            if let error = await queue.stoppedBy, items.contains(where: { $0.state == .paused }) {
                UploadRunner.stopped(
                    error, items: items, json: json, journal: named, command: "pickup uploads", resumed: true)
            }
            if interrupted.fired { return interrupted.status }
            // Once done, a resumed upload's bytes are recorded as one sent whole: the same bytes
            // sent there again are then already there.
            await UploadBatch.recordFinished(resumed: items, in: journal)
            return items.allSatisfy { $0.state == .done } ? ExitStatus.success : ExitStatus.someFailed
        case .cancel(let id):
            if let found = try? await journal.record(id: id), found.state == .done {
                Console.error(
                    "pickup uploads: upload \(found.id) of \(found.path) is already done; there is nothing to cancel "
                        + "(the server keeps the file: delete it there if it should go)")
                return ExitStatus.someFailed
            }
            guard let record = await uploader.cancel(id: id) else { return notFound(id) }
            Console.raw(json ? UploadRunner.line(record) : UploadRunner.summary(record))
            return ExitStatus.success
        }
    }

    /// The credential of the environment that the uploads `records` would be sent with, named
    /// (never its value): nil when none is set.
    private func credentialInUse(for records: [UploadRecord]) -> String? {
        let sendsHeaders = records.contains {
            if case .s3 = $0.destination { return false }
            return true
        }
        if sendsHeaders, !headers.isEmpty {
            let environment = ProcessInfo.processInfo.environment
            return (environment[UploadHeaders.authorizationVariable] ?? "").isEmpty
                ? UploadHeaders.headersVariable : UploadHeaders.authorizationVariable
        }
        let sendsS3 = records.contains {
            if case .s3 = $0.destination { return true }
            return false
        }
        if sendsS3, S3Credentials.fromEnvironment() != nil { return "AWS_ACCESS_KEY_ID" }
        return nil
    }

    private func notFound(_ id: String) -> Int32 {
        let list = "pickup uploads list" + UploadHints.journalFlag(journalNamed ? journalPath : nil)
        Console.error(Text.clean("pickup uploads: no upload '\(id)' in \(journalPath). Run '\(list)' to see them."))
        return ExitStatus.someFailed
    }
}

extension UploadsJob {
    /// What is wrong with `--to` (`to`) or `--no-idempotency-key` (`key`) for an upload to
    /// `destination`, nil when nothing is.
    static func misplaced(to: Bool, tus: Bool, key: Bool, for destination: UploadDestination) -> String? {
        switch destination {
        case .form:
            // Both, but a form's URL is no tus endpoint: --to tus+… would be passed over.
            return tus ? "--to tus+… names a tus server, but a web form sends" : nil
        case .tus: break
        case .s3, .s3Presigned:
            if to {
                return "--to gives a tus endpoint or a form's URL again; the journal keeps an S3 upload's place "
                    + "whole, for"
            }
        }
        return key ? "--no-idempotency-key is for a web form's upload, not for" : nil
    }

    /// The server an upload goes to (scheme, host and port; an S3 bucket's endpoint): uploads
    /// to one server are stopped together when it cannot be reached. Nil when not known.
    static func server(of record: UploadRecord) -> String? {
        let url: URL
        switch record.destination {
        case .tus(let endpoint): url = endpoint
        case .s3(let location), .s3Presigned(let location): url = location.endpoint
        case .form(let target): url = target.url
        case nil: return nil
        }
        return "\(url.scheme ?? "")://\(url.host ?? ""):\(url.port ?? 0)"
    }
}
