import Foundation
import Pickup
import PickupStore

/// A run of uploads as an app or the command line starts one.
///
/// Every file's destination is decided before anything is sent: S3 keys come
/// from a ``RemoteKey`` template, and two files that would land on one key are
/// refused (``KeyCollision``) while nothing has left. Files the journal has
/// already sent with the same bytes (size and SHA-256) to the same destination
/// are not queued but come back as already there; one paused or failed on the
/// way is continued from the server's offset, not started over. The others go to an
/// ``UploadQueue`` and are hashed beside the uploads, at low priority, so that
/// ``recordFinished(_:in:waitForHashes:)`` can note each finished upload's SHA-256: the same
/// bytes are then not sent there again.
///
/// ```swift
/// var batch = try UploadBatch(files: files, to: .tus(endpoint))
/// let alreadyThere = await batch.enqueue(on: queue)
/// let items = await queue.waitUntilSettled()
/// await batch.recordFinished(items, in: journal)
/// ```
public struct UploadBatch: Sendable {
    /// One file to send.
    public struct File: Sendable, Hashable {
        /// The file on disk that is sent.
        public var path: String
        /// Its MIME type (a form's part and tus metadata carry it).
        public var type: String
        /// Which file the path led to when it was found: a file swapped since is refused.
        public var expected: FileIdentity?
        /// What an S3 key template may name about it.
        public var facts: RemoteKey.Facts
        /// The file it was made from, when it is a copy made for the upload (a video exported,
        /// a photo without its location); collisions name that one.
        public var madeFrom: String?

        /// A file to send, with what a key template may name about it.
        public init(
            path: String, type: String = "application/octet-stream", expected: FileIdentity? = nil,
            facts: RemoteKey.Facts, madeFrom: String? = nil
        ) {
            self.path = path
            self.type = type
            self.expected = expected
            self.facts = facts
            self.madeFrom = madeFrom
        }
    }

    /// Where a batch sends its files.
    public enum Target: Sendable, Hashable {
        /// A tus server's creation endpoint.
        case tus(URL)
        /// An S3 bucket on `endpoint`; each object's key is `prefix` then the template's.
        case s3(endpoint: URL, bucket: String, prefix: String, key: RemoteKey)
        /// A web form that takes the file in a `multipart/form-data` POST.
        case form(FormTarget)
    }

    /// Two or more files of a batch that would be stored under one key, one over the other.
    public struct KeyCollision: Error, Sendable, Hashable, CustomStringConvertible {
        /// The key they share.
        public var key: String
        /// The files, in the order given (each the one it was made from, for a copy).
        public var sources: [String]
        /// How many other keys are shared too.
        public var more: Int

        public var description: String {
            "\(sources.joined(separator: " and ")) would all be stored as \(key), one over the other; nothing was "
                + "sent. Name them apart with a key template that tells them apart ('{date}/{name}' or "
                + "'{id}-{name}', say)" + (more > 0 ? " (\(more) more keys collide)" : "")
        }
    }

