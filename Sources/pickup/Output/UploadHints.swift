import PickupCommandLine
import PickupUpload

/// What to do about a failed upload, in the command line's own words: the library's
/// hints fit an app, these name `pickup` commands and flags.
enum UploadHints {
    /// The command that resumes: `pickup uploads resume`, with `--journal` when the person named
    /// one (a resume without it would look in the default journal and find nothing).
    static func resume(_ id: String? = nil, journal: String?, to url: String? = nil) -> String {
        "pickup uploads resume" + (id.map { " " + $0 } ?? "") + (url.map { " --to " + $0 } ?? "") + journalFlag(journal)
    }

    /// The command that resumes `record`, with its endpoint again when the journal did not keep
    /// its query (`urlToGiveAgain`).
    static func resume(_ record: UploadRecord, journal: String?) -> String {
        resume(record.id, journal: journal, to: urlToGiveAgain(record))
    }

    /// For a resume of `record`: its endpoint with a place for the query the journal did not
    /// keep (`"https://host/upload?QUERY"`), which the resume needs again; nil when it kept all.
    static func urlToGiveAgain(_ record: UploadRecord) -> String? {
        guard record.target.hasSuffix(UploadJournal.queryNotStored), let url = record.destination?.displayName else {
            return nil
        }
        // In double quotes, which a shell leaves as they are but for these: then in single ones.
        let plain = !url.contains { "$`\"\\!".contains($0) }
        return plain ? "\"" + url + "?QUERY\"" : Text.shellQuoted(url + "?QUERY")
    }

    /// The command that cancels upload `id`, with `--journal` when the person named one.
    static func cancel(_ id: String, journal: String?) -> String {
        "pickup uploads cancel \(id)" + journalFlag(journal)
    }

    /// ` --journal PATH` for a journal the person named, quoted for a shell; nothing for the default.
    static func journalFlag(_ journal: String?) -> String {
        journal.map { " --journal " + Text.shellQuoted($0) } ?? ""
    }

    /// What resuming does: a form's POST has no offset to go on from, so it is sent again whole.
    static func goesOn(form: Bool) -> String {
        form ? "sends the form again, the whole file" : "goes on from the last byte the server confirmed"
    }

    /// What to do; `journal`: the journal the person named, said again in a resume command, and
    /// `id` the upload it names (nil: every unfinished one). `form`: the upload is a form's
    /// POST, which has no offset to go on from: resuming sends it again, whole. `again`: the
    /// command that sends the file anew, when one can be given whole (`sendAgain`).
    static func hint(
        for error: UploadError, journal: String? = nil, id: String? = nil, form: Bool = false, again: String? = nil,
        to url: String? = nil
    ) -> String {
        let resume = resume(id, journal: journal, to: url)
        let goesOn = goesOn(form: form)
        switch error.code {
        case .network:
            return "Check the connection; '\(resume)' \(goesOn)."
        case .server where [404, 405, 501].contains(error.status ?? 0):
            // Not a passing failure: the server takes no upload at that URL.
            return "Check the URL given to --to: the server does not take uploads there (HTTP \(error.status ?? 0))."
        case .server where !error.isRetryable:
            // 400-499 but 408 and 429: the server refused the request itself; waiting changes nothing.
            return "The server refused the request (HTTP \(error.status ?? 0)): check that --to names the right "
                + "kind of server (tus+http(s)://, s3://, a form's URL) and the headers; resuming sends the same."
        case .server:
            return "The server failed; try again later with '\(resume)' (it \(goesOn))."
        case .cancelled: return "Resume it with '\(resume)'."
        case .unauthorized:
            return "Check the credentials (PICKUP_UPLOAD_AUTHORIZATION or -H for tus and forms; AWS_PROFILE, "
                + "~/.aws/credentials or AWS_ACCESS_KEY_ID for S3); Pickup does not retry with wrong ones."
        case .badTarget:
            switch error.targetProblem {
            case .tusServerGivenAsForm:
                return
                    "Give it as --to tus+http://HOST/PATH (or tus+https://): a plain http(s):// URL means a web form."
            case .noTusEndpoint:
                return "Check the endpoint's path (tusd serves /files/); --to tus+http(s)://HOST/PATH."
            case .otherPlace:
                return "Give --to the upload's own URL with its query; to send the file to the other place, "
                    + "'pickup upload FILE --to URL' starts a new upload there."
            case nil, .requestTooLarge:
                return "Use --to tus+http(s)://HOST/PATH, s3://BUCKET/PREFIX or an http(s):// form URL."
            }
        case .tooLarge:
            if error.targetProblem == .requestTooLarge {
                return "Send smaller chunks: '\(resume) --chunk-size MB', below the limit of the server or its proxy."
            }
            return "Export the file smaller (pickup upload --export PRESET) or ask for a larger limit."
        case .certificate:
            return "Check the server's address; for a private certificate authority, trust it (--ca-file or "
                + "SSL_CERT_FILE)."
        case .sourceChanged:
            // The bytes sent no longer match the file: this upload cannot be finished.
            let send = again.map { "'\($0)'" } ?? "run 'pickup upload' on it again"
            return "To send the file as it is now, \(send); '\(cancel(id ?? "ID", journal: journal))' lets this one go."
        case .journal where error.notAJournal:
            return "Give --journal the journal's own file, or a new path to start one: the one named was left as it is."
        case .journal, .busy, .gone, .offsetConflict, .checksumMismatch, .sourceUnreadable, .badAnswer:
            return error.hint
        }
    }

    /// The error as one line: what happened, then what to do.
    static func line(
        _ error: UploadError, journal: String? = nil, id: String? = nil, form: Bool = false, again: String? = nil,
        to url: String? = nil
    ) -> String {
        error.description + ". " + hint(for: error, journal: journal, id: id, form: form, again: again, to: url)
    }

    /// The command that sends `record`'s file anew to the same place, when it can be given whole:
    /// a tus or form target the journal keeps entire (no query left out; S3 needs its endpoint
    /// and credentials, which the journal does not keep).
    static func sendAgain(_ record: UploadRecord, journal: String?) -> String? {
        guard let destination = record.destination, !record.target.hasSuffix(UploadJournal.queryNotStored) else {
            return nil
        }
        switch destination {
        case .tus, .form:
            return "pickup upload \(Text.shellQuoted(record.path)) --to \(Text.shellQuoted(destination.displayName))"
                + journalFlag(journal)
        case .s3, .s3Presigned: return nil
        }
    }
}
