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

    @Test("an extension's background upload is left to its session by the app's relaunch, and ends done once")
    func extensionSessionKeepsItsUpload() async throws {
        let journal = journalPath()
        let path = try file(bytes: 300 << 10)
        defer { unlink(path) }
        let server = try CountingServer()
        let system = FakeBackgroundSystem(transport: server)
        let share = try await launch(
            journal: journal, transport: server, system: system, session: BackgroundTransfersTests.extensionIdentifier)
        let queueID = try await share.transfers.send(
            path: path, to: .tus(endpoint: server.server.endpoint), type: "image/jpeg", expected: nil,
            on: share.queue)
        let uploadID = try #require(await share.queue.item(queueID)?.uploadID)
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
        // session ("the identifier of the URL session requiring attention", UIApplication.h:436-440),
        // which makes a session with that identifier and gets the held event.
        await system.runAll()
        let relaunched = try await launch(
            journal: journal, transport: server, system: system, session: BackgroundTransfersTests.extensionIdentifier)
        let record = try #require(try await relaunched.uploader.journal.record(id: uploadID))
        #expect(record.state == .done, "\(record.why)")
        #expect(await server.patched == 300 << 10, "every byte sent once")
        let stored = try #require(await server.server.stored(record.remote ?? ""))
        #expect(stored == (try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test("an extension's upload whose task was cancelled is resumed by its own session's restore, never by the app's")
    func extensionUploadCancelled() async throws {
        let journal = journalPath()
        let path = try file(bytes: 200 << 10)
        defer { unlink(path) }
        let server = try CountingServer()
        let system = FakeBackgroundSystem(transport: server)
        let share = try await launch(
            journal: journal, transport: server, system: system, session: BackgroundTransfersTests.extensionIdentifier)
        let queueID = try await share.transfers.send(
            path: path, to: .tus(endpoint: server.server.endpoint), type: "image/jpeg", expected: nil,
            on: share.queue)
        let uploadID = try #require(await share.queue.item(queueID)?.uploadID)
        // The extension is ended and its session's tasks cancelled ("the system cancels all of the
        // session's background transfers", URL Loading System, "Downloading files in the
        // background"); the cancellation waits for a session with its identifier.
        await system.forceQuit(BackgroundTransfersTests.extensionIdentifier)
        await system.drain()

        let app = try await launch(journal: journal, transport: server, system: system)
        #expect(try await app.transfers.restore(into: app.queue).isEmpty, "the app's session leaves it")
        #expect(try await app.uploader.journal.record(id: uploadID)?.state == .uploading)

        // The extension's session, made again (by the app, for its events), hears the
        // cancellation and resumes the upload in the queue it is given.
        let again = try await launch(
            journal: journal, transport: server, system: system, session: BackgroundTransfersTests.extensionIdentifier)
        #expect(try await again.uploader.journal.record(id: uploadID)?.state == .failed)
        #expect(try await again.transfers.restore(into: again.queue).count == 1)
        let items = await again.queue.waitUntilSettled()
        #expect(items.allSatisfy { $0.state == .done }, "\(items.map(\.state))")
        #expect(try await again.uploader.journal.record(id: uploadID)?.state == .done)
        #expect(system.all(BackgroundTransfersTests.extensionIdentifier).count == 1, "not handed over again")
    }

    @Test("an upload handed over before sessions were named is the app's session's: taken back when no task carries it")
    func handedOverBeforeSessionsWereNamed() async throws {
        let journal = journalPath()
        let path = try file(bytes: 150 << 10)
        defer { unlink(path) }
        let server = try CountingServer()
        let system = FakeBackgroundSystem(transport: server)
        let first = try await launch(journal: journal, transport: server, system: system)
        let queueID = try await first.transfers.send(
            path: path, to: .tus(endpoint: server.server.endpoint), type: "image/jpeg", expected: nil,
            on: first.queue)
        let uploadID = try #require(await first.queue.item(queueID)?.uploadID)
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
}