    /// The files, in the order given.
    public let files: [File]
    /// Where each file goes, by position.
    public let destinations: [UploadDestination]
    /// What each tus upload the batch starts carries besides its file's name and type
    /// (``UploadRecord/metadata``).
    public var metadata: [String: String] = [:]
    private var digests: FileDigests
    private var hashing: Task<FileDigests, Never>?
    /// Each queued file's path as given, by its queue id (the journal keeps it absolute).
    private var queuedPaths: [Int: String] = [:]
    /// The finished uploads found already there by path, size and modification time alone (their
    /// run was interrupted before it recorded their SHA-256), with the file's path as given:
    /// hashed beside this run and recorded with it, so that the same bytes under another name
    /// are found there too.
    private var unhashed: [(id: String, path: String)] = []
    /// The positions `sameBytes` last found by path, size and modification time alone.
    private var foundUnhashed: Set<Int> = []
    /// The files `enqueue` continues from an upload the journal holds paused or failed (by
    /// position), with that upload's record.
    public private(set) var continued: [Int: UploadRecord] = [:]
    /// The files the journal had sent but their server no longer has (`enqueue(check: true)`),
    /// sent again, by position, with the upload the server lost.
    public private(set) var lost: [Int: UploadRecord] = [:]
    /// The files another live process is sending now (the journal's claim holds), by position,
    /// with that upload and the process's id: not queued, so that nothing is sent twice. Once
    /// that process ends, the same batch again finds each one already there, or goes on with it.
    public private(set) var sentElsewhere: [Int: (record: UploadRecord, process: Int64)] = [:]
    /// The files sent anew while the journal holds an unfinished upload of the same path to the
    /// same place, begun before the file changed (by position, with that upload): it cannot be
    /// finished, and is left for the caller to cancel or tell about.
    public private(set) var outdated: [Int: UploadRecord] = [:]
    /// The files whose S3 key holds other bytes Pickup sent there (by position, with that
    /// upload): not queued, so that a photo is never replaced by another of its name (a second
    /// camera's IMG_0001.JPG, a counter that started again). `enqueue(force: true)` sends them
    /// over it.
    public private(set) var keyTaken: [Int: UploadRecord] = [:]

    /// Decides every file's destination. `knownSHA256`: digests already known by path (a
    /// library's files, checked against its catalog), so that those files are not read again.
    public init(files: [File], to target: Target, knownSHA256: [String: String] = [:]) throws(KeyCollision) {
        var digests = FileDigests()
        for (path, sha256) in knownSHA256 { digests.note(sha256, of: path) }
        var destinations: [UploadDestination] = []
        switch target {
        case .tus(let url):
            destinations = files.map { _ in .tus(endpoint: url) }
        case .form(let form):
            destinations = files.map { _ in .form(form) }
        case .s3(let endpoint, let bucket, let prefix, let template):
            var keys: [String] = []
            for file in files {
                var facts = file.facts
                if template.needsSHA256 { facts.sha256 = digests.sha256(of: file.path) }
                keys.append(UploadBatch.key(prefix: prefix, template.render(facts)))
            }
            let collisions = RemoteKey.collisions(zip(keys, files).map { (key: $0, source: $1.madeFrom ?? $1.path) })
            if let first = collisions.first {
                throw KeyCollision(key: first.key, sources: first.sources, more: collisions.count - 1)
            }
            destinations = keys.map { .s3(S3Location(endpoint: endpoint, bucket: bucket, key: $0)) }
        }
        self.files = files
        self.destinations = destinations
        self.digests = digests
    }

    /// An object's key: the prefix, then `name` (a `/` between them unless the prefix ends with one).
    public static func key(prefix: String, _ name: String) -> String {
        prefix.isEmpty || prefix.hasSuffix("/") ? prefix + name : prefix + "/" + name
    }

