import Foundation
import PickupStore
import PickupTestSupport
import PickupUpload
import Testing

/// An app and its extension (a share extension) each send through a background session of their
/// own, on one journal in their shared container: "Because only one process can use a
/// background session at a time, you need to create a different background session for the
/// containing app and each of its app extensions. (Each background session should have a unique
/// identifier.)" (Apple's App Extension Programming Guide, "Performing Uploads and Downloads").
/// The fake system keeps each session's tasks apart, by identifier, as `allTasks` lists only
/// "all outstanding tasks" of its own session (NSURLSession.h:175).
extension BackgroundTransfersTests {
    static let extensionIdentifier = "pickup.uploads.test.share"

    /// An upload handed to a background session: a fresh journal, tus server and system, a file
    /// of `bytes` sent by the app's session, or by the extension's when `byExtension`.
    typealias Handed = (
        journal: String, path: String, server: CountingServer, system: FakeBackgroundSystem, sender: App,
        uploadID: String
    )

    func handedToBackground(bytes: Int, byExtension: Bool = false) async throws -> Handed {
        let journal = journalPath()
        let path = try file(bytes: bytes)
        let server = try CountingServer()
        let system = FakeBackgroundSystem(transport: server)
        let sender = try await launch(
            journal: journal, transport: server, system: system,
            session: byExtension ? BackgroundTransfersTests.extensionIdentifier : BackgroundTransfersTests.identifier,
            isExtension: byExtension)
        let queueID = try await sender.transfers.send(
            path: path, to: .tus(endpoint: server.server.endpoint), type: "image/jpeg", expected: nil, on: sender.queue)
        let uploadID = try #require(await sender.queue.item(queueID)?.uploadID)
        return (journal, path, server, system, sender, uploadID)
    }

    /// An upload the extension handed to its session, the extension ended; the app shows it in
    /// its own queue, through the extension's session restored into that queue.
    func extensionsUploadInTheAppsQueue() async throws -> (
        app: App, path: String, server: CountingServer, system: FakeBackgroundSystem, uploadID: String
    ) {
        let (journal, path, server, system, _, uploadID) = try await handedToBackground(
            bytes: 150 << 10, byExtension: true)
        system.appEnded(BackgroundTransfersTests.extensionIdentifier)
        let app = try await launch(journal: journal, transport: server, system: system)
        let shown = try await launch(
            journal: journal, transport: server, system: system, session: BackgroundTransfersTests.extensionIdentifier,
            isExtension: true)
        #expect(try await shown.transfers.restore(into: app.queue).isEmpty)
        return (app, path, server, system, uploadID)
    }

    @Test("an extension's background upload is left to its session by the app's relaunch, and ends done once")
    func extensionSessionKeepsItsUpload() async throws {
        let (journal, path, server, system, _, uploadID) = try await handedToBackground(
            bytes: 300 << 10, byExtension: true)
        defer { unlink(path) }
        #expect(system.outstanding(BackgroundTransfersTests.extensionIdentifier).count == 1)
        // The extension ends; its task goes on without it.
        system.appEnded(BackgroundTransfersTests.extensionIdentifier)

        // The app launches with its own session: the extension's upload is not its to take back.
        let app = try await launch(journal: journal, transport: server, system: system)
        #expect(try await app.transfers.restore(into: app.queue).isEmpty, "nothing resumed in the app's queue")
        #expect(await app.queue.all().isEmpty, "the extension's upload is not shown as the app's")
        let held = try #require(try await app.uploader.journal.record(id: uploadID))
        #expect(held.state == .uploading, "still with the extension's session: \(held.why)")
        let refused = await app.uploader.resume(id: uploadID).result()
        #expect(refused.error?.code == .busy, "the foreground does not send it too: \(refused.why)")

        // The system ends the task while neither runs; iOS launches the app for the extension's
        // session ("the identifier of the session needing attention", UIApplication.h:437 in the
        // iOS 26.2 SDK), which makes a session with that identifier and gets the held event.
        await system.runAll()
        let relaunched = try await launch(
            journal: journal, transport: server, system: system, session: BackgroundTransfersTests.extensionIdentifier,
            isExtension: true)
        let record = try #require(try await relaunched.uploader.journal.record(id: uploadID))
        #expect(record.state == .done, "\(record.why)")
        #expect(await server.patched == 300 << 10, "every byte sent once")
        let stored = try #require(await server.server.stored(record.remote ?? ""))
        #expect(stored == (try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test(
        "an extension's upload whose task was cancelled is resumed by its own session's restore, never by the app's")
    func extensionUploadCancelled() async throws {
        let (journal, path, server, system, _, uploadID) = try await handedToBackground(
            bytes: 200 << 10, byExtension: true)
        defer { unlink(path) }
        // The extension's task is cancelled while it is gone (a task may be cancelled by the
        // system; "-cancel ... The task will signal -URLSession:task:didCompleteWithError: with
        // an error value of { NSURLErrorDomain, NSURLErrorCancelled }", NSURLSession.h:371-373):
        // the cancellation waits for a session with its identifier.
        system.appEnded(BackgroundTransfersTests.extensionIdentifier)
        for task in system.outstanding(BackgroundTransfersTests.extensionIdentifier) {
            await system.cancel(task.identifier)
        }
        await system.drain()

        let app = try await launch(journal: journal, transport: server, system: system)
        #expect(try await app.transfers.restore(into: app.queue).isEmpty, "the app's session leaves it")
        #expect(try await app.uploader.journal.record(id: uploadID)?.state == .uploading)

        // The extension's session, made again (by the app, for its events), hears the
        // cancellation and resumes the upload in the queue it is given.
        let again = try await launch(
            journal: journal, transport: server, system: system, session: BackgroundTransfersTests.extensionIdentifier,
            isExtension: true)
        #expect(try await again.uploader.journal.record(id: uploadID)?.state == .failed)
        #expect(try await again.transfers.restore(into: again.queue).count == 1)
        let items = await again.queue.waitUntilSettled()
        #expect(items.allSatisfy { $0.state == .done }, "\(items.map(\.state))")
        #expect(try await again.uploader.journal.record(id: uploadID)?.state == .done)
        #expect(system.all(BackgroundTransfersTests.extensionIdentifier).count == 1, "not handed over again")
    }

