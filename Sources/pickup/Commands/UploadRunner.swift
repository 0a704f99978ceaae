import ArgumentParser
import Foundation
import Pickup
import PickupCommandLine
import PickupHTTP
import PickupImport
import PickupStore
import PickupUpload

/// Runs a queue of uploads and reports them: on a terminal, a line when an
/// upload starts, retries or ends, under a progress bar of the total; otherwise
/// a line per event on standard error (nothing with --json); then one line per
/// final record on standard output, in the order given.
enum UploadRunner {
    /// `sources`: for a file sent in place of another (a stripped photo, an exported video),
    /// the file it was made from, printed beside it.
    /// `journal`: the journal the person named (`--journal`), said again in the resume hint.
    /// `tries`: the tries each upload has, `triesOf` those of uploads (by journal id) that were given
    /// their own (a resume gives each the ones its first run allowed).
    static func run(
        _ queue: UploadQueue, json: Bool, progress: ProgressOptions, sources: [String: String] = [:], tries: Int = 8,
        triesOf: [String: Int] = [:], journal: String? = nil
    ) async -> [UploadQueue.Item] {
        let terminal = !json && Console.errorIsTerminal
        let showBar = terminal && progress.showsProgress
        let reporter = Task {
            var items: [Int: UploadQueue.Item] = [:]
            // Each item's bytes from before this run: what the journal had when it was first
            // seen, then what its server said it kept (`resumedFrom`).
            var journalHad: [Int: Int64] = [:]
            var bar: ProgressBar?
            for await item in queue.updates {
                let previous = items[item.id]
                items[item.id] = item
                if previous == nil { journalHad[item.id] = item.confirmed }
                let tries = item.uploadID.flatMap { triesOf[$0] } ?? tries
                if json {
                    // Every retry, as it happens, for scripts too: a line of its own.
                    if let (error, delay) = newRetry(item, previous: previous) {
                        Console.raw(retryLine(item, error: error, delay: delay, tries: tries))
                    }
                    continue
                }
                let total = items.values.reduce(Int64(0)) { $0 + $1.size }
                // The bar moves with the bytes sent; the lines below tell only confirmed ones.
                let sent = items.values.reduce(Int64(0)) { $0 + $1.progressBytes }
                if showBar, bar?.totalBytes != total { bar = ProgressBar(totalItems: items.count, totalBytes: total) }
                if !progress.quiet,
                    let line = report(
                        item, previous: previous, percent: !terminal && progress.showsProgress, tries: tries,
                        source: sources[item.path])
                {
                    bar?.finish()
                    Console.error(Text.clean(line))
                }
                // The file this change is about when it is sending, else one that is.
                let sending = items.values.filter { $0.state == .uploading }.sorted { $0.id < $1.id }
                let shown = item.state == .uploading ? item : sending.first ?? item
                let carried = items.values.reduce(Int64(0)) { $0 + ($1.resumedFrom ?? journalHad[$1.id] ?? 0) }
                bar?.draw(
                    itemsDone: items.values.filter { $0.state == .done }.count, bytesDone: sent,
                    current: Text.clean((shown.path as NSString).lastPathComponent),
                    alsoRunning: max(0, sending.count - 1), carried: carried, force: true)
            }
            bar?.finish()
        }
        let items = await queue.waitUntilSettled()
        await queue.close()
        await reporter.value
        Console.raw(
            items.compactMap { $0.record }.map { record in
                let source = sources[record.path]
                return json
                    ? line(record, source: source, journal: journal) : summary(record, source: source, journal: journal)
            }.joined())
        return items
    }

