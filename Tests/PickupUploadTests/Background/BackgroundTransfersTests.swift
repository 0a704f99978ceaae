import Foundation
import Pickup
import PickupHTTP
import PickupTestSupport
import PickupUpload
import Testing

/// Background uploads' decisions, through a fake of the system's background sessions that
/// behaves as Apple documents (FakeBackgroundSystem): one task a file, a hand-over that never
/// sends a byte twice, a relaunch that restores every unfinished upload.
@Suite("background uploads: one task a file, handed over once, restored at relaunch", .serialized)
struct BackgroundTransfersTests {
    static let identifier = "pickup.uploads.test"

    /// A tus server in memory that counts the body bytes each PATCH carries, and can be slow.
    actor CountingServer: HTTPTransport {
        let server: InMemoryTusServer
        private(set) var patched: Int64 = 0
        private(set) var patches: [(offset: Int64, length: Int64)] = []
        var delay: UInt64 = 0

        init() throws {
            server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")))
        }

        func slow(_ nanoseconds: UInt64) { delay = nanoseconds }

        nonisolated func send(_ request: HTTPRequest, limits: HTTPLimits) async throws(UploadError) -> HTTPResponse {
            if request.method == "PATCH" { await count(request) }
            return try await server.send(request, limits: limits)
        }

        private func count(_ request: HTTPRequest) async {
            patched += request.body.length
            patches.append((request.value("Upload-Offset").flatMap { Int64($0) } ?? -1, request.body.length))
            if delay > 0 { try? await Task.sleep(nanoseconds: delay) }
        }
    }

    struct App {
        let uploader: Uploader
        let queue: UploadQueue
        let transfers: BackgroundTransfers
        let outbox: String
    }

    /// An app on `journal`: its queue sends through `transport`; its background session, named
    /// `session`, is on `system`; `isExtension` for an app extension's (it leaves the uploads
    /// handed over before sessions were named to the app's, as BackgroundUploads' does).
    func launch(
        journal: String, transport: any HTTPTransport, system: FakeBackgroundSystem, chunk: Int = 64 << 10,
        growing: Bool = false, session identifier: String = BackgroundTransfersTests.identifier,
        isExtension: Bool = false, shared: String? = nil
    ) async throws -> App {
        var options = UploadOptions(chunkSize: chunk, baseDelay: 0.01, maxDelay: 0.02, transport: transport)
        // Chunks of one size unless asked, so that a foreground upload is still mid-file when it is handed over.
        if !growing { options.largestTusChunk = chunk }
        let uploader = Uploader(journal: try UploadJournal(path: journal), options: options)
        let outbox = Temporary.path("outbox")
        let box = TransfersBox()
        let session = system.session(
            identifier,
            delegate: { completion in
                // As BackgroundUploads' delegate does: every end of a task to the journal, then to the queue.
                // Its answer's pieces kept as BackgroundUploads' didReceiveData keeps them.
                var replies = BackgroundReplies()
                for piece in completion.pieces {
                    replies.add(piece, task: completion.identifier, description: completion.description)
                }
                let record = await box.value?.completed(
                    description: completion.description, status: completion.status, headers: completion.headers,
                    finalURL: completion.finalURL, error: completion.error,
                    body: replies.take(task: completion.identifier))
                if let record { await box.queue?.backgroundEnded(record) }
            },
            progress: { description, total in
                // As its didSendBodyData does: the file's bytes to the queue's row.
                guard let transfer = BackgroundTransfer(taskDescription: description) else { return }
                let bytes = transfer.fileBytes(sent: total)
                Task { await box.queue?.backgroundSent(journalID: transfer.id, bytes: bytes) }
            })
        // An extension's App Group container: the scratch folder its files are made in, unless given.
        let group = shared ?? (isExtension ? (journal as NSString).deletingLastPathComponent : nil)
        let transfers = BackgroundTransfers(
            uploader: uploader, session: session, folder: outbox, adoptsUnnamedUploads: !isExtension,
            sharedFolder: group)
        let queue = UploadQueue(uploader: uploader)
        await box.set(transfers, queue)
        await system.deliverHeld(identifier)
        return App(uploader: uploader, queue: queue, transfers: transfers, outbox: outbox)
    }