    @Test("an upload handed over before sessions were named is the app's session's: taken back when no task carries it")
    func handedOverBeforeSessionsWereNamed() async throws {
        let (journal, path, server, _, _, uploadID) = try await handedToBackground(bytes: 150 << 10)
        defer { unlink(path) }
        // As a journal of version 5 held it: owned by the background, no session named. Its task
        // is gone (the app was deleted and installed again: a new system, no tasks).
        try SQLiteDatabase(path: journal).execute("UPDATE uploads SET background_session = NULL")
        let fresh = FakeBackgroundSystem(transport: server)
        let second = try await launch(
            journal: journal, transport: server, system: fresh, session: "another.identifier")
        #expect(try await second.transfers.restore(into: second.queue).count == 1, "taken back and resumed")
        let items = await second.queue.waitUntilSettled()
        #expect(items.allSatisfy { $0.state == .done }, "\(items.map(\.state))")
        #expect(try await second.uploader.journal.record(id: uploadID)?.state == .done)
    }

    @Test(
        "an upload handed over before sessions were named, its task still running, is left by an extension's session and named by the app's"
    )
    func unnamedUploadStillRunning() async throws {
        let (journal, path, server, system, _, uploadID) = try await handedToBackground(bytes: 150 << 10)
        defer { unlink(path) }
        try SQLiteDatabase(path: journal).execute("UPDATE uploads SET background_session = NULL")
        system.appEnded(BackgroundTransfersTests.identifier)

        // The extension's session (made by the app for its events) does not take it.
        let share = try await launch(
            journal: journal, transport: server, system: system, session: BackgroundTransfersTests.extensionIdentifier,
            isExtension: true)
        #expect(try await share.transfers.restore(into: share.queue).isEmpty)
        #expect(try await share.uploader.journal.record(id: uploadID)?.state == .uploading)
        // The app's session, whose task carries it, names itself on it and shows it.
        let app = try await launch(journal: journal, transport: server, system: system)
        #expect(try await app.transfers.restore(into: app.queue).isEmpty)
        #expect(await app.queue.all().map(\.state) == [.inBackground])
        let named = try SQLiteDatabase(path: journal, readOnly: true).prepare(
            "SELECT background_session FROM uploads WHERE id = ?1")
        try named.bind([.text(uploadID)])
        #expect(try named.step() && named.text(0) == BackgroundTransfersTests.identifier)
        await system.runAll()
        #expect(try await app.uploader.journal.record(id: uploadID)?.state == .done)
        #expect(await server.patched == 150 << 10, "every byte sent once")
    }

    /// Holds every request at its gate: a server the extension is still asking when it ends.
    struct HeldTransport: HTTPTransport {
        let gate: Gate
        let next: any HTTPTransport
        func send(_ request: HTTPRequest, limits: HTTPLimits) async throws(UploadError) -> HTTPResponse {
            await gate.pass()
            return try await next.send(request, limits: limits)
        }
    }