    /// Puts the batch on `queue`. A file the journal has already sent with the same bytes to its
    /// destination is left out (unless `force`) and returned, by position, with that upload's
    /// record; only a file of the size of such an upload is read to compare. The others are
    /// queued, in order, and hashed on a low-priority thread beside the uploads.
    /// `check`: a file the journal says is there is skipped only when its server says so too
    /// (`Uploader.isStillThere`); one the server lost, or cannot speak for, is sent again.
    public mutating func enqueue(
        on queue: UploadQueue, force: Bool = false, check: Bool = false
    ) async -> [Int: UploadRecord] {
        let journal = queue.uploader.journal
        let statuses = files.map { FileStatus(path: $0.path) }
        let sizes = statuses.map { $0?.size ?? -1 }
        // The whole batch's candidates in one journal call: finished uploads of each file's size
        // to its destination.
        let candidates =
            force ? [] : ((try? await journal.finishedUploads(to: Array(zip(destinations, sizes)))) ?? [])
        // What each S3 key holds now, as far as Pickup sent it: another object is not replaced.
        let replacing = destinations.map(\.replacesObject)
        let newest =
            force || !replacing.contains(true)
            ? [] : ((try? await journal.newestFinished(to: destinations)) ?? [])
        // An upload of the same file (path, size, modification time) to the same destination
        // that was paused, failed, or cut off by a killed process goes on from the server's
        // offset instead of starting over (`Unfinished`).
        var unfinished = force ? Unfinished() : await Unfinished(in: journal)
        let sent = await sameBytes(candidates, statuses: statuses)
        var alreadyThere: [Int: UploadRecord] = [:]
        var queued: [String] = []
        for (index, file) in files.enumerated() {
            // Metadata is part of what was asked: an upload with other metadata is not this one
            // (a server's hooks file it elsewhere), so it is neither already there nor continued.
            let wanted = destinations[index].isTusUpload ? metadata : [:]
            if let earlier = sent[index], earlier.metadata == wanted {
                let confirmed = check ? ((try? await queue.uploader.isStillThere(earlier)) ?? false) : true
                if confirmed {
                    alreadyThere[index] = earlier
                    if foundUnhashed.contains(index) {
                        unhashed.append((earlier.id, file.path))
                        if digests.known(file.path) == nil { queued.append(file.path) }
                    }
                    continue
                }
                lost[index] = earlier
            }
            if index < newest.count, replacing[index], let held = newest[index],
                UploadBatch.holdsOtherBytes(held, size: sizes[index], sha256: digests.known(file.path))
            {
                keyTaken[index] = held.record
                continue
            }
            let destination = destinations[index]
            let fate = unfinished.take(file, status: statuses[index], to: destination)
            switch fate {
            case .sentElsewhere(let earlier, let process):
                sentElsewhere[index] = (earlier, process)
                continue
            case .continues(let earlier) where earlier.metadata == wanted:
                continued[index] = earlier
                // The endpoint is given again when the journal keeps it without its query.
                let id = await queue.add(
                    restoring: earlier, endpoint: destination.stored == destination ? nil : destination.url)
                queuedPaths[id] = file.path
            case .continues, .startsAnew:
                if case .startsAnew(let old?) = fate { outdated[index] = old }
                let id = await queue.add(
                    .upload(
                        path: file.path, to: destination, type: file.type, expected: file.expected, metadata: wanted))
                queuedPaths[id] = file.path
            }
            queued.append(file.path)
        }
        // Hashed beside the uploads (from the page cache, as a rule), not after them: on a fast
        // link hashing afterwards added a fifth to the time.
        let known = digests
        hashing = Task { [queued] in await known.adding(queued) }
        return alreadyThere
    }

    /// The journal's uploads a run may go on with: paused, failed, or cut off by a killed
    /// process (still `uploading`). Running the same command again continues one from the
    /// server's offset. One another live process sends is left to it (`sentElsewhere`): its
    /// claim holds (`UploadJournal.claim`), and nothing is sent twice. One this process or the
    /// background session sends is left to it.
    private struct Unfinished {
        /// By `resumeKey` (path, size, modification time, destination); the newest of each.
        var byFile: [String: UploadRecord] = [:]
        /// By path and destination only: one of another size or time is outdated.
        var byPlace: [String: UploadRecord] = [:]
        /// The uploads another live process sends, with its id.
        var elsewhere: [String: Int64] = [:]

        init() {}

        /// What becomes of a file to send (`status`: its status as the run found it):
        enum Fate {
            /// an unfinished upload of it that another live process sends now (a form's POST
            /// too) is left to that process;
            case sentElsewhere(UploadRecord, process: Int64)
            /// the same file's unfinished upload goes on: tus and S3 from the server's offset, a
            /// form sent again whole as the same upload (its Idempotency-Key unchanged, so a
            /// server that stored the earlier try keeps one copy);
            case continues(UploadRecord)
            /// a file without an unfinished upload starts one: `outdated`, one of its path to the
            /// same place begun before the file changed, which cannot be finished.
            case startsAnew(outdated: UploadRecord?)
        }