    /// The line an update deserves, if any: starts, retries, ends; with `percent` (not on a terminal),
    /// progress too, at each tenth of a file.
    /// `source`: the file a copy sent in its place was made from, named instead of the copy.
    static func report(
        _ item: UploadQueue.Item, previous: UploadQueue.Item?, percent: Bool, tries: Int, source: String? = nil
    ) -> String? {
        let id = shownID(item)
        // Every retry, as it happens: what failed, the wait, and which try comes next.
        if let (error, delay) = newRetry(item, previous: previous) {
            return "\(id) \(error.description); retrying in \(Text.fixed(delay, 1)) s "
                + "(retry \(item.retries) of \(tries - 1))"
        }
        if item.uploadID != nil, previous?.uploadID == nil {
            return "\(id) uploading \(source.map { $0 + " (a copy made to send)" } ?? item.path) "
                + "(\(Text.byteCount(item.size)))"
        }
        // One that never began (the run stopped first) has nothing to tell: the stop counts it.
        if item.state == .paused, previous?.state != .paused, item.uploadID != nil {
            return "\(id) paused at \(Text.byteCount(item.confirmed))"
        }
        // Progress once there is some to tell: a size known, and a new tenth of the file confirmed
        // since the last update (a log gets ten lines a file at most, not one a chunk).
        if percent, item.state == .uploading, item.size > 0, let previous,
            item.confirmed * 10 / item.size > previous.confirmed * 10 / item.size
        {
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

    /// A record's line after an upload, a resume or a prune: its id, state, file, target and
    /// bytes, then how to go on with it or why it failed (`uploads list` uses `table`).
    static func summary(
        _ record: UploadRecord, source: String? = nil, journal: String? = nil
    ) -> String {
        // A copy made to send (a video exported, a photo without its location) is named by its
        // source; the copy's own path is in --json and the journal.
        var text =
            "\(record.id) \(record.state.rawValue) \(source ?? record.path) -> \(shownTarget(record)) "
            + "\(Text.byteCount(record.offset))/\(Text.byteCount(record.size))"
        if source != nil { text += " (a copy made to send)" }
        // A form's answer, what the web app says of the file (--json gives it whole).
        let reply = record.state == .done ? record.reply.map { "\n  server replied: " + excerpt($0) } ?? "" : ""
        return Text.clean(text + note(record, journal: journal)) + reply + "\n"
    }

    /// The first line of a server's answer, at most 200 characters, on one line.
    static func excerpt(_ text: String) -> String {
        let (line, cut, more) = UploadRecord.firstLine(of: text, limit: 200)
        return Text.clean(line) + (more && !cut ? " …" : "")
    }

    /// What follows a record's line: how to go on with a paused one, a failed one's error.
    /// `sending`: the uploads another live process sends now, by id, with its process id.
    private static func note(_ record: UploadRecord, journal: String?, sending: [String: Int64] = [:]) -> String {
        if record.state == .paused {
            // Paused is not a failure: what stopped it (Ctrl-C, an endpoint gone) was said already.
            return
                ": '\(UploadHints.resume(record, journal: journal))' \(UploadHints.goesOn(form: record.isForm))"
        }
        let form = record.isForm
        // Sending, as the journal says: by a pickup still running (its claim holds), or by one
        // that was killed (an error it kept is from a try before, not why it stopped).
        if record.state == .uploading || record.state == .waiting {
            if let process = sending[record.id] { return ": process \(process) is sending it now" }
            return
                ": cut off earlier (no pickup sends it now); "
                + "'\(UploadHints.resume(record, journal: journal))' "
                + (form || record.remote == nil ? "sends it from the start" : UploadHints.goesOn(form: false))
        }
        if let error = record.error {
            return ": "
                + UploadHints.line(
                    error, journal: journal, id: record.id == "-" ? nil : record.id, form: form,
                    again: UploadHints.sendAgain(record, journal: journal), to: UploadHints.urlToGiveAgain(record))
        }
        return ""
    }

    /// `uploads list`: a header row, then a row a record, its id, state and bytes in columns
    /// as wide as their longest cell, then the file, where it goes, its URL and, after a colon, any note (what stopped it, what to do).
    /// `sending`: the uploads another live process sends now (`UploadJournal.sentElsewhere`).
    static func table(_ records: [UploadRecord], journal: String? = nil, sending: [String: Int64] = [:]) -> String {
        let bytes = records.map { "\(Text.byteCount($0.offset))/\(Text.byteCount($0.size))" }
        let idWidth = records.map(\.id.count).max().map { max($0, 2) + 2 } ?? 4
        let stateWidth = records.map(\.state.rawValue.count).max().map { max($0, 5) + 2 } ?? 7
        let bytesWidth = bytes.map(\.count).max().map { max($0, 14) + 2 } ?? 16
        var text =
            Text.pad("ID", idWidth) + Text.pad("STATE", stateWidth) + Text.pad("CONFIRMED/SIZE", bytesWidth)
            + "FILE -> TARGET URL: NOTE\n"
        for (record, bytes) in zip(records, bytes) {
            let row =
                Text.pad(record.id, idWidth) + Text.pad(record.state.rawValue, stateWidth) + Text.pad(bytes, bytesWidth)
                + "\(record.path) -> \(shownTarget(record)) \(record.url ?? "(no upload URL yet)")"
                + note(record, journal: journal, sending: sending)
            text += Text.clean(row) + "\n"
        }
        return text
    }

    /// The closing line: how many files arrived, were already there or failed, and the bytes
    /// sent, the time and the rate.
    /// `leftAlone`: files in the folders named that are not photos or videos, not sent.
    /// `before`: the bytes each upload (by journal id) had confirmed before this run, as the
    /// journal kept them, for one the server never answered this run; the server's own count,
    /// when it gave one (`Item.resumedFrom`), comes first. They count neither in the bytes sent
    /// nor in the rate.
    /// `resumed`: the uploads come from the journal (`uploads resume`): each began in an earlier
    /// run, so one paused before it went on again is paused, not "not started".
    /// `notSent`: files refused before sending, each said above (counted among the files).
    static func closing(
        _ items: [UploadQueue.Item], alreadyThere: Int, failedEarly: Bool, notSent: Int = 0, since began: Date,
        leftAlone: Int = 0, elsewhere: Int = 0, before: [String: Int64] = [:], resumed: Bool = false
    ) -> String {
        let done = items.filter { $0.state == .done }
        // Paused before they began (a stop, a Ctrl-C): not started, as the stop line says.
        let notStarted = resumed ? 0 : items.filter { $0.state == .paused && $0.uploadID == nil }.count
        let paused = items.filter { $0.state == .paused }.count - notStarted
        let failed = items.count - done.count - paused - notStarted
        // Every byte the server confirmed, paused uploads' too (a Ctrl-C after 17 MB says 17 MB).
        var bytes = Int64(0)
        var earlier = Int64(0)
        for item in items {
            let confirmed = item.state == .done ? item.size : item.confirmed
            // What the server kept can be more than the journal's count (the interrupted run's
            // last request landed): those bytes were sent then, not in this run.
            let start = min(confirmed, item.resumedFrom ?? item.uploadID.flatMap { before[$0] } ?? 0)
            bytes += confirmed - start
            earlier += start
        }
        let seconds = max(0.001, Date().timeIntervalSince(began))
        let total = items.count + alreadyThere + elsewhere + notSent
        var parts = ["\(done.count) uploaded", "\(alreadyThere) already there"]
        if elsewhere > 0 { parts.append("\(elsewhere) left to another process") }
        if paused > 0 { parts.append("\(paused) paused") }
        if notStarted > 0 { parts.append("\(notStarted) not started") }
        if notSent > 0 {
            parts.append("\(failed) failed")
            parts.append("\(notSent) not sent (see above)")
        } else {
            parts.append("\(failed) failed" + (failedEarly ? " (+ files not sent, see above)" : ""))
        }
        let aside = leftAlone > 0 ? "; \(leftAlone) left alone (not photos or videos)" : ""
        // Nothing to send: said so, without a byte count and a rate of nothing.
        if items.isEmpty, alreadyThere > 0, !failedEarly, elsewhere == 0 {
            return "\n" + (alreadyThere == 1 ? "The file was" : "All \(alreadyThere) files were")
                + " already there; nothing was sent\(aside)."
        }
        let counts = "\n\(total) file\(total == 1 ? "" : "s"): " + parts.joined(separator: ", ") + aside + ". "
        // Nothing queued (left to another process, or not sent, see above): no rate of nothing.
        if items.isEmpty { return counts + "Nothing was sent." }
        return counts
            + "\(Text.byteCount(bytes)) confirmed in \(Text.fixed(seconds, 1)) s (\(Text.byteCount(Int64(Double(bytes) / seconds)))/s)"
            + (earlier > 0 ? ", besides \(Text.byteCount(earlier)) confirmed before this run." : ".")
    }

    /// Says once that the run stopped at an endpoint that cannot be reached, and what is left
    /// (a `stopped` line with `--json`).
    static func stopped(
        _ error: UploadError, items: [UploadQueue.Item], json: Bool, journal: String? = nil,
        command: String = "pickup upload", resumed: Bool = false
    ) {
        // Uploads resumed from the journal all began in an earlier run (see `closing`).
        let begun = items.filter { $0.state == .paused && (resumed || $0.uploadID != nil) }.count
        let left = items.filter { $0.state == .paused && !resumed && $0.uploadID == nil }.count
        // The uploads that used their retries on it: failed, and resumed as the paused ones are.
        let failed = items.filter {
            if case .failed(let error) = $0.state { return error.unreachable } else { return false }
        }.count
        if json {
            var object = JSONObject()
            object.add("type", "stopped")
            object.add(
                "error",
                object: JSONObject.error(
                    code: error.code.rawValue, message: error.description,
                    hint: UploadHints.hint(for: error, journal: journal)))
            object.add("paused", Int64(begun))
            object.add("failed", Int64(failed))
            object.add("notStarted", Int64(left))
            Console.raw(object.text + "\n")
            return
        }
        Console.error(
            Text.clean(
                "\(command): stopped: the endpoint cannot be reached (\(error.description)); every upload "
                    + "there would fail the same way. "
                    + [
                        failed > 0 ? "\(failed) failed after \(failed == 1 ? "its" : "their") retries" : nil,
                        begun > 0 ? "\(begun) paused" : nil,
                        left > 0 ? "\(left) file\(left == 1 ? "" : "s") not started" : nil,
                    ].compactMap { $0 }.joined(separator: ", ")
                    + ": run the same command again when it is back"
                    // `uploads resume` goes on only with uploads the journal holds: not the files
                    // never started, which only the same command sends.
                    + (begun + failed > 0 && left == 0 ? " (or '\(UploadHints.resume(journal: journal))')." : ".")))
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
        _ record: UploadRecord, source: String? = nil, status: String? = nil, path: String? = nil,
        journal: String? = nil
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
        object.add("url", record.url)
        // A form's answer: what the web app says of the file it took (or why it refused it).
        if record.isForm { object.add("reply", record.reply) }
        // What a tus upload was created with besides its file's name and type.
        if !record.metadata.isEmpty {
            var metadata = JSONObject()
            for (key, value) in record.metadata.sorted(by: { $0.key < $1.key }) { metadata.add(key, value) }
            object.add("metadata", object: metadata)
        }
        // A paused upload was stopped on purpose (Ctrl-C, the endpoint gone): no error of its own.
        let error = record.state == .paused && record.error?.code == .cancelled ? nil : record.error
        let id = record.id == "-" ? nil : record.id
        object.add(
            "error",
            object: error.map {
                JSONObject.error(
                    code: $0.code.rawValue, message: $0.description,
                    hint: UploadHints.hint(
                        for: $0, journal: journal, id: id, form: record.isForm,
                        again: UploadHints.sendAgain(record, journal: journal), to: UploadHints.urlToGiveAgain(record)))
            })
        return object.text + "\n"
    }
}

extension UploadRecord {
    /// Whether it is a form's POST, which has no offset to go on from: resuming sends it whole.
    var isForm: Bool {
        if case .form = destination { return true }
        return false
    }
}
