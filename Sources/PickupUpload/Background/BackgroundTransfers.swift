import Foundation
import Pickup
import PickupStore

/// The decisions of background uploads, on every platform: which task sends an upload the
/// foreground hands over, what the journal says when a task ends, what a relaunched app
/// resumes, and how the foreground takes an upload back. PickupUI's `BackgroundUploads` runs
/// them on a background `URLSession`; the tests on a fake that behaves as Apple documents.
///
/// One task a file: a tus upload's rest in one PATCH from `Upload-Offset` (the file itself
/// when nothing was sent yet, else a copy of the rest), an S3 object in one PUT to a
/// presigned URL (the file itself), a form in one POST of its body written to a file. The
/// journal says the background session owns the upload while its task runs; the foreground
/// neither claims nor saves it, so nothing is sent twice.
package actor BackgroundTransfers {
    /// The uploader whose journal, headers, transport and S3 authorization the transfers use.
    package let uploader: Uploader
    let session: any BackgroundSession
    private let folder: String
    let hold: BackgroundHold
    /// Whether this session takes the uploads handed over before sessions were named (the app's
    /// session does; an extension's does not).
    private let adoptsUnnamedUploads: Bool
    /// An extension's session: the App Group's container, which every file it sends must be in.
    private let sharedFolder: String?
    /// How many tasks in a row may carry one upload before it waits for the foreground.
    static let attempts = 3
    /// The longest object S3 takes in one PUT.
    static let largestPut: Int64 = 5 << 30
    /// How long a presigned URL made here lasts: the longest SigV4 allows (a suspended app's
    /// task may start hours later).
    static let presignedSeconds = 604_800

    /// Transfers of `uploader`'s journal on `session`, writing the bodies it needs into `folder`
    /// (the app's own storage: a task's file must outlive the app's process), holding
    /// `background` time while handing over (on iPhone `UIKitBackgroundTime()`).
    /// `adoptsUnnamedUploads`: the app's session, which takes the uploads an earlier version
    /// handed over without naming a session; an extension's session passes false, and its App
    /// Group's container as `sharedFolder`.
    package init(
        uploader: Uploader, session: any BackgroundSession, folder: String,
        background: any BackgroundTimeGranting = NoBackgroundTime(), adoptsUnnamedUploads: Bool = true,
        sharedFolder: String? = nil
    ) {
        self.uploader = uploader
        self.session = session
        self.folder = folder
        self.adoptsUnnamedUploads = adoptsUnnamedUploads
        self.sharedFolder = sharedFolder.map { SystemPath.resolved($0) ?? $0 }
        hold = BackgroundHold("Pickup: handing uploads to the background", granting: background)
    }

    var journal: UploadJournal { uploader.journal }

    /// What became of an upload offered to the background session.
    package enum HandOff: Sendable, Hashable {
        /// A task sends it.
        case handedOver(BackgroundTransfer)
        /// A task was already sending it: nothing new was started.
        case alreadyInBackground
        /// The server already holds it all; the journal says done.
        case finished
        /// It stays with the foreground, for this reason (nothing changed in the journal).
        case staysInForeground(UploadError)
    }

    /// Hands an upload of the journal over to the background session: the server's offset is
    /// asked first (a tus server may hold more than the journal, from a request cut when the
    /// foreground paused), then one task sends the rest. The foreground must have stopped
    /// sending it (`UploadQueue` pauses what it hands over).
    package func handOff(id: String, attempt: Int = 1) async -> HandOff {
        // A first attempt is the app's own hand-off: whatever the person stopped before goes again.
        if attempt == 1 { stoppedByPerson.remove(id) }
        await hold.acquire()
        let result = await handOffHeld(id: id, attempt: attempt)
        await hold.release()
        return result
    }

    private func handOffHeld(id: String, attempt: Int) async -> HandOff {
        if await carried().contains(id) { return .alreadyInBackground }
        let record: UploadRecord
        let lease: Double
        do {
            (record, lease) = try await journal.handOver(id: id, session: session.identifier)
        } catch {
            return .staysInForeground(error)
        }
        // Being prepared here: a restore meanwhile leaves it (no task carries it yet).
        preparing.insert(id)
        defer { preparing.remove(id) }
        do {
            guard let transfer = try await start(record, attempt: attempt, lease: lease) else {
                _ = try await journal.settleFromBackground(
                    id: id, session: session.identifier, state: .done, confirmed: record.size, error: nil)
                return .finished
            }
            return .handedOver(transfer)
        } catch {
            _ = try? await journal.takeBack(id: id, session: session.identifier, lease: lease)
            return .staysInForeground(error)
        }
    }

    /// The uploads this object is handing over now, their tasks not yet started.
    private var preparing: Set<String> = []

    /// An extension's file must be where the app can read it: the app resumes what the
    /// extension's session leaves (a task cancelled or failed), and an extension's own container
    /// is not the app's. Returns `path` as the kernel resolves it (every link and `..` followed),
    /// inside the App Group's container; for the app's session, `path` itself.
    func inSharedFolder(_ path: String) throws(UploadError) -> String {
        guard let sharedFolder else { return path }
        guard let resolved = SystemPath.resolved(path) else {
            throw UploadError(.sourceUnreadable, "no file at \(path); nothing was sent")
        }
        guard resolved.hasPrefix(sharedFolder + "/") else {
            throw UploadError.outsideSharedContainer(path, resolved: resolved, container: sharedFolder)
        }
        return resolved
    }

    /// Prepares and starts the task that sends the rest of `record`; nil when nothing is left.
    private func start(
        _ record: UploadRecord, attempt: Int, lease: Double
    ) async throws(UploadError) -> BackgroundTransfer? {
        // Every hand-over, not only `send`'s: an extension's queue handed off, a task retried.
        _ = try inSharedFolder(record.path)
        let source = try SourceFile(path: record.path)
        guard source.size == record.size, source.modified == record.modified else {
            throw UploadError(.sourceChanged, "\(record.path) changed since the upload began")
        }
        guard let destination = record.destination else {
            throw UploadError(.badTarget, "the journal cannot read where upload \(record.id) goes")
        }
        if record.target.hasSuffix(UploadJournal.queryNotStored) {
            throw UploadError(.badTarget, "this upload's endpoint has a query the journal does not keep")
        }
        let options = uploader.options
        if let problem = HeaderCheck.problem(options.headers) { throw UploadError(.badTarget, problem) }
        var request: HTTPRequest
        var transfer: BackgroundTransfer
        switch destination {
        case .tus(let endpoint):
            let client = TusClient(endpoint: endpoint, options: options)
            var remote = record.remote.flatMap { URL(string: $0) }
            var offset: Int64
            if let known = remote {
                offset = try await client.offset(of: known)
            } else {
                let created = try await client.create(length: record.size, metadata: TusClient.metadata(of: record))
                remote = created.url
                offset = created.offset
                try await journal.recordRemote(
                    id: record.id, remote: created.url.absoluteString, session: session.identifier)
            }
            guard let remote else { throw UploadError(.gone, "the upload has no address on the server") }
            guard offset < record.size else { return nil }
            offset = max(0, offset)
            let body = try bodyFile(
                record, .file(source, offset: offset, length: record.size - offset), whole: offset == 0)
            request = client.patchRequest(remote, offset: offset)
            request.set("Content-Type", "application/offset+octet-stream")
            transfer = BackgroundTransfer(
                id: record.id, kind: .tus, offset: offset, size: record.size, body: body.path,
                bodyIsCopy: body.isCopy, url: remote, attempt: attempt)
        case .s3(let location), .s3Presigned(let location):
            guard record.remote == nil else {
                throw UploadError(
                    .badTarget, "an S3 multipart upload under way goes on in the foreground (its parts are not tasks)")
            }
            guard record.size <= BackgroundTransfers.largestPut else {
                throw UploadError(.tooLarge, "S3 takes at most 5 GB in one PUT: larger files go in the foreground")
            }
            let signer: any S3URLSigner
            if case .s3Presigned = destination, let given = uploader.s3Signer {
                signer = given
            } else if case .s3 = destination, let credentials = uploader.s3Credentials {
                signer = S3Presigner(credentials: credentials, expires: BackgroundTransfers.presignedSeconds)
            } else {
                throw UploadError(.unauthorized, "no S3 credentials or signer for a background upload")
            }
            let url: URL
            do {
                url = try await signer.presignedURL(method: "PUT", location: location, query: [])
            } catch {
                throw UploadError(.unauthorized, "no presigned URL for the background upload: \(error)")
            }
            request = HTTPRequest("PUT", url)
            request.set("Content-Type", record.type)
            transfer = BackgroundTransfer(
                id: record.id, kind: .s3, offset: 0, size: record.size, body: record.path, bodyIsCopy: false,
                url: url, attempt: attempt)
        case .form(let target):
            // The foreground's request, its body written to a file for the task.
            request = FormSteps.request(target, source: source, record: record, options: options)
            let body = try bodyFile(record, request.body, whole: false)
            let head = request.body.fileSpan?.leading
            request.body = .none
            transfer = BackgroundTransfer(
                id: record.id, kind: .form, offset: 0, size: record.size, body: body.path, bodyIsCopy: body.isCopy,
                url: target.url, attempt: attempt, leading: head)
        }
        // The task starts only if the background session still owns the upload once the task
        // exists: the foreground may have taken it back while this one was being prepared.
        let journal = self.journal
        let id = record.id
        let named = session.identifier
        let started: Bool
        do {
            started = try await session.startUpload(
                request, fromFile: transfer.body, description: transfer.taskDescription
            ) {
                (try? await journal.confirmBackground(id: id, session: named, lease: lease)) ?? false
            }
        } catch {
            if transfer.bodyIsCopy { unlink(transfer.body) }
            throw error
        }
        // Taken back while the task was prepared (the app back on screen, or a restore after its
        // preparation's lease ran out): the task was cancelled before it started, and the upload
        // is the foreground's. (The cancelled task's end removes a copied body.)
        guard started else {
            throw UploadError(.busy, "upload \(id) was taken back from the background session before its task started")
        }
        return transfer
    }

    /// The file a task sends: the picked file itself when the body is all of it, else the
    /// body written into `folder`.
    private func bodyFile(
        _ record: UploadRecord, _ body: HTTPBody, whole: Bool
    ) throws(UploadError) -> (path: String, isCopy: Bool) {
        if whole { return (record.path, false) }
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw UploadError(.sourceUnreadable, "the folder for background uploads cannot be made at \(folder)")
        }
        let path = folder + "/" + record.id + "-" + UUID().uuidString + ".body"
        try body.write(toFile: path)
        return (path, true)
    }

    /// Records how a task ended (URLSession's `didCompleteWithError`): its answer's `status`,
    /// `headers` (names in lower case) and `body` (a form's reply), the URL that answered, or its `error` (`.cancelled`
    /// for a task cancelled, `.network` for a connection that failed). A task whose connection
    /// failed, or whose offset the server had passed (409), is handed over again from the
    /// server's offset, a few times in a row. Returns the
    /// record as the journal now holds it; nil for a task that is not Pickup's, or an upload
    /// the foreground took back (then nothing changes).
    @discardableResult
    package func completed(
        description: String?, status: Int?, headers: [String: String], finalURL: URL?, error: UploadError?,
        body: Data = Data()
    ) async -> UploadRecord? {
        guard let transfer = BackgroundTransfer(taskDescription: description) else { return nil }
        if transfer.bodyIsCopy { unlink(transfer.body) }
        let outcome = transfer.outcome(status: status, headers: headers, finalURL: finalURL, error: error)
        switch outcome {
        case .done:
            // Recorded whoever owns it now: bytes on the server are never sent again for nothing.
            let reply = transfer.kind == .form ? UploadRecord.reply(from: body) : nil
            return try? await journal.finishFromBackground(id: transfer.id, size: transfer.size, reply: reply)
        case .stopped(let confirmed, let failure):
            guard
                let record = try? await journal.settleFromBackground(
                    id: transfer.id, session: session.identifier, state: .failed, confirmed: confirmed, error: failure)
            else { return nil }
            // A connection lost on the way, or an offset the server had moved past (it was still
            // taking in a request the foreground cut when it paused): another task goes on from
            // the server's offset, asked again (the system starts it when the network allows).
            // Anything else waits for the foreground. In turn with the app's hand-offs and
            // take-backs (a person's pause or cancel asked meanwhile comes after it, or before).
            let again: Set<UploadError.Code> = [.network, .offsetConflict]
            guard again.contains(failure.code), transfer.attempt < BackgroundTransfers.attempts else { return record }
            let id = transfer.id
            let attempt = transfer.attempt + 1
            switch await inLane({ await self.handOffAgain(id: id, attempt: attempt) }) {
            case .handedOver, .alreadyInBackground, .finished: return try? await journal.record(id: transfer.id)
            case .staysInForeground: return record
            }
        }
    }

    /// What the app resumes at launch: every unfinished upload of the journal that no task of
    /// the background session carries. An upload the journal gives to this session but that
    /// no task carries (its task ended while no app was there to hear it) is given back first,
    /// and so is one whose task was never confirmed (its preparer ended), whichever session it
    /// went to. One another session sends (an extension's: its tasks are not this session's to
    /// see) is left to it, neither resumed nor shown: that session's own restore decides it.
    package func restore() async throws(UploadError) -> (resume: [UploadRecord], inBackground: [UploadRecord]) {
        try await restore(from: await session.pendingTasks())
    }

    /// `restore()` from one snapshot of the session's tasks.
    func restore(
        from tasks: [BackgroundTaskInfo]
    ) async throws(UploadError) -> (resume: [UploadRecord], inBackground: [UploadRecord]) {
        let carried = BackgroundTransfers.carried(tasks)
        try await journal.adopt(carried, session: session.identifier)
        try await journal.takeBackUnconfirmed()
        let background = try await journal.backgroundIDs(
            session: session.identifier, adoptingUnnamed: adoptsUnnamedUploads)
        for id in background.own where !carried.contains(id) && !preparing.contains(id) {
            try await journal.takeBack(id: id, session: session.identifier)
        }
        // An extension's session resumes only files in its App Group's container: the app's own
        // uploads in the shared journal name files the extension cannot read (nor, being kept
        // relative to a home, find).
        let unfinished = try await journal.unfinished().filter {
            !background.others.contains($0.id) && !preparing.contains($0.id)
                && (sharedFolder == nil || (try? inSharedFolder($0.path)) != nil)
        }
        return (unfinished.filter { !carried.contains($0.id) }, unfinished.filter { carried.contains($0.id) })
    }

    /// The uploads the session's running tasks carry (one being cancelled carries nothing).
    private func carried() async -> Set<String> { BackgroundTransfers.carried(await session.pendingTasks()) }

    private static func carried(_ tasks: [BackgroundTaskInfo]) -> Set<String> {
        Set(tasks.filter(\.isRunning).compactMap { $0.transfer?.id })
    }

    /// The file's bytes each upload's running task has sent (`BackgroundTransfer.fileBytes(sent:)`).
    static func bodyBytesSent(_ tasks: [BackgroundTaskInfo]) -> [String: Int64] {
        var sent: [String: Int64] = [:]
        for task in tasks where task.isRunning {
            guard let transfer = task.transfer else { continue }
            sent[transfer.id] = max(sent[transfer.id] ?? 0, transfer.fileBytes(sent: task.bodyBytesSent))
        }
        return sent
    }

    /// Takes an upload back from the background session: the journal first (so that its
    /// task's end, when it comes, changes nothing), then its task is cancelled. The foreground
    /// resumes it from the server's offset. False when the background session did not hold it.
    @discardableResult
    package func takeBack(id: String) async throws(UploadError) -> Bool {
        let held = try await journal.takeBack(id: id, session: session.identifier)
        for task in await session.pendingTasks() where task.isRunning && task.transfer?.id == id {
            await session.cancelTask(task.identifier)
        }
        return held
    }

    /// `takeBack(id:)` in turn with the hand-offs, take-backs and restores asked before it
    /// (a person's pause or cancel while the app returns to the screen): false when this
    /// session did not hold the upload, or could not say.
    package func takeBackInTurn(id: String) async -> Bool {
        await inLane {
            await self.stoppedByPerson(id)
            return (try? await self.takeBack(id: id)) ?? false
        }
    }

    /// The uploads a person paused or cancelled (``takeBackInTurn(id:)``): a lost connection's
    /// retry does not hand them over again, whichever came first in the lane; the app's next
    /// hand-off (a first attempt) does.
    private var stoppedByPerson: Set<String> = []

    private func stoppedByPerson(_ id: String) { stoppedByPerson.insert(id) }

    /// A lost connection's next task, unless the person stopped the upload meanwhile.
    private func handOffAgain(id: String, attempt: Int) async -> HandOff {
        guard !stoppedByPerson.contains(id) else {
            return .staysInForeground(UploadError(.cancelled, "upload \(id) was stopped by the person"))
        }
        return await handOff(id: id, attempt: attempt)
    }

    /// Runs `work` after every piece of work asked before it has ended.
    func inLane<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T {
        let previous = lane
        let task = Task { () async -> T in
            await previous?.value
            return await work()
        }
        lane = Task { _ = await task.value }
        return await task.value
    }

    private var lane: Task<Void, Never>?

    /// The uploads the background session's running tasks carry.
    package func inBackground() async -> Set<String> { await carried() }
}