        /// The fate of `file` sent to `destination`; an upload continued or left elsewhere is
        /// taken, so that no other file of the batch takes it too.
        mutating func take(_ file: File, status: FileStatus?, to destination: UploadDestination) -> Fate {
            let path = SystemPath.absolute(file.path)
            let same = status.flatMap { status in
                status.identity == file.expected || file.expected == nil
                    ? UploadBatch.resumeKey(path, status.size, status.modified, destination.stored) : nil
            }
            if let same, let earlier = byFile[same], let process = elsewhere[earlier.id] {
                byFile[same] = nil
                return .sentElsewhere(earlier, process: process)
            }
            if let same, let earlier = byFile.removeValue(forKey: same) {
                return .continues(earlier)
            }
            let old = byPlace[UploadBatch.resumeKey(path, 0, 0, destination.stored)]
            guard let old, old.size != status?.size || old.modified != status?.modified else {
                return .startsAnew(outdated: nil)
            }
            return .startsAnew(outdated: old)
        }

        init(in journal: UploadJournal) async {
            let held = (try? await journal.heldHere()) ?? []
            elsewhere = (try? await journal.sentElsewhere()) ?? [:]
            for record in (try? await journal.unfinished()) ?? []
            where record.state == .paused || record.state == .failed || !held.contains(record.id) {
                // Found by the destination as given or by its twin (`…/files` for `…/files/`).
                for place in [record.destination] + [record.destination?.twin].filter({ $0 != nil }) {
                    let key = UploadBatch.resumeKey(record.path, record.size, record.modified, place)
                    if byFile[key] == nil { byFile[key] = record }  // the newest, as listed
                    let placeKey = UploadBatch.resumeKey(record.path, 0, 0, place)
                    if byPlace[placeKey] == nil { byPlace[placeKey] = record }
                }
            }
        }
    }

    /// What a run would do with the journal's unfinished uploads of these files, by position:
    /// go on with one from the server's offset (`continuing`: tus and S3, the same file; its
    /// `offset` the bytes confirmed when it stopped, the run asks the server), or send the file
    /// anew beside one begun before it changed (`outdated`, as `enqueue` finds it). Nothing is
    /// sent or written. What `--dry-run` says.
    public func unfinishedUploads(
        in journal: UploadJournal
    ) async -> (continuing: [Int: UploadRecord], outdated: [Int: UploadRecord]) {
        var open = await Unfinished(in: journal)
        var continuing: [Int: UploadRecord] = [:]
        var outdated: [Int: UploadRecord] = [:]
        for (index, file) in files.enumerated() {
            switch open.take(file, status: FileStatus(path: file.path), to: destinations[index]) {
            case .sentElsewhere: break
            case .continues(let earlier): continuing[index] = earlier
            case .startsAnew(let old): outdated[index] = old
            }
        }
        return (continuing, outdated)
    }

    /// The files the journal has already sent with the same bytes (size and SHA-256) to their
    /// destinations, by position, with that upload's record: what ``enqueue(on:force:check:)``
    /// leaves out (`check` aside). Nothing is sent or written; only a file of the size of such
    /// an upload is read. What `--dry-run` says is already there.
    public mutating func alreadySent(in journal: UploadJournal) async -> [Int: UploadRecord] {
        let statuses = files.map { FileStatus(path: $0.path) }
        let sizes = statuses.map { $0?.size ?? -1 }
        return await sameBytes(
            (try? await journal.finishedUploads(to: Array(zip(destinations, sizes)))) ?? [], statuses: statuses)
    }

    /// Of the finished uploads each file might repeat (`candidates`, by position, by SHA-256),
    /// the one with the file's bytes; `statuses`: each file's, as the caller found it. Only a
    /// file with a candidate is read, on a low-priority thread of its own (an app may enqueue
    /// from the main actor).
    private mutating func sameBytes(
        _ candidates: [[String: UploadRecord]], statuses: [FileStatus?]
    ) async -> [Int: UploadRecord] {
        var found: [Int: UploadRecord] = [:]
        var toCompare: [Int] = []
        foundUnhashed = []
        for index in files.indices where index < candidates.count && !candidates[index].isEmpty {
            // One that finished before its SHA-256 was recorded: the same file, unchanged (path,
            // size and modification time), is there; nothing is read.
            if index < statuses.count, let status = statuses[index],
                let earlier = candidates[index][
                    UploadJournal.unhashedKey(path: SystemPath.absolute(files[index].path), modified: status.modified)]
            {
                found[index] = earlier
                foundUnhashed.insert(index)
            } else {
                toCompare.append(index)
            }
        }
        if !toCompare.isEmpty { digests = await digests.adding(toCompare.map { files[$0].path }) }
        for index in toCompare {
            if let sha256 = digests.known(files[index].path), let earlier = candidates[index][sha256] {
                found[index] = earlier
            }
        }
        return found
    }

