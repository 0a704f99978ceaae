import Foundation
import Pickup
import PickupStore

/// Uploads waiting their turn, a few at a time, each one pausable, resumable
/// and cancellable; every change of any upload is reported on `updates` — what
/// an upload screen binds to. Paused and interrupted uploads go on from the
/// journal, so from the last byte the server confirmed.
public actor UploadQueue {
    /// What to upload, and where.
    public enum Job: Sendable {
        /// A file and where it goes; `expected`, which file the path led to when it was found
        /// (a file swapped since, for a link say, is refused); `metadata`, what a tus upload
        /// carries besides its file's name and type (``UploadRecord/metadata``).
        case upload(
            path: String, to: UploadDestination, type: String = "application/octet-stream",
            expected: FileIdentity? = nil, metadata: [String: String] = [:])
        /// An upload the journal holds; `endpoint` when it must be given again (its query was not stored).
        case journal(id: String, endpoint: URL? = nil)
    }

    /// Where an item stands in the queue.
    public enum State: Sendable, Hashable {
        /// Waiting for a free slot.
        case waiting
        /// Being sent.
        case uploading
        /// Stopped by `pause`; `resume` goes on from the server's offset.
        case paused
        /// On the server, finished.
        case done
        /// Stopped for good by `cancel`.
        case cancelled
        /// Stopped by this error; `resume` tries again.
        case failed(UploadError)
        /// Sent by the system's background session (PickupUI's `BackgroundUploads`), which
        /// records its end in the journal; the app takes it back to send it here again, and
        /// `pause` and `cancel` take it back first.
        case inBackground

        /// Whether the queue is done with it (paused uploads wait for `resume`).
        public var isSettled: Bool { self != .waiting && self != .uploading }
    }

    /// One upload as the queue sees it.
    public struct Item: Sendable, Identifiable {
        /// The queue's number for it, in the order added.
        public let id: Int
        /// The file being uploaded.
        public var path: String
        /// Where it stands.
        public var state: State = .waiting
        /// The journal's id, once the upload began.
        public var uploadID: String?
        /// Bytes the server confirmed, of `size` (0 until known).
        public var confirmed: Int64 = 0
        /// Bytes handed to the network so far, the confirmed ones included (`UploadEvent.sending`):
        /// what a progress bar shows, since confirmations can be seconds apart. Never less than
        /// `confirmed`, but after a failure or a server that lost bytes.
        public var sent: Int64 = 0
        /// The file's size in bytes (0 until known).
        public var size: Int64 = 0
        /// For an upload begun before the queue had it (restored from the journal, or resumed by
        /// its journal id), the bytes the server held when the queue first reached it
        /// (`UploadEvent.resumed`): bytes beyond them are the queue's own. Nil for an upload the
        /// queue began, for one the server holds nothing of to go on from (a form, an S3 object
        /// sent in one PUT), and until the server has said.
        public var resumedFrom: Int64?
        /// The pace in bytes a second, over the last few seconds (`UploadEvent.sending`).
        public var bytesPerSecond: Double = 0
        /// What a progress bar shows: the bytes sent, or the confirmed ones where they are more (an
        /// item made by hand, a transport that does not tell).
        public var progressBytes: Int64 { max(sent, confirmed) }
        /// Seconds left at the current rate; nil until there is a rate.
        public var secondsLeft: Double? {
            bytesPerSecond > 0 ? Double(max(0, size - progressBytes)) / bytesPerSecond : nil
        }
        /// The final record, when settled.
        public var record: UploadRecord?
        /// A failure being retried, and the delay before the next try.
        public var retrying: (error: UploadError, delay: Double)?
        /// Retries since the server last confirmed more bytes (each one reported).
        public var retries = 0

        /// An item that waits, numbered `id`, for the file at `path`.
        public init(id: Int, path: String) {
            self.id = id
            self.path = path
        }
    }

    /// What sends each upload.
    public let uploader: Uploader
    /// How many uploads run at once.
    public let concurrency: Int
    /// Whether the queue stops when an upload fails because its endpoint could not be reached at
    /// all (`UploadError.unreachable`), after that upload's retries: the others would fail the
    /// same way, each after retries of its own. Running uploads are paused where they stand
    /// (resumable from the journal), waiting ones are paused before they begin.
    public let stopsWhenUnreachable: Bool
    /// The failure that stopped the queue, if one did (see `stopsWhenUnreachable`).
    public private(set) var stoppedBy: UploadError?
    /// Every change of an item, in order. Each access gives a stream of its own, so an upload
    /// screen and a badge can both watch the queue; each begins with every item as it stands
    /// (a view that comes back sees where each upload is), then every change.
    public nonisolated var updates: AsyncStream<Item> { feed.stream() }
    private nonisolated let feed = EventFeed<Item>(latestBy: { $0.id })
    var items: [Int: Item] = [:]
    private var tally = QueueTally()
    var jobs: [Int: Job] = [:]
    var tasks: [Int: Task<Void, Never>] = [:]
    /// What a running upload's cancellation means: pause or cancel.
    var stopping: [Int: State] = [:]
    var nextID = 0
    /// Items whose upload the queue began itself (added as a file): no `resumedFrom`, whatever
    /// later runs of theirs say.
    private var begunHere: Set<Int> = []
    /// Items paused by `pause(_:)`, whose server is asked what it kept when they stop.
    var asking: Set<Int> = []
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// When each item in the background last showed its bytes sent (`backgroundSent`).
    var backgroundToldAt: [Int: Double] = [:]
    /// What sends this queue's items in the background (set when each hands them over, sends or
    /// restores them: an app's session, an extension's): a pause or a cancel takes an item back
    /// from the one that holds it first.
    var senders: [WeakSender] = []
    /// Items being taken back from the background session for a person, and what they asked:
    /// a cancel asked while a pause takes it back wins.
    var takingBack: [Int: State] = [:]

    private let hold: BackgroundHold

    /// A queue that runs `concurrency` uploads at once with `uploader`, stopping at an endpoint
    /// that cannot be reached when `stopsWhenUnreachable`, holding `background` time while any
    /// runs (on iPhone pass `UIKitBackgroundTime()`: uploads then go on for the time the system
    /// gives after the person leaves the app).
    public init(
        uploader: Uploader, concurrency: Int = 2, stopsWhenUnreachable: Bool = false,
        background: any BackgroundTimeGranting = NoBackgroundTime()
    ) {
        self.uploader = uploader
        self.concurrency = max(1, concurrency)
        self.stopsWhenUnreachable = stopsWhenUnreachable
        hold = BackgroundHold("Pickup: uploads", granting: background)
    }

    /// Adds an upload; it starts when a place is free. Returns its queue id. An upload of the
    /// journal that the queue already holds (added from the journal, or sent by it and given
    /// that journal id) is not added twice: its queue id is returned, so that one upload never
    /// has two senders.
    @discardableResult
    public func add(_ job: Job) -> Int {
        if case .journal(let journalID, _) = job, let held = queueID(ofJournalID: journalID) { return held }
        guard case .upload = job else { return add(job) { _ in } }
        // Its size from the start, so that a screen's total does not grow as each upload begins.
        let id = add(job) { $0.size = FileStatus(path: $0.path)?.size ?? 0 }
        begunHere.insert(id)
        return id
    }

    /// Adds `job` as an item that `shown` fills before it is first published and started.
    private func add(_ job: Job, shown: (inout Item) -> Void) -> Int {
        nextID += 1
        let path: String
        switch job {
        case .upload(let file, _, _, _, _): path = file
        case .journal(let id, _): path = id
        }
        jobs[nextID] = job
        var item = Item(id: nextID, path: path)
        shown(&item)
        publish(item)
        startWaiting()
        return nextID
    }

    /// Adds every upload the journal holds unfinished (waiting, uploading, paused or failed:
    /// an app killed or updated while they ran), each resumed from the server's offset. Call it
    /// once at launch. Returns their queue ids, in the journal's order.
    @discardableResult
    public func restoreUnfinished() async throws(UploadError) -> [Int] {
        let records = try await uploader.journal.unfinished()
        return records.filter { queueID(ofJournalID: $0.id) == nil }.map { add(restoring: $0) }
    }

    /// Adds the journal's upload `record` to go on with (`endpoint`: its own again, with the
    /// query the journal did not keep; another place is refused), shown
    /// as the journal has it from its first update until it starts: its file, size and
    /// confirmed bytes. One the queue holds already is not added again. Returns its queue id.
    @discardableResult
    package func add(restoring record: UploadRecord, endpoint: URL? = nil) -> Int {
        if let held = queueID(ofJournalID: record.id) { return held }
        return add(.journal(id: record.id, endpoint: endpoint)) { item in
            item.path = record.path
            item.size = record.size
            item.confirmed = record.offset
            item.sent = record.offset
        }
    }

    /// The queue's item for a journal upload, if the queue holds it: added from the journal,
    /// or sent by the queue under that journal id.
    func queueID(ofJournalID journalID: String) -> Int? {
        for (id, job) in jobs {
            if case .journal(let held, _) = job, held == journalID { return id }
        }
        return items.values.first { $0.uploadID == journalID }?.id
    }

    /// The item numbered `id`, if the queue has it.
    public func item(_ id: Int) -> Item? { items[id] }

    /// Every item, in the order added.
    public func all() -> [Item] { items.values.sorted { $0.id < $1.id } }

    /// Waits until no upload is waiting or running, and returns every item.
    public func waitUntilSettled() async -> [Item] {
        if !tally.isIdle {
            await withCheckedContinuation { waiters.append($0) }
        }
        return all()
    }

    /// Ends every stream of `updates` (a program that is done with the queue); a stream asked
    /// for afterwards gives the last update and ends.
    public func close() { feed.finish() }

    // MARK: Running

    func startWaiting() {
        for id in tally.next(concurrency - tally.uploading) {
            guard let job = jobs[id] else { continue }
            update(id) { $0.state = .uploading }
            let uploader = self.uploader
            let hold = self.hold
            tasks[id] = Task {
                await hold.acquire()
                let (events, sink) = AsyncStream<UploadEvent>.makeStream()
                let watcher = Task { for await event in events { self.apply(id, event) } }
                let record = await UploadQueue.run(job, uploader, sink)
                sink.finish()
                await watcher.value
                // Not in this task, which may be cancelled: ending an upload on the server must still run.
                await Task { await self.ended(id, record) }.value
                await hold.release()
            }
        }
    }

    private static func run(
        _ job: Job, _ uploader: Uploader, _ events: AsyncStream<UploadEvent>.Continuation
    ) async -> UploadRecord {
        switch job {
        case .upload(let path, let destination, let type, let expected, let metadata):
            return await uploader.run(
                path: path, to: destination, type: type, expected: expected, metadata: metadata, events: events)
        case .journal(let id, let endpoint):
            return await uploader.resume(id: id, endpoint: endpoint, events: events)
        }
    }

    private func apply(_ id: Int, _ event: UploadEvent) {
        update(id) { item in
            switch event {
            case .started(let uploadID, let path, let size):
                item.uploadID = uploadID
                item.path = path
                item.size = size
            case .progress(_, let confirmed, let size, let rate):
                if confirmed > item.confirmed { item.retries = 0 }
                // The rate of the bytes sent, where a transport tells them, else of the confirmed ones.
                if item.sent <= confirmed { item.bytesPerSecond = rate }
                item.confirmed = confirmed
                item.sent = max(item.sent, confirmed)
                item.size = size
                item.retrying = nil
            case .sending(_, let sent, let size, let rate):
                item.sent = sent
                item.size = size
                if rate > 0 { item.bytesPerSecond = rate }  // 0: no pace yet, the last one stands
            case .retrying(_, let error, let delay):
                item.retrying = (error, delay)
                item.retries += 1
            case .resumed(_, let confirmed, let size):
                // What an earlier run left, told by the queue's first run that reached the server;
                // a later run (after a pause, a hand-back) goes on from bytes the queue sent.
                if !begunHere.contains(id), item.resumedFrom == nil { item.resumedFrom = confirmed }
                item.confirmed = confirmed
                item.sent = confirmed
                item.size = size
            case .rewound(_, _, let to):
                item.confirmed = to
                item.sent = to
            case .finished: break
            }
        }
    }

    private func ended(_ id: Int, _ record: UploadRecord) async {
        tasks[id] = nil
        var final = record
        // Kept until the end: a pause, a stop or a hand-off asked meanwhile sees it stopping.
        let intent = stopping[id]
        let asks = asking.remove(id) != nil
        if intent == .paused, record.state == .cancelled {
            final.state = .paused
            // What the server kept of a chunk the pause cut short: the row, the journal and a
            // summary then say what it holds, not only what it had confirmed.
            if asks, let held = await uploader.heldOffset(of: final) { final.offset = held }
            try? await uploader.journal.save(final)
        }
        // A cancel asked meanwhile (the row showed it sending while its server was asked) is
        // done now, not lost.
        if stopping.removeValue(forKey: id) == .cancelled {
            final = await uploader.cancel(id: record.id) ?? final
        }
        update(id) { item in
            item.record = final
            item.uploadID = final.id == "-" ? item.uploadID : final.id
            item.confirmed = final.offset
            item.sent = final.offset
            if item.size == 0 { item.size = final.size }
            item.retrying = nil
            switch final.state {
            case .done: item.state = .done
            case .paused: item.state = .paused
            case .cancelled: item.state = .cancelled
            default: item.state = .failed(final.error ?? UploadError(.server, "the upload failed"))
            }
        }
        if stopsWhenUnreachable, stoppedBy == nil, final.state == .failed, let error = final.error, error.unreachable {
            stop(because: error)
        }
        startWaiting()
        settleIfIdle()
    }

    /// Stops the queue: the endpoint cannot be reached. What runs is paused where it stands,
    /// what waits is paused before it begins.
    private func stop(because error: UploadError) {
        stoppedBy = error
        for item in items.values.sorted(by: { $0.id < $1.id }) {
            switch item.state {
            case .uploading: pause(item.id, asking: false)
            case .waiting: update(item.id) { $0.state = .paused }
            default: continue
            }
        }
    }

    func update(_ id: Int, _ change: (inout Item) -> Void) {
        guard var item = items[id] else { return }
        change(&item)
        publish(item)
    }

    func publish(_ item: Item) {
        tally.change(item.id, from: items[item.id]?.state, to: item.state)
        items[item.id] = item
        feed.yield(item)
    }

    func settleIfIdle() {
        guard tally.isIdle else { return }
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.resume() }
    }
}