    @Test(
        "an extension that ends while it prepares a task leaves its upload to the app's restore once the preparation's lease runs out"
    )
    func extensionEndsWhilePreparing() async throws {
        let journal = journalPath()
        let path = try file(bytes: 200 << 10)
        defer { unlink(path) }
        let server = try CountingServer()
        let system = FakeBackgroundSystem(transport: server)
        let gate = Gate()
        let share = try await launch(
            journal: journal, transport: HeldTransport(gate: gate, next: server), system: system,
            session: BackgroundTransfersTests.extensionIdentifier, isExtension: true)
        let endpoint = server.server.endpoint
        let sending = Task {
            try? await share.transfers.send(
                path: path, to: .tus(endpoint: endpoint), type: "image/jpeg", expected: nil, on: share.queue)
        }
        // Handed over: the extension asks the server (held) before its task exists.
        var handed: UploadRecord?
        while handed == nil {
            handed = try await share.uploader.journal.all().first { $0.state == .uploading }
            if handed == nil { try await Task.sleep(nanoseconds: 5_000_000) }
        }
        let uploadID = try #require(handed?.id)
        // The extension ends there. Before its lease runs out the app leaves the upload to it.
        system.appEnded(BackgroundTransfersTests.extensionIdentifier)
        let app = try await launch(journal: journal, transport: server, system: system)
        #expect(try await app.transfers.restore(into: app.queue).isEmpty, "its preparation may still be under way")
        // Two minutes later, its task never confirmed: the app's restore takes it back and sends it.
        try SQLiteDatabase(path: journal).execute("UPDATE uploads SET lease = lease - 121 WHERE owner = -1")
        #expect(try await app.transfers.restore(into: app.queue).count == 1)
        let items = await app.queue.waitUntilSettled()
        #expect(items.map(\.state) == [.done], "\(items.map(\.state))")
        #expect(try await app.uploader.journal.record(id: uploadID)?.state == .done)

        // Had the extension gone on after all, its task is cancelled, never started: nothing twice,
        // and its own queue does not show the upload as in the background for good.
        await gate.release()
        _ = await sending.value
        #expect(system.all(BackgroundTransfersTests.extensionIdentifier).allSatisfy { !$0.resumed })
        let shareItems = await share.queue.waitUntilSettled()
        #expect(shareItems.allSatisfy { $0.state == .done }, "\(shareItems.map(\.state))")
        #expect(await server.patched == 200 << 10, "every byte sent once")
        #expect(try await app.uploader.journal.record(id: uploadID)?.state == .done)
    }

    @Test("the app back on screen takes back only its own session's tus uploads, not the extension's in the same queue")
    func takeBackLeavesTheExtensions() async throws {
        let (app, path, server, system, uploadID) = try await extensionsUploadInTheAppsQueue()
        defer { unlink(path) }
        #expect(await app.queue.all().map(\.state) == [.inBackground])
        // Back on screen, the app's session takes back its own tus uploads only.
        await app.transfers.takeBack(app.queue)
        #expect(await app.queue.all().map(\.state) == [.inBackground])
        #expect(try await app.uploader.journal.record(id: uploadID)?.state == .uploading)
        #expect(system.outstanding(BackgroundTransfersTests.extensionIdentifier).allSatisfy { !$0.cancelling })
        await system.runAll()
        #expect(try await app.uploader.journal.record(id: uploadID)?.state == .done)
        #expect(await server.patched == 150 << 10, "every byte sent once")
    }

    @Test("a person's cancel in the app's queue takes an extension's upload back from the extension's session")
    func cancelAnExtensionsUpload() async throws {
        let (app, path, server, system, uploadID) = try await extensionsUploadInTheAppsQueue()
        defer { unlink(path) }
        // Both sessions send into the app's queue: the extension's (its restore), then the app's.
        #expect(try await app.transfers.restore(into: app.queue).isEmpty)
        let id = try #require(await app.queue.all().first?.id)

        await app.queue.cancel(id)
        #expect(await app.queue.item(id)?.state == .cancelled)
        #expect(try await app.uploader.journal.record(id: uploadID)?.state == .cancelled)
        #expect(system.outstanding(BackgroundTransfersTests.extensionIdentifier).allSatisfy { $0.cancelling })
        await system.runAll()
        #expect(try await app.uploader.journal.record(id: uploadID)?.state == .cancelled)
        #expect(await server.patched == 0, "the cancelled task sent nothing")
    }