    /// Holds the transfers for the delegate closure made before them.
    actor TransfersBox {
        var value: BackgroundTransfers?
        var queue: UploadQueue?
        func set(_ transfers: BackgroundTransfers, _ queue: UploadQueue) {
            value = transfers
            self.queue = queue
        }
    }

    /// A 4 MB upload to a real tus server, sent 1 MB a request in the foreground until the server
    /// holds some, then handed to the background session (one task for the rest).
    func handedOverMidFile(
        to tus: TusServer
    ) async throws -> (app: App, id: Int, path: String, system: FakeBackgroundSystem, transport: AsyncHTTPTransport) {
        let path = try UploadTestFiles.random(megabytes: 4)
        let transport = AsyncHTTPTransport()
        let system = FakeBackgroundSystem(transport: transport)
        let app = try await launch(journal: journalPath(), transport: transport, system: system, chunk: 1 << 20)
        let id = await app.queue.add(.upload(path: path, to: .tus(endpoint: tus.endpoint)))
        while (await app.queue.item(id)?.confirmed ?? 0) < 1 << 20 { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(await app.transfers.handOff(app.queue) == 1)
        return (app, id, path, system, transport)
    }

    /// A file of `bytes` sent through the background session from the start (`send`), to the
    /// counting tus server in memory; its task made, not run.
    func sentInBackground(
        bytes: Int
    ) async throws -> (app: App, id: Int, path: String, server: CountingServer, system: FakeBackgroundSystem) {
        let path = try file(bytes: bytes)
        let server = try CountingServer()
        let system = FakeBackgroundSystem(transport: server)
        let app = try await launch(journal: journalPath(), transport: server, system: system)
        let id = try await app.transfers.send(
            path: path, to: .tus(endpoint: server.server.endpoint), type: "video/mp4", expected: nil, on: app.queue)
        return (app, id, path, server, system)
    }

    /// A file of 1 MB sent through the background session from the start (`send`) to a real
    /// server at `destination`, over real connections; its task made, not run.
    func sentInBackground(
        to destination: UploadDestination, metadata: [String: String] = [:]
    ) async throws -> (app: App, id: Int, path: String, system: FakeBackgroundSystem, transport: AsyncHTTPTransport) {
        let path = try UploadTestFiles.random(megabytes: 1)
        let transport = AsyncHTTPTransport()
        let system = FakeBackgroundSystem(transport: transport)
        let app = try await launch(journal: journalPath(), transport: transport, system: system)
        let id = try await app.transfers.send(
            path: path, to: destination, type: "video/mp4", expected: nil, metadata: metadata, on: app.queue)
        return (app, id, path, system, transport)
    }

    func journalPath() -> String {
        Temporary.path("bg", suffix: ".sqlite")
    }

    func file(bytes: Int) throws -> String {
        let path = Temporary.path("bg", suffix: ".bin")
        try Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }).write(
            to: URL(fileURLWithPath: path))
        return path
    }

    @Test(
        "a 1 GB tus upload is one task: the whole file in one PATCH from the file itself, no copy; done when answered")
    func oneTaskForOneGigabyte() async throws {
        let path = Temporary.path("bg-1g", suffix: ".bin")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { unlink(path) }
        #expect(truncate(path, 1 << 30) == 0)  // sparse: no gigabyte written to disk
        let server = try CountingServer()
        await server.slow(1_000_000_000)  // the queue is still sending when the app leaves, even on a loaded machine
        let system = FakeBackgroundSystem(transport: server)
        let app = try await launch(journal: journalPath(), transport: server, system: system)
        let record = try await app.uploader.journal.begin(
            path: path, size: 1 << 30, modified: try SourceFile(path: path).modified,
            destination: .tus(endpoint: server.server.endpoint), type: "video/mp4")
        var paused = record
        paused.state = .paused
        try await app.uploader.journal.save(paused)

        guard case .handedOver(let transfer) = await app.transfers.handOff(id: record.id) else {
            Issue.record("not handed over")
            return
        }
        let tasks = system.all(BackgroundTransfersTests.identifier)
        #expect(tasks.count == 1)
        let task = try #require(tasks.first)
        #expect(task.request.method == "PATCH")
        #expect(task.request.value("Upload-Offset") == "0")
        #expect(task.file == path, "the picked file itself, not a copy")
        #expect(!transfer.bodyIsCopy)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: app.outbox))?.isEmpty ?? true)
        #expect(await app.transfers.handOff(id: record.id) == .alreadyInBackground)
        #expect(system.all(BackgroundTransfersTests.identifier).count == 1, "offered twice, sent once")
        // A foreground sender is refused while the background session owns it.
        let refused = await app.uploader.resume(id: record.id).result()
        #expect(refused.error?.code == .busy, "\(refused.why)")

        await system.answer(task.identifier, status: 204, headers: ["upload-offset": String(1 << 30)])
        let done = try #require(try await app.uploader.journal.record(id: record.id))
        #expect(done.state == .done)
        #expect(done.offset == 1 << 30)
    }

    @Test(
        "a foreground upload handed over mid-file is never sent twice: the server gets each byte once (chunks of one size, and growing)",
        arguments: [false, true])
    func handOverMidFile(growing: Bool) async throws {
        let size = growing ? 4 << 20 : 1 << 20
        let path = try file(bytes: size)
        defer { unlink(path) }
        let server = try CountingServer()
        await server.slow(30_000_000)
        let system = FakeBackgroundSystem(transport: server)
        let app = try await launch(journal: journalPath(), transport: server, system: system, growing: growing)
        let id = await app.queue.add(.upload(path: path, to: .tus(endpoint: server.server.endpoint)))
        while (await app.queue.item(id)?.confirmed ?? 0) < 256 << 10 { try await Task.sleep(nanoseconds: 5_000_000) }

        #expect(await app.transfers.handOff(app.queue) == 1)
        let item = try #require(await app.queue.item(id))
        #expect(item.state == .inBackground)
        let uploadID = try #require(item.uploadID)
        let task = try #require(system.all(BackgroundTransfersTests.identifier).first)
        let offset = try #require(task.request.value("Upload-Offset").flatMap { Int64($0) })
        #expect(offset >= 256 << 10, "the rest, from the server's offset")
        // A stale foreground save after the hand-over changes nothing.
        var stale = try #require(try await app.uploader.journal.record(id: uploadID))
        stale.state = .failed
        try await app.uploader.journal.save(stale)
        #expect(try await app.uploader.journal.record(id: uploadID)?.state == .uploading)
        // The queue does not send it while the background session does.
        await app.queue.resume(id)
        #expect(await app.queue.item(id)?.state == .inBackground)

        await system.runAll()
        let record = try #require(try await app.uploader.journal.record(id: uploadID))
        #expect(record.state == .done, "\(record.why)")
        let patches = await server.patches
        #expect(await server.patched == size, "every byte sent once: \(patches)")
        // The foreground chunks (all but the background session's one PATCH of the rest) grew
        // only when they were let to.
        #expect(patches.dropLast().contains { $0.length > 64 << 10 } == growing, "\(patches)")
        let stored = try #require(await server.server.stored(record.remote ?? ""))
        #expect(stored == (try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test(
        "taken back: the journal first, so the cancelled task changes nothing; the queue finishes from the server's offset"
    )
    func takeBack() async throws {
        let path = try file(bytes: 300 << 10)
        defer { unlink(path) }
        let server = try CountingServer()
        await server.slow(1_000_000_000)  // the queue is still sending when the app leaves, even on a loaded machine
        let system = FakeBackgroundSystem(transport: server)
        let app = try await launch(journal: journalPath(), transport: server, system: system)
        let id = await app.queue.add(.upload(path: path, to: .tus(endpoint: server.server.endpoint)))
        #expect(await app.transfers.handOff(app.queue) == 1, "a waiting upload gets its record and goes")
        #expect(system.outstanding(BackgroundTransfersTests.identifier).count == 1)

        await app.transfers.takeBack(app.queue)
        let cancelling = system.outstanding(BackgroundTransfersTests.identifier).allSatisfy { $0.cancelling }
        #expect(cancelling, "its task is being cancelled")
        await system.drain()
        let items = await app.queue.waitUntilSettled()
        #expect(items.first { $0.id == id }?.state == .done)
        #expect(await server.patched == 300 << 10)
    }

    @Test("a relaunch restores every unfinished upload: held events recorded, cancelled and paused ones resumed")
    func relaunch() async throws {
        let journal = journalPath()
        let paths = try (0..<4).map { _ in try file(bytes: 200 << 10) }
        defer { for path in paths { unlink(path) } }
        let server = try CountingServer()
        await server.slow(1_000_000_000)  // the queue is still sending when the app leaves, even on a loaded machine
        let system = FakeBackgroundSystem(transport: server)
        let endpoint = server.server.endpoint
        let first = try await launch(journal: journal, transport: server, system: system)
        // Three handed over, one paused in the foreground.
        for path in paths.prefix(3) { await first.queue.add(.upload(path: path, to: .tus(endpoint: endpoint))) }
        #expect(await first.transfers.handOff(first.queue) == 3)
        let paused = await first.queue.add(.upload(path: paths[3], to: .tus(endpoint: endpoint)))
        await first.queue.pause(paused)
        _ = await first.queue.waitUntilSettled()
        // The app is killed. While no app is there the system finishes one task (its event is
        // held), one task is cancelled (its cancellation is held), one goes on.
        system.appEnded(BackgroundTransfersTests.identifier)
        let tasks = system.outstanding(BackgroundTransfersTests.identifier)
        #expect(tasks.count == 3)
        let source0 = try SourceFile(path: tasks[0].file)
        var finishing = tasks[0].request
        finishing.body = .file(source0, offset: 0, length: source0.size)
        let answer = try await server.send(finishing, limits: HTTPLimits())
        await system.answer(tasks[0].identifier, status: answer.status, headers: answer.headers)
        await system.cancel(tasks[1].identifier)
        await system.drain()

        let second = try await launch(journal: journal, transport: server, system: system)
        let finished = try #require(tasks[0].transfer)
        let cancelled = try #require(tasks[1].transfer)
        #expect(try await second.uploader.journal.record(id: finished.id)?.state == .done, "the held event is recorded")
        #expect(try await second.uploader.journal.record(id: cancelled.id)?.state == .failed)
        let resumed = try await second.transfers.restore(into: second.queue)
        #expect(resumed.count == 2, "the cancelled task's upload and the paused one")
        #expect(await second.queue.all().filter { $0.state == .inBackground }.count == 1)
        _ = await second.queue.waitUntilSettled()
        await system.runAll()
        for record in try await second.uploader.journal.all() {
            #expect(record.state == .done, "\(record.path): \(record.why)")
            let stored = try #require(await server.server.stored(record.remote ?? ""))
            #expect(stored == (try Data(contentsOf: URL(fileURLWithPath: record.path))))
        }
        #expect(try await second.uploader.journal.unfinished().isEmpty)
        #expect(await server.patched == 4 * (200 << 10), "no byte sent twice")
    }

    /// How a task handed to the background session began, and what the system says it sent.
    enum Meanwhile: String, CaseIterable, Sendable {
        /// Sent from the start on screen; 300 KB sent since.
        case fromTheStart
        /// Handed over mid-file by the queue (the rest from the server's offset, a copied body); 100 KB sent since.
        case midFile
        /// The system cannot say (`NSURLSessionTransferSizeUnknown`): the row starts where the task began.
        case unknown
    }

    @Test(
        "a relaunch shows a task's row from the bytes the system sent while no app was there",
        arguments: Meanwhile.allCases)
    func relaunchShowsBytesSentMeanwhile(_ meanwhile: Meanwhile) async throws {
        let journal = journalPath()
        let path = try file(bytes: 1 << 20)
        defer { unlink(path) }
        let server = try CountingServer()
        let system = FakeBackgroundSystem(transport: server)
        let first = try await launch(journal: journal, transport: server, system: system)
        let endpoint = server.server.endpoint
        let id: Int
        if meanwhile == .midFile {
            await server.slow(30_000_000)
            id = await first.queue.add(.upload(path: path, to: .tus(endpoint: endpoint)))
            while (await first.queue.item(id)?.confirmed ?? 0) < 256 << 10 {
                try await Task.sleep(nanoseconds: 5_000_000)
            }
            #expect(await first.transfers.handOff(first.queue) == 1)
        } else {
            id = try await first.transfers.send(
                path: path, to: .tus(endpoint: endpoint), type: "application/octet-stream", expected: nil,
                on: first.queue)
        }
        #expect(await first.queue.item(id)?.state == .inBackground)
        let uploadID = try #require(await first.queue.item(id)?.uploadID)
        // The app is killed; the system sends part of the task's body and goes on.
        system.appEnded(BackgroundTransfersTests.identifier)
        let task = try #require(system.outstanding(BackgroundTransfersTests.identifier).first)
        let began = try #require(task.request.value("Upload-Offset").flatMap { Int64($0) })
        #expect((meanwhile == .midFile) == (began > 0), "mid-file: the rest from the server's offset")
        let told: Int64 = meanwhile == .unknown ? -1 : meanwhile == .midFile ? 100 << 10 : 300 << 10
        system.sentPart(task.identifier, bytes: told)

        let second = try await launch(journal: journal, transport: server, system: system)
        #expect(try await second.transfers.restore(into: second.queue).isEmpty, "nothing to resume in the queue")
        let row = try #require(await second.queue.all().first { $0.uploadID == uploadID })
        #expect(row.state == .inBackground)
        #expect(row.sent == began + max(0, told), "the row starts where the task is, not where it began")
        #expect(row.confirmed == began, "nothing more is confirmed until the task ends")
        await system.runAll()
        let record = try #require(try await second.uploader.journal.record(id: uploadID))
        #expect(record.state == .done, "\(record.why)")
        #expect(await second.queue.item(row.id)?.state == .done)
        let stored = try #require(await server.server.stored(record.remote ?? ""))
        #expect(stored == (try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test("force-quit: the system cancels every task; at the next launch each upload goes on in the queue")
    func forceQuit() async throws {
        let journal = journalPath()
        let paths = try (0..<2).map { _ in try file(bytes: 150 << 10) }
        defer { for path in paths { unlink(path) } }
        let server = try CountingServer()
        await server.slow(1_000_000_000)  // the queue is still sending when the app leaves, even on a loaded machine
        let system = FakeBackgroundSystem(transport: server)
        let first = try await launch(journal: journal, transport: server, system: system)
        for path in paths { await first.queue.add(.upload(path: path, to: .tus(endpoint: server.server.endpoint))) }
        #expect(await first.transfers.handOff(first.queue) == 2)
        await system.forceQuit(BackgroundTransfersTests.identifier)
        await system.drain()

        let second = try await launch(journal: journal, transport: server, system: system)
        #expect(try await second.transfers.restore(into: second.queue).count == 2)
        let items = await second.queue.waitUntilSettled()
        #expect(items.allSatisfy { $0.state == .done })
        #expect(system.all(BackgroundTransfersTests.identifier).count == 2, "a cancellation is not handed over again")
    }

    @Test("sent from the start while on screen: one task from the file itself, shown in the background, done")
    func sendFromTheStart() async throws {
        let (app, id, path, server, system) = try await sentInBackground(bytes: 500 << 10)
        defer { unlink(path) }
        #expect(await app.queue.item(id)?.state == .inBackground)
        let task = try #require(system.all(BackgroundTransfersTests.identifier).first)
        #expect(task.file == path && task.request.value("Upload-Offset") == "0")
        await system.runAll()
        #expect(await app.queue.item(id)?.state == .done)
        #expect(await server.patched == 500 << 10)
    }

    @Test("a done answer that comes after a take-back is still recorded: the bytes are not sent again")
    func doneAfterTakeBack() async throws {
        let (app, id, path, _, system) = try await sentInBackground(bytes: 100 << 10)
        defer { unlink(path) }
        let uploadID = try #require(await app.queue.item(id)?.uploadID)
        let task = try #require(system.all(BackgroundTransfersTests.identifier).first)
        #expect(try await app.transfers.takeBack(id: uploadID))
        // The task finished before it saw the cancellation.
        await system.answer(task.identifier, status: 204, headers: ["upload-offset": String(100 << 10)])
        await system.drain()
        #expect(try await app.uploader.journal.record(id: uploadID)?.state == .done)
    }

    @Test("a form stays with the background session when the app returns (taken back it would start over)")
    func formStaysInBackground() async throws {
        let form = try FormServer()
        let path = try UploadTestFiles.random(megabytes: 2)
        defer { unlink(path) }
        let transport = AsyncHTTPTransport()
        let system = FakeBackgroundSystem(transport: transport)
        let app = try await launch(journal: journalPath(), transport: transport, system: system)
        let id = await app.queue.add(.upload(path: path, to: .form(FormTarget(url: form.url, field: "media"))))
        #expect(await app.transfers.handOff(app.queue) == 1)
        let task = try #require(system.all(BackgroundTransfersTests.identifier).first)
        #expect(task.file != path, "the form's body, written for the task")
        await app.transfers.takeBack(app.queue)
        #expect(await app.queue.item(id)?.state == .inBackground)
        // While the app is on screen the row shows the bytes the system sends.
        let updates = app.queue.updates
        async let shown = updates.reduce(into: [Int64]()) { shown, item in
            if item.id == id, item.state == .inBackground, item.sent > 0 { shown.append(item.sent) }
        }
        await system.runAll()
        #expect(await app.queue.item(id)?.state == .done)
        await app.queue.close()
        let sent = await shown
        #expect(!sent.isEmpty && sent == sent.sorted() && sent.allSatisfy { $0 <= 2 << 20 }, "\(sent)")
        let name = (path as NSString).lastPathComponent
        #expect(UploadTestFiles.sha256(try form.stored(name)) == (try UploadTestFiles.sha256(file: path)))
        #expect(!FileManager.default.fileExists(atPath: task.file), "the body written for the task is removed")
        // The web app's answer, as the task's data gave it, is kept with the upload.
        let uploadID = try #require(await app.queue.item(id)?.uploadID)
        let reply = try #require(try await app.uploader.journal.record(id: uploadID)?.reply)
        #expect(reply.contains(try UploadTestFiles.sha256(file: path)))
        await transport.shutdown()
    }

    @Test("a connection lost in the background is handed over again from the server's offset, a few times")
    func lostConnection() async throws {
        let path = try file(bytes: 100 << 10)
        defer { unlink(path) }
        let server = try CountingServer()
        await server.slow(1_000_000_000)  // the queue is still sending when the app leaves, even on a loaded machine
        let system = FakeBackgroundSystem(transport: FailingTransport(failures: 2, then: server))
        let app = try await launch(journal: journalPath(), transport: server, system: system)
        await app.queue.add(.upload(path: path, to: .tus(endpoint: server.server.endpoint)))
        #expect(await app.transfers.handOff(app.queue) == 1)
        await system.runAll()
        #expect(system.all(BackgroundTransfersTests.identifier).count == 3, "two lost, the third arrives")
        let record = try #require(try await app.uploader.journal.all().first)
        #expect(record.state == .done, "\(record.why)")
    }

    @Test("a person cancels an upload in the background: its task cancelled, the upload ended on the server")
    func cancelInBackground() async throws {
        let tus = try TusServer()
        let (app, id, path, system, transport) = try await handedOverMidFile(to: tus)
        defer { unlink(path) }
        let shown = try #require(await app.queue.item(id))
        #expect(shown.state == .inBackground && UploadRow(shown).canCancel && UploadRow(shown).canPause)
        let uploadID = try #require(shown.uploadID)
        let remote = try #require(try await app.uploader.journal.record(id: uploadID)?.remote)

        await app.queue.cancel(id)
        #expect(await app.queue.item(id)?.state == .cancelled)
        #expect(try await app.uploader.journal.record(id: uploadID)?.state == .cancelled)
        let task = try #require(system.all(BackgroundTransfersTests.identifier).first)
        #expect(task.cancelling, "the task is cancelled, not left to run")
        #expect((try? tus.stored(remote)) == nil, "the upload is ended on the server (tus termination)")
        // The task's end (NSURLErrorCancelled) comes later and changes nothing; nothing more is sent.
        await system.drain()
        await system.runAll()
        #expect(try await app.uploader.journal.record(id: uploadID)?.state == .cancelled)
        #expect(await app.queue.item(id)?.state == .cancelled)
        #expect(system.all(BackgroundTransfersTests.identifier).count == 1)
        await transport.shutdown()
    }

    @Test("a pause in the background takes the upload back; resumed, it goes on here and arrives once")
    func pauseInBackground() async throws {
        let (app, id, path, server, system) = try await sentInBackground(bytes: 500 << 10)
        defer { unlink(path) }
        #expect(await app.queue.item(id)?.state == .inBackground)

        await app.queue.pause(id)
        #expect(await app.queue.item(id)?.state == .paused)
        let task = try #require(system.all(BackgroundTransfersTests.identifier).first)
        #expect(task.cancelling)
        await system.drain()
        #expect(await app.queue.item(id)?.state == .paused, "the cancelled task's end leaves it paused")
        #expect(await server.patched == 0)

        await app.queue.resume(id)
        let items = await app.queue.waitUntilSettled()
        #expect(items.first?.state == .done)
        #expect(await server.patched == 500 << 10, "every byte once")
        let uploadID = try #require(items.first?.uploadID)
        let remote = try #require(try await app.uploader.journal.record(id: uploadID)?.remote)
        #expect(await server.server.stored(remote) == (try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test(
        "a cancel asked while a pause takes the upload back wins; a pause asked during a cancel does not undo it",
        arguments: [false, true])
    func cancelDuringPause(cancelFirst: Bool) async throws {
        let (app, id, path, server, system) = try await sentInBackground(bytes: 200 << 10)
        defer { unlink(path) }
        let (reached, atCancel) = AsyncStream<Void>.makeStream()
        let (opened, open) = AsyncStream<Void>.makeStream()
        system.holdNextCancel {
            atCancel.yield()
            for await _ in opened { break }
        }
        let first = Task { cancelFirst ? await app.queue.cancel(id) : await app.queue.pause(id) }
        for await _ in reached { break }  // the first is taking the upload back, about to cancel its task
        // The second is asked meanwhile: it returns at once, its wish noted.
        if cancelFirst { await app.queue.pause(id) } else { await app.queue.cancel(id) }
        open.yield()
        await first.value
        #expect(await app.queue.item(id)?.state == .cancelled)
        let uploadID = try #require(await app.queue.item(id)?.uploadID)
        #expect(try await app.uploader.journal.record(id: uploadID)?.state == .cancelled)
        await system.drain()
        await system.runAll()
        #expect(await app.queue.item(id)?.state == .cancelled)
        #expect(await server.patched == 0)
    }

    @Test("a person's pause asked as a lost connection's task ends: its retry does not send it again")
    func pauseBeatsRetry() async throws {
        let server = try CountingServer()
        // The system's first request is lost: the first upload's task ends with a network error.
        let system = FakeBackgroundSystem(transport: FailingTransport(failures: 1, then: server))
        let app = try await launch(journal: journalPath(), transport: server, system: system)
        let paths = try [file(bytes: 100 << 10), file(bytes: 100 << 10)]
        defer { paths.forEach { unlink($0) } }
        var ids: [Int] = []
        for path in paths {
            ids.append(
                try await app.transfers.send(
                    path: path, to: .tus(endpoint: server.server.endpoint), type: "video/mp4", expected: nil,
                    on: app.queue))
        }
        let paused = ids[0]
        let first = try #require(await app.queue.item(paused)?.uploadID)
        // The second's pause holds the transfers' lane at its task's cancellation; meanwhile the
        // person pauses the first, and the first's task ends with the lost connection.
        let running = LockedValue<Task<Void, Never>?>(nil)
        system.holdNextCancel {
            Task { await app.queue.pause(paused) }
            try? await Task.sleep(nanoseconds: 100_000_000)
            running.withValue { $0 = Task { await system.runAll() } }
            try? await Task.sleep(nanoseconds: 300_000_000)
        }
        await app.queue.pause(ids[1])
        await running.current?.value
        // Whatever the lane holds has ended once a take-back asked now has its turn.
        _ = await app.transfers.takeBackInTurn(id: "none")
        await system.drain()
        await system.runAll()
        let tasks = system.all(BackgroundTransfersTests.identifier).filter { $0.transfer?.id == first }
        #expect(tasks.count == 1, "no second task for an upload the person paused")
        #expect(try await app.uploader.journal.record(id: first)?.state != .done)
        // Shown stopped (the lost connection's failure, or paused), for the person to resume.
        let state = await app.queue.item(paused)?.state
        var stopped = state == .paused
        if case .failed = state { stopped = true }
        #expect(stopped, "\(String(describing: state))")
    }

    @Test("a task that finished as the person cancelled: the upload is done, and the row says so")
    func finishedAsCancelled() async throws {
        let (app, id, path, _, system) = try await sentInBackground(bytes: 100 << 10)
        defer { unlink(path) }
        let task = try #require(system.all(BackgroundTransfersTests.identifier).first)
        system.holdNextCancel {
            // Its answer comes before the cancellation: "the task may signal other work before it
            // acknowledges the cancelation" (NSURLSession.h:373-374). Every byte landed.
            await system.answer(task.identifier, status: 204, headers: ["upload-offset": String(100 << 10)])
        }
        await app.queue.cancel(id)
        let uploadID = try #require(await app.queue.item(id)?.uploadID)
        #expect(try await app.uploader.journal.record(id: uploadID)?.state == .done)
        #expect(await app.queue.item(id)?.state == .done)
    }

    @Test("a paused row shows what the server holds, not the bytes the background task had sent")
    func pausedRowShowsTheServer() async throws {
        let (app, id, path, _, system) = try await sentInBackground(bytes: 300 << 10)
        defer { unlink(path) }
        let task = try #require(system.all(BackgroundTransfersTests.identifier).first)
        // The system has sent part of the body (NSURLSession.h:353-354); the app is told.
        system.sentPart(task.identifier, bytes: 200 << 10)
        while (await app.queue.item(id)?.sent ?? 0) < 200 << 10 { try await Task.sleep(nanoseconds: 5_000_000) }
        await app.queue.pause(id)
        let item = try #require(await app.queue.item(id))
        #expect(item.state == .paused && item.sent == item.confirmed, "sent \(item.sent), confirmed \(item.confirmed)")
    }

    @Test("a form cancelled in the background: its task cancelled, its written body removed, nothing stored")
    func cancelFormInBackground() async throws {
        let form = try FormServer()
        // Sent through the background session from the start: no try in the foreground, which a
        // loaded machine may let land before a hand-off cuts it, sends the form first.
        let (app, id, path, system, transport) = try await sentInBackground(
            to: .form(FormTarget(url: form.url, field: "media")))
        defer { unlink(path) }
        #expect(await app.queue.item(id)?.state == .inBackground)
        let task = try #require(system.all(BackgroundTransfersTests.identifier).first)
        await app.queue.cancel(id)
        #expect(await app.queue.item(id)?.state == .cancelled)
        await system.drain()
        await system.runAll()
        #expect(!FileManager.default.fileExists(atPath: task.file), "the body written for the task is removed")
        #expect(form.stores().isEmpty, "nothing was sent")
        let uploadID = try #require(await app.queue.item(id)?.uploadID)
        #expect(try await app.uploader.journal.record(id: uploadID)?.state == .cancelled)
        await transport.shutdown()
    }

    @Test("a tus upload sent through the background session is created with the app's metadata")
    func metadataInBackground() async throws {
        let tus = try TusServer()
        let (app, id, path, system, transport) = try await sentInBackground(
            to: .tus(endpoint: tus.endpoint), metadata: ["album": "trip"])
        defer { unlink(path) }
        await system.runAll()
        #expect(await app.queue.item(id)?.state == .done)
        let uploadID = try #require(await app.queue.item(id)?.uploadID)
        let remote = try #require(try await app.uploader.journal.record(id: uploadID)?.remote)
        let info = try String(
            contentsOfFile: tus.folder + "/" + (remote as NSString).lastPathComponent + ".info", encoding: .utf8)
        #expect(info.contains("\"album\": \"trip\"") || info.contains("\"album\":\"trip\""), "\(info)")
        await transport.shutdown()
    }

    @Test("a handed-over upload arrives whole at a real tus server, sent as the system sends it")
    func realServer() async throws {
        let tus = try TusServer()
        let (app, id, path, system, transport) = try await handedOverMidFile(to: tus)
        defer { unlink(path) }
        await system.runAll()
        let uploadID = try #require(await app.queue.item(id)?.uploadID)
        let record = try #require(try await app.uploader.journal.record(id: uploadID))
        #expect(record.state == .done, "\(record.why)")
        #expect(
            UploadTestFiles.sha256(try tus.stored(try #require(record.remote)))
                == (try UploadTestFiles.sha256(file: path)))
        await transport.shutdown()
    }
}

/// Fails the first `failures` requests as a lost connection does, then sends through `then`.
actor FailingTransport: HTTPTransport {
    private var failures: Int
    private let next: any HTTPTransport

    init(failures: Int, then next: any HTTPTransport) {
        self.failures = failures
        self.next = next
    }

    private func take() -> Bool {
        guard failures > 0 else { return false }
        failures -= 1
        return true
    }

    nonisolated func send(_ request: HTTPRequest, limits: HTTPLimits) async throws(UploadError) -> HTTPResponse {
        if await take() { throw UploadError(.network, "the network connection was lost (scripted)") }
        return try await next.send(request, limits: limits)
    }
}

extension FakeBackgroundSystem.SystemTask {
    /// The upload the task carries.
    var transfer: BackgroundTransfer? { BackgroundTransfer(taskDescription: description) }
}