    /// Whether the upload `held` (the newest finished one to a key) sent other bytes than a file
    /// of `size` and `sha256` (nil: not read, as no upload of its size went there): another
    /// size, or another SHA-256 when both are known. Same size with a digest unknown on either
    /// side is not taken for other bytes (it may be the same file).
    static func holdsOtherBytes(
        _ held: (record: UploadRecord, sha256: String?), size: Int64, sha256: String?
    ) -> Bool {
        if held.record.size != size { return size >= 0 }
        guard let sha256, let heldSHA256 = held.sha256 else { return false }
        return heldSHA256 != sha256
    }

    /// What makes two uploads the same one, to continue it: the file and where it goes.
    /// (A record another process is sending is refused by its lease when resumed.)
    /// The destination is compared as the journal writes it (`UploadJournal.json`).
    static func resumeKey(_ path: String, _ size: Int64, _ modified: Int64, _ destination: UploadDestination?) -> String
    {
        let place = destination.flatMap { try? UploadJournal.json($0) }
        return "\(path)\u{0}\(size)\u{0}\(modified)\u{0}\(place ?? "")"
    }

    /// Records the SHA-256 of each finished upload's file in one transaction, so that sending
    /// the same bytes there again is skipped. `waitForHashes: false` (a run interrupted) does
    /// not wait for the hashing of every file to end: the finished uploads' own files are read
    /// when they come to at most 64 MB (a camera roll's photos, in well under a second), and the
    /// others are hashed by the next run that finds them there.
    public mutating func recordFinished(
        _ items: [UploadQueue.Item], in journal: UploadJournal, waitForHashes: Bool = true
    ) async {
        if waitForHashes, let hashing { digests = await hashing.value }
        hashing = nil
        // The journal keeps the absolute path; the batch, the path as given (a.mp4).
        let paths = queuedPaths
        if !waitForHashes {
            let finished = items.filter { $0.state == .done }.compactMap { paths[$0.id] }
            let missing = finished.filter { digests.known($0) == nil }
            if missing.reduce(Int64(0), { $0 + (FileStatus(path: $1)?.size ?? 0) }) <= 64 << 20 {
                digests = await digests.adding(missing)
            }
        }
        await UploadBatch.record(items, digests: digests, in: journal) { paths[$0.id] ?? $0.record?.path }
        let known = digests
        try? await journal.recordSHA256(unhashed.compactMap { id, path in known.known(path).map { (id, $0) } })
    }

    /// Records the SHA-256 of each finished upload of `items` that came from the journal (a
    /// resumed upload), read on a low-priority thread: a resumed upload, once done, is skipped
    /// as already there when the same bytes go there again, as one sent whole is.
    public static func recordFinished(resumed items: [UploadQueue.Item], in journal: UploadJournal) async {
        let paths = items.filter { $0.state == .done }.compactMap { $0.record?.path }
        let digests = await FileDigests().adding(paths)
        await record(items, digests: digests, in: journal) { $0.record?.path }
    }

    /// Records, in one transaction, the SHA-256 of each done item's file (found by `path`)
    /// among `digests`; a file not hashed is left without one.
    private static func record(
        _ items: [UploadQueue.Item], digests: FileDigests, in journal: UploadJournal,
        path: (UploadQueue.Item) -> String?
    ) async {
        var hashes: [(id: String, sha256: String)] = []
        for item in items where item.state == .done {
            guard let record = item.record, let file = path(item), let sha256 = digests.known(file) else { continue }
            hashes.append((record.id, sha256))
        }
        try? await journal.recordSHA256(hashes)
    }
}