    @Test("an extension sends only files in its App Group's container: one outside, or a link out of it, is refused")
    func extensionFilesInTheGroup() async throws {
        // "Even though an app extension bundle is nested within its containing app's bundle, the
        // running app extension and containing app have no direct access to each other's
        // containers" (App Extension Programming Guide, "Sharing Data with Your Containing App"):
        // the app, which resumes what the extension's session leaves, reads only the group's.
        let group = Temporary.path("group")
        try FileManager.default.createDirectory(atPath: group, withIntermediateDirectories: true)
        defer { Temporary.remove(group) }
        let outside = try file(bytes: 20 << 10)
        defer { unlink(outside) }
        let inside = group + "/IMG_0001.JPG"
        try FileManager.default.copyItem(atPath: outside, toPath: inside)
        let link = group + "/link.JPG"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        let server = try CountingServer()
        let system = FakeBackgroundSystem(transport: server)
        let share = try await launch(
            journal: group + "/uploads.sqlite", transport: server, system: system,
            session: BackgroundTransfersTests.extensionIdentifier, isExtension: true, shared: group)
        for path in [outside, link] {
            do {
                _ = try await share.transfers.send(
                    path: path, to: .tus(endpoint: server.server.endpoint), type: "image/jpeg", expected: nil,
                    on: share.queue)
                Issue.record("\(path) was sent from outside the group")
            } catch {
                #expect(error.code == .sourceUnreadable && error.outsideSharedContainer, "\(error)")
                #expect(error.hint.contains("App Group's library"), "\(error.hint)")
            }
        }
        #expect(try await share.uploader.journal.unfinished().isEmpty, "nothing begun")
        #expect(system.outstanding(BackgroundTransfersTests.extensionIdentifier).isEmpty)
        // A missing file is said to be missing, not outside.
        do {
            _ = try await share.transfers.send(
                path: group + "/gone.JPG", to: .tus(endpoint: server.server.endpoint), type: "image/jpeg",
                expected: nil, on: share.queue)
            Issue.record("a missing file was sent")
        } catch {
            #expect(error.code == .sourceUnreadable && !error.outsideSharedContainer, "\(error)")
        }
        // The file checked is the file recorded and sent: a path through a link (here a link
        // outside the group to a folder in it, then `..`) is recorded as the kernel resolves it.
        let sub = group + "/sub"
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        let into = Temporary.path("into-group")
        try FileManager.default.createSymbolicLink(atPath: into, withDestinationPath: sub)
        defer { unlink(into) }
        let queueID = try await share.transfers.send(
            path: into + "/../IMG_0001.JPG", to: .tus(endpoint: server.server.endpoint), type: "image/jpeg",
            expected: nil, on: share.queue)
        let uploadID = try #require(await share.queue.item(queueID)?.uploadID)
        let recorded = try #require(try await share.uploader.journal.record(id: uploadID)?.path)
        #expect(recorded.hasSuffix("/IMG_0001.JPG") && recorded.contains("group"), "\(recorded)")
        #expect(!recorded.contains("into-group"), "\(recorded)")
        await system.runAll()
        #expect(await server.patched == 20 << 10)
    }

    @Test("an extension's session hands over and resumes only files in its App Group: the app's own stay with the app")
    func extensionLeavesTheAppsUploads() async throws {
        let group = Temporary.path("group")
        try FileManager.default.createDirectory(atPath: group, withIntermediateDirectories: true)
        defer { Temporary.remove(group) }
        let journal = group + "/uploads.sqlite"
        let server = try CountingServer()
        let system = FakeBackgroundSystem(transport: server)
        // The app's foreground upload of a file in its own container, paused in the shared journal.
        let appsFile = try file(bytes: 30 << 10)
        defer { unlink(appsFile) }
        let app = try await launch(journal: journal, transport: server, system: system)
        var paused = try await app.uploader.journal.begin(
            path: appsFile, size: 30 << 10, modified: try SourceFile(path: appsFile).modified,
            destination: .tus(endpoint: server.server.endpoint), type: "image/jpeg")
        paused.state = .paused
        try await app.uploader.journal.save(paused)
        // The extension launches on the same journal: it neither resumes nor hands over that one.
        let share = try await launch(
            journal: journal, transport: server, system: system,
            session: BackgroundTransfersTests.extensionIdentifier, isExtension: true, shared: group)
        #expect(try await share.transfers.restore(into: share.queue).isEmpty, "the app's upload is not the extension's")
        let record = try #require(try await share.uploader.journal.unfinished().first)
        await share.queue.add(restoring: record, endpoint: nil)
        #expect(await share.transfers.handOff(share.queue) == 0, "handed over from outside the group")
        #expect(system.outstanding(BackgroundTransfersTests.extensionIdentifier).isEmpty)
    }
}
