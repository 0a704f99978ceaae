import Foundation
import Pickup
import PickupCommandLine
import PickupStore
import PickupUpload

/// `pickup upload --dry-run`: which files would be sent, and where each would go (its S3 key,
/// the tus endpoint, the form's URL), and which the journal says are already there; nothing is
/// sent, exported or written, and the journal is only read.
extension UploadJob {
    /// The files to send and what each is: a folder's photos and videos (and their edits), not
    /// its notes, with those left alone said; nil after a usage mistake (said). `failedEarly`:
    /// some named could not be read (said); `leftAlone`: how many found were not media.
    func mediaToSend() async -> (
        files: [ResolvedFile], probes: [Result<MediaInfo, ProbeError>], failedEarly: Bool, leftAlone: Int
    )? {
        let found: [ResolvedFile]
        let failedEarly: Bool
        let passedOver: [(path: String, reason: String)]
        let notTaken: Int
        do {
            (found, failedEarly, passedOver, notTaken) = try await resolvedPaths()
        } catch {
            Console.error("pickup upload: " + error.message + " (see 'pickup upload --help')")
            return nil
        }
        var (resolved, probes, leftAlone) = UploadJob.mediaOnly(
            found, probes: await ParallelProbe.probe(found.map(\.path)))
        reportLeftAlone(leftAlone, passedOver: passedOver, notTaken: notTaken)
        // An empty file named as a photo or video is an interrupted copy, as probe and import
        // say: not sent (a file named as something else is sent whatever it holds). One cut short
        // (a card pulled out mid-write) is still what the person has of that photo: it goes, said.
        var refused = false
        // So is one named as media that holds something else (misnamed, or damaged past
        // reading): what probe, import and thumb fail, upload takes, and says so. Said of what the
        // run does with the file, not as sent: it may be there already.
        for (index, probe) in probes.enumerated() {
            guard case .failure(let error) = probe, error.code != .empty,
                MediaNames.namedAsMedia(resolved[index].path), !json
            else { continue }
            let what = error.code == .truncated ? " is cut short (\(error.message))" : ": \(error.message)"
            let how = dryRun ? "it would be taken as it is, not left out" : "taken as it is, not left out"
            Console.error(Text.clean("pickup upload: \(resolved[index].path)\(what); \(how)"))
        }
        for index in resolved.indices.reversed() {
            guard case .failure(let error) = probes[index], error.code == .empty,
                MediaNames.namedAsMedia(resolved[index].path)
            else { continue }
            notSent(resolved[index].path, code: error.code.rawValue, message: error.message, hint: error.hint)
            resolved.remove(at: index)
            probes.remove(at: index)
            refused = true
        }
        return (resolved, probes, failedEarly || refused, leftAlone.count)
    }

