import Foundation
import Pickup
import Testing

@testable import PickupUpload

@Suite("The upload driver's loop: one scripted server, a clock that never sleeps")
struct UploadDriverTests {
    /// Time that moves only when the driver waits, recording each wait.
    final class TestClock: UploadClock {
        let waits = LockedWaits()
        var now: Double { waits.total }
        func sleep(seconds: Double) async { waits.add(seconds) }
    }

    final class LockedWaits: Sendable {
        private let value = LockedValue<[Double]>([])
        func add(_ seconds: Double) { value.withValue { $0.append(seconds) } }
        var all: [Double] { value.current }
        var total: Double { all.reduce(0, +) }
    }

    /// A server that holds what it is sent, failing the sends the script says.
    struct ScriptedSteps: UploadSteps {
        var held: Int64 = 0
        let chunk: Int64
        /// Failures for the sends, in order; nil: the send succeeds.
        var script: [UploadError?]
        var log: [String] = []

        /// Without an upload on the server (the first time, or after it forgot), a new one, empty.
        mutating func sync(_ record: inout UploadRecord) async throws(UploadError) -> Int64 {
            guard record.remote == nil else {
                log.append("sync")
                return held
            }
            log.append("create")
            record.remote = "upload-\(log.count)"
            held = 0
            return held
        }

        mutating func send(_ record: inout UploadRecord) async throws(UploadError) -> Int64 {
            log.append("send")
            if !script.isEmpty, let failure = script.removeFirst() { throw failure }
            held = min(record.size, held + chunk)
            return held
        }

        mutating func complete(_ record: inout UploadRecord) async throws(UploadError) { log.append("complete") }

    }

    func record(size: Int64) async throws -> (UploadJournal, UploadRecord) {
        let journal = try UploadTestFiles.journal()
        let record = try await journal.begin(
            path: "/tmp/scripted.bin", size: size, modified: 0, destination: UploadTestFiles.someTusServer,
            type: "application/octet-stream")
        return (journal, record)
    }

    @Test func cutsAreRetriedWithBackoffOnFreshConnectionsAndTheJournalEndsDone() async throws {
        let (journal, start) = try await record(size: 300)
        let clock = TestClock()
        var options = UploadOptions(maxAttempts: 3, baseDelay: 2, maxDelay: 60)
        options.clock = clock
        options.random = { 0 }
        let cut = UploadError(.network, "the connection was reset")
        var steps = ScriptedSteps(chunk: 100, script: [nil, cut, cut, nil, nil])
        let (events, continuation) = AsyncStream<UploadEvent>.makeStream()
        let final = await UploadDriver(journal: journal, options: options).run(
            start, steps: &steps, events: continuation)
        continuation.finish()
        #expect(final.state == .done && final.offset == 300)
        #expect(try await journal.record(id: start.id)?.state == .done)
        // Two cuts in a row: 1 s then 2 s (half of 2 and 4: the lowest jitter), nothing slept for real.
        #expect(clock.waits.all == [1, 2])
        var retries: [Double] = []
        var confirmed: [Int64] = []
        for await event in events {
            if case .retrying(_, _, let delay) = event { retries.append(delay) }
            if case .progress(_, let bytes, _, _) = event { confirmed.append(bytes) }
        }
        #expect(retries == [1, 2])
        #expect(confirmed == [100, 200, 300])
    }

    @Test func whenTheTriesRunOutTheRecordSaysWhyWithItsCode() async throws {
        let (journal, start) = try await record(size: 300)
        var options = UploadOptions(maxAttempts: 2, baseDelay: 1, maxDelay: 1)
        options.clock = TestClock()
        let unavailable = UploadError(.server, "sending bytes failed", status: 503)
        var steps = ScriptedSteps(chunk: 100, script: [unavailable, unavailable])
        let final = await UploadDriver(journal: journal, options: options).run(start, steps: &steps, events: nil)
        #expect(final.state == .failed)
        let saved = try #require(try await journal.record(id: start.id))
        #expect(saved.error == unavailable, "the code, message and status come back from the journal")
    }

    @Test func aForgottenUploadStartsOverWithoutWaiting() async throws {
        let (journal, start) = try await record(size: 200)
        let clock = TestClock()
        var options = UploadOptions(maxAttempts: 3)
        options.clock = clock
        var steps = ScriptedSteps(chunk: 100, script: [nil, UploadError(.gone, "forgotten", status: 404)])
        let final = await UploadDriver(journal: journal, options: options).run(start, steps: &steps, events: nil)
        #expect(final.state == .done)
        #expect(steps.log == ["create", "send", "send", "create", "send", "send", "complete"])
        #expect(clock.waits.all.isEmpty)
    }

    @Test func aCancelledTaskEndsCancelledAndResumable() async throws {
        let (journal, start) = try await record(size: 300)
        let driver = UploadDriver(journal: journal, options: UploadOptions())
        let task = Task {
            var steps = ScriptedSteps(chunk: 100, script: [])
            withUnsafeCurrentTask { $0?.cancel() }
            return await driver.run(start, steps: &steps, events: nil)
        }
        let final = await task.value
        #expect(final.state == .cancelled && final.error?.code == .cancelled)
    }
}
