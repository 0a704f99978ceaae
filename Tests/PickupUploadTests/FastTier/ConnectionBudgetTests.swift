import Foundation
import PickupStore
import PickupTestSupport
import Testing

@testable import PickupUpload

extension FastTier {
    /// One large video and many photos share an uploader's connections: the video's parts beyond
    /// its first take only connections no photo uses, and a photo is never kept waiting for one.
    @Suite("Connections shared by a large video's parts and the photos beside it")
    struct ConnectionBudgetTests {
        @Test("the rule: parts beyond the first take spare connections only, and give them back as they arrive")
        func rule() {
            let budget = ConnectionBudget(limit: 8)
            budget.enter()
            var video: PartConnections? = PartConnections(budget: budget)
            #expect(video?.parts(flying: 0, window: 4, left: 12) == 4, "alone, the video sends 4 parts at once")
            #expect(budget.used == 4)
            for _ in 0..<7 { budget.enter() }
            #expect(budget.used == 11, "photos start at once: an upload's own connection is never refused")
            // Each part that arrives gives its connection back; none is taken while photos hold them.
            video?.settle(flying: 3)
            #expect(video?.parts(flying: 3, window: 4, left: 8) == 3)
            video?.settle(flying: 2)
            video?.settle(flying: 1)
            video?.settle(flying: 0)
            #expect(video?.parts(flying: 0, window: 4, left: 8) == 1, "beside 7 photos, one part at a time")
            #expect(budget.used == 8)
            for _ in 0..<5 { budget.leave() }
            #expect(video?.parts(flying: 1, window: 4, left: 7) == 4, "the photos gone, 4 parts again")
            #expect(video?.parts(flying: 0, window: 4, left: 2) == 2, "no more connections than parts left")
            #expect(budget.used == 4, "what the last parts no longer need is given back")
            video = nil
            #expect(budget.used == 3, "a let-go upload keeps no connection: only the 2 photos' and the video's own")
        }

        @Test("a video started beside 7 photos in flight sends one part at a time, then 4 once they are done")
        func videoBesidePhotos() async throws {
            let s3 = S3FastTests()
            let store = try s3.store()
            let transport = HoldingTransport(store: store)
            var options = UploadOptions(
                chunkSize: 5 << 20, maxAttempts: 2, baseDelay: 0.01, maxDelay: 0.02, transport: transport,
                partConcurrency: 4)
            options.connectionLimit = 8
            let journal = Temporary.url("budget", suffix: ".sqlite")
            defer { Temporary.remove(journal) }
            let uploader = Uploader(
                journal: try UploadJournal(path: journal.path), options: options,
                s3Credentials: S3FastTests.credentials)
            var paths: [String] = []
            defer { for path in paths { unlink(path) } }
            for _ in 0..<7 { paths.append(try s3.file(300_000)) }
            let video = try s3.file(60 << 20)
            paths.append(video)

            let photos = (0..<7).map { number in
                uploader.start(path: paths[number], to: .s3(s3.location(store, "photo-\(number).heic")))
            }
            try #require(await transport.waitForHeldPhotos(7))
            let movie = uploader.start(path: video, to: .s3(s3.location(store, "movie.mov")))
            try #require(await transport.waitForParts(2))
            await transport.releasePhotos()
            for photo in photos { #expect(await photo.result().state == .done) }
            let record = await movie.result()
            #expect(record.state == .done, "\(record.why)")

            #expect(await transport.peakWhileHeld == 1, "the photos held 7 of 8 connections: one part at a time")
            #expect(await transport.peakAfter == 4, "once they were done: the video's 4 parts at once")
            #expect(await store.object("photos", "movie.mov")?.bytes == (try s3.contents(video)))
            for number in 0..<7 {
                #expect(await store.object("photos", "photo-\(number).heic")?.bytes == (try s3.contents(paths[number])))
            }
            #expect(uploader.connections.used == 0, "every connection given back")
        }

        @Test("a video whose upload fails or is cancelled with parts in flight gives back every connection")
        func givenBackOnFailureAndCancel() async throws {
            let s3 = S3FastTests()
            let video = try s3.file(40 << 20)
            defer { unlink(video) }
            // Refused for good ("AccessDenied", 403: not retried) at the third request, the
            // second part, while the others fly.
            let refusing = try s3.store(failing: [3: InMemoryS3Server.Failure(status: 403, code: "AccessDenied")])
            let failing = try s3.uploader(refusing, maxAttempts: 2)
            let failed = await failing.start(path: video, to: .s3(s3.location(refusing, "movie.mov"))).result()
            #expect(failed.state == .failed)
            #expect(failing.connections.used == 0, "the failed upload keeps no connection")

            // Cancelled while 4 parts are on a slow wire.
            let store = try s3.store()
            let options = UploadOptions(
                chunkSize: 5 << 20, maxAttempts: 2, baseDelay: 0.01, maxDelay: 0.02,
                transport: SlowTransport(store: store), partConcurrency: 4)
            let journal = Temporary.url("budget", suffix: ".sqlite")
            defer { Temporary.remove(journal) }
            let uploader = Uploader(
                journal: try UploadJournal(path: journal.path), options: options,
                s3Credentials: S3FastTests.credentials)
            let task = uploader.start(path: video, to: .s3(s3.location(store, "movie.mov")))
            // Polled, not slept for: on a loaded machine reading the first parts can take longer
            // than any fixed pause.
            let deadline = ContinuousClock.now + .seconds(30)
            while uploader.connections.used <= 1, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(2))
            }
            #expect(uploader.connections.used > 1, "parts in flight hold connections beyond the upload's own")
            task.cancel()
            let cancelled = await task.result()
            #expect(cancelled.state != .done, "cancelled before its 8 parts of 200 ms could arrive")
            #expect(uploader.connections.used == 0, "the cancelled upload keeps no connection")
        }
    }
}