    func planOnly() async -> Int32 {
        guard let (resolved, probes, failedEarly, leftAlone) = await mediaToSend() else { return ExitStatus.usage }
        var facts = resolved.enumerated().map { index, file in
            RemoteKey.Facts(
                relativePath: file.relativePath, taken: (try? probes[index].get())?.creationDate, itemID: file.item)
        }
        UploadJob.dateCompanions(&facts, probes: probes, items: resolved.map(\.item), paths: resolved.map(\.path))
        let files = resolved.enumerated().map { index, file in
            UploadBatch.File(
                path: file.path,
                type: (try? probes[index].get())?.container.mimeType ?? "application/octet-stream",
                expected: file.expected, facts: facts[index])
        }
        let known = Dictionary(
            resolved.compactMap { file in file.sha256.map { (file.path, $0) } }, uniquingKeysWith: { first, _ in first }
        )
        guard var batch = batch(files, known: known) else { return ExitStatus.usage }
        // A copy made to send (--export, --strip-location) is named after its source; none is made here.
        let copy =
            preset.map { " (exported with \($0.rawValue) first)" }
            ?? (stripLocation ? " (location stripped first)" : "")
        // What the journal says is there, as the run would skip it: read only, and not for a copy
        // (its bytes are known once it is made) nor with --force (the run sends them all).
        // An unfinished upload of the same file the run would go on with, from the server's offset.
        var sent: [Int: UploadRecord] = [:]
        var continuing: [Int: UploadRecord] = [:]
        // One begun before the file changed cannot be finished: the run sends the file anew.
        var outdated: [Int: UploadRecord] = [:]
        if !force, copy.isEmpty, UploadJournal.exists(at: journalPath),
            let journal = try? UploadJournal(path: journalPath, readOnly: true)
        {
            sent = await batch.alreadySent(in: journal)
            let unfinished = await batch.unfinishedUploads(in: journal)
            continuing = unfinished.continuing.filter { sent[$0.key] == nil }
            outdated = unfinished.outdated.filter { sent[$0.key] == nil }
        }
        var bytes = Int64(0)
        for (index, (file, destination)) in zip(batch.files, batch.destinations).enumerated() {
            let size = FileStatus(path: file.path)?.size ?? 0
            if sent[index] == nil { bytes += size - min(size, continuing[index]?.offset ?? 0) }
            if json {
                var object = JSONObject()
                object.add("type", "plan")
                object.add("path", file.path)
                object.add("size", size)
                object.add("target", destination.displayName)
                object.add(
                    "status",
                    sent[index] != nil ? "alreadyThere" : continuing[index] != nil ? "wouldContinue" : "wouldSend")
                if let earlier = sent[index] ?? continuing[index] { object.add("id", earlier.id) }
                if let earlier = continuing[index] { object.add("offset", earlier.offset) }
                if let earlier = outdated[index] { object.add("outdated", earlier.id) }
                // An S3 object's parts apart, for a program: the target above reads "s3://… at URL".
                if case .s3(let location) = destination {
                    object.add("bucket", location.bucket)
                    object.add("key", location.key)
                    object.add("endpoint", redacted(location.endpoint.absoluteString))
                }
                Console.out(object.text)
            } else if let earlier = sent[index] {
                Console.out(
                    Text.clean(
                        "already there \(file.path) (\(Text.byteCount(size))) -> \(destination.displayName) "
                            + "(the journal's \(earlier.id)\(check ? "; --check would ask the server" : "")"
                            + "; --force sends it again)"))
            } else if let earlier = continuing[index], case .form = destination {
                Console.out(
                    Text.clean(
                        "would send \(file.path) (\(Text.byteCount(size))) -> \(destination.displayName) again as the "
                            + "journal's \(earlier.id) (\(UploadJob.earlier(earlier.state)); \(UploadJob.formAgain(key: options.idempotencyKey)))"
                    ))
            } else if let earlier = continuing[index] {
                Console.out(
                    Text.clean(
                        "would continue \(file.path) (at least \(Text.byteCount(earlier.offset)) of "
                            + "\(Text.byteCount(size)) confirmed) -> \(destination.displayName) (the journal's \(earlier.id), "
                            + "\(UploadJob.earlier(earlier.state)); the server says where it goes on)"))
            } else if let earlier = outdated[index] {
                Console.out(
                    Text.clean(
                        "would send \(file.path) (\(Text.byteCount(size)))\(copy) -> \(destination.displayName) anew: "
                            + "the journal's \(earlier.id), begun before it changed, cannot be finished "
                            + "('\(UploadHints.cancel(earlier.id, journal: journalNamed))' lets it go)"))
            } else {
                Console.out(
                    Text.clean(
                        "would send \(file.path) (\(Text.byteCount(size)))\(copy) -> \(destination.displayName)"))
            }
        }
        if !json {
            let count = batch.files.count - sent.count
            if let destination = batch.destinations.first { Console.out("\n" + howSent(destination)) }
            Console.out(
                "\n\(count) file\(count == 1 ? "" : "s") (\(Text.byteCount(bytes))) would be sent"
                    + (continuing.isEmpty
                        ? "" : " (\(continuing.count) going on where \(continuing.count == 1 ? "it" : "they") stopped)")
                    + (sent.isEmpty ? "" : ", \(sent.count) already there")
                    + (failedEarly ? " (+ files that would not be, see above)" : "")
                    + (leftAlone == 0 ? "" : "; \(leftAlone) left alone (not photos or videos)")
                    + ". Nothing was sent (--dry-run); the journal was only read.")
        }
        return failedEarly ? ExitStatus.someFailed : ExitStatus.success
    }

    /// How the files would go, by the protocol the target names, and what a cut costs: a form
    /// given as plain http(s):// where a tus server was meant is seen before anything is sent.
    func howSent(_ destination: UploadDestination) -> String {
        switch destination {
        case .tus:
            return "How: by tus, resumable: a cut upload goes on from the last byte the server confirmed."
        case .form(let form):
            let field = Text.clean(form.field)
            return "How: as a web form, one multipart POST a file (field '\(field)'); a cut one starts again.\n"
                + "     A tus server is given as --to tus+http(s)://HOST/PATH."
        case .s3, .s3Presigned:
            let megabytes = options.multipartThreshold >> 20
            if megabytes == 0 {
                return "How: to S3, in parts (--multipart-threshold 0): a cut upload goes on from the last part "
                    + "the store confirmed."
            }
            return "How: to S3, one PUT a file below \(megabytes) MB (--multipart-threshold; a cut one starts again),\n"
                + "     larger ones in parts (a cut one goes on from the last part the store confirmed)."
        }
    }
}