/// Passes every request to the in-memory store after 200 ms on the wire.
private struct SlowTransport: HTTPTransport {
    let store: InMemoryS3Server

    func send(_ request: HTTPRequest, limits: HTTPLimits) async throws(UploadError) -> HTTPResponse {
        try? await Task.sleep(for: .milliseconds(200))
        return try await store.send(request, limits: limits)
    }
}

/// Passes requests to the in-memory store after 30 ms on the wire, holding the photos' PUTs
/// until released, and counts the video's parts in flight while they are held and after.
private actor HoldingTransport: HTTPTransport {
    let store: InMemoryS3Server
    private var held: [CheckedContinuation<Void, Never>] = []
    private var released = false
    private var partsFlying = 0
    private var partsDone = 0
    private(set) var peakWhileHeld = 0
    private(set) var peakAfter = 0

    init(store: InMemoryS3Server) { self.store = store }

    nonisolated func send(_ request: HTTPRequest, limits: HTTPLimits) async throws(UploadError) -> HTTPResponse {
        let isPart = request.url.query?.contains("partNumber=") == true
        if request.url.path.contains("/photo-") { await hold() }
        if isPart { await partStarted() }
        try? await Task.sleep(for: .milliseconds(30))
        do {
            let response = try await store.send(request, limits: limits)
            if isPart { await partEnded() }
            return response
        } catch {
            if isPart { await partEnded() }
            throw error
        }
    }

    private func hold() async {
        guard !released else { return }
        await withCheckedContinuation { held.append($0) }
    }

    private func partStarted() {
        partsFlying += 1
        if released { peakAfter = max(peakAfter, partsFlying) } else { peakWhileHeld = max(peakWhileHeld, partsFlying) }
    }

    private func partEnded() {
        partsFlying -= 1
        partsDone += 1
    }

    func releasePhotos() {
        released = true
        for waiting in held { waiting.resume() }
        held = []
    }

    /// Whether `count` photos came to be held within 20 s.
    func waitForHeldPhotos(_ count: Int) async throws -> Bool {
        for _ in 0..<4_000 where held.count < count { try await Task.sleep(for: .milliseconds(5)) }
        return held.count >= count
    }

    /// Whether `count` parts arrived within 20 s.
    func waitForParts(_ count: Int) async throws -> Bool {
        for _ in 0..<4_000 where partsDone < count { try await Task.sleep(for: .milliseconds(5)) }
        return partsDone >= count
    }
}
