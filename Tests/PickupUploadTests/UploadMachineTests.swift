import Foundation
import PickupUpload
import Testing

@Suite("The upload machine: retries, backoff and progress, without servers or sleeping")
struct UploadMachineTests {
    func machine(size: Int64 = 1000, attempts: Int = 4, random: Double = 0) -> UploadMachine {
        UploadMachine(size: size, maxAttempts: attempts, baseDelay: 1, maxDelay: 5, random: { random })
    }

    static let cut = UploadError(.network, "the connection was reset")

    @Test func aCleanUploadSyncsSendsCompletesAndIsDone() {
        var machine = machine()
        #expect(machine.start == .sync)
        #expect(machine.next(after: .synced(confirmed: 0)) == .send)
        #expect(machine.next(after: .sent(confirmed: 600)) == .send)
        #expect(machine.next(after: .sent(confirmed: 1000)) == .complete)
        #expect(machine.next(after: .completed) == .done)
    }

    @Test func aFileTheServerAlreadyHoldsGoesStraightToComplete() {
        var machine = machine()
        #expect(machine.next(after: .synced(confirmed: 1000)) == .complete)
    }

    @Test func backoffDoublesWithJitterUpToTheCeiling() {
        var low = machine(attempts: 10, random: 0)
        var high = machine(attempts: 10, random: 0.999_999)
        var lows: [Double] = []
        var highs: [Double] = []
        for _ in 0..<5 {
            if case .wait(let seconds, _) = low.next(after: .failed(Self.cut)) { lows.append(seconds) }
            if case .wait(let seconds, _) = high.next(after: .failed(Self.cut)) { highs.append(seconds) }
        }
        // Half of 1, 2, 4, 5 (the ceiling), 5 with the lowest jitter; nearly all with the highest.
        #expect(lows == [0.5, 1, 2, 2.5, 2.5])
        #expect(highs.map { ($0 * 1000).rounded() / 1000 } == [1, 2, 4, 5, 5])
        #expect(low.next(after: .waited) == .sync)
    }

    @Test func anEndpointThatCannotBeReachedIsTriedAgainWithin8Seconds() {
        var machine = UploadMachine(
            size: 1000, maxAttempts: 8, baseDelay: 0.5, maxDelay: 30, random: { 0.999_999 })
        var waits: [Double] = []
        for _ in 0..<7 {
            if case .wait(let seconds, _) = machine.next(after: .failed(.unreachable("cannot connect"))) {
                waits.append((seconds * 1000).rounded() / 1000)
            }
        }
        // 0.5 doubling, to 8 s at most (not 16 and 30): the default 7 retries wait 31.5 s at most.
        #expect(waits == [0.5, 1, 2, 4, 8, 8, 8])
        if case .fail(let error) = machine.next(after: .failed(.unreachable("cannot connect"))) {
            #expect(error.unreachable)
        } else {
            Issue.record("the eighth failure should end the upload")
        }
    }

    @Test func triesResetOnlyWhenTheServerHoldsMoreThanEver() {
        var machine = machine(attempts: 3)
        _ = machine.next(after: .synced(confirmed: 0))
        _ = machine.next(after: .sent(confirmed: 500))
        _ = machine.next(after: .failed(Self.cut))
        #expect(machine.attempts == 1)
        // The server went back to 200: not progress, so tries keep counting.
        _ = machine.next(after: .synced(confirmed: 200))
        _ = machine.next(after: .sent(confirmed: 500))
        #expect(machine.attempts == 1)
        _ = machine.next(after: .failed(Self.cut))
        #expect(machine.attempts == 2)
        // Past the most ever held: progress, tries start over.
        _ = machine.next(after: .sent(confirmed: 700))
        #expect(machine.attempts == 0)
        #expect(machine.highWater == 700)
    }

    @Test func retryAfterIsWaitedForUpToItsCeiling() {
        var machine = machine(attempts: 5)
        let busy = UploadError(.server, "busy", status: 503, retryAfter: 30)
        #expect(machine.next(after: .failed(busy)) == .wait(seconds: 30, after: busy))
        // Shorter than the backoff: the backoff.
        let soon = UploadError(.server, "busy", status: 503, retryAfter: 0.1)
        #expect(machine.next(after: .failed(soon)) == .wait(seconds: 1, after: soon))
        // Longer than Pickup waits: the upload ends now, saying so.
        let later = UploadError(.server, "busy", status: 429, retryAfter: 100_000)
        guard case .fail(let error) = machine.next(after: .failed(later)) else {
            Issue.record("a wait of a day was taken")
            return
        }
        #expect(error.message.contains("asks to wait 100000 s"))
    }

    @Test func retryAfterReadsSecondsAndDates() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let seconds = HTTPResponse(status: 503, headers: ["retry-after": "120"], body: Data())
        #expect(seconds.retryAfter(now: now) == 120)
        let date = HTTPResponse(status: 503, headers: ["retry-after": "Tue, 14 Nov 2023 22:15:00 GMT"], body: Data())
        #expect(date.retryAfter(now: now) == 100)
        let junk = HTTPResponse(status: 503, headers: ["retry-after": "soon"], body: Data())
        #expect(junk.retryAfter(now: now) == nil)
        #expect(HTTPResponse(status: 503, headers: [:], body: Data()).retryAfter(now: now) == nil)
    }

    @Test func aSendThatGainsLessThanTheMinimumIsAFailureInARow() {
        var machine = UploadMachine(
            size: 1000, maxAttempts: 3, baseDelay: 1, maxDelay: 5, minimumGain: 100, random: { 0 })
        _ = machine.next(after: .synced(confirmed: 0))
        // One byte a chunk: waits and counts, never resets, and fails at the third.
        #expect(machine.next(after: .sent(confirmed: 1)).isWait)
        #expect(machine.next(after: .synced(confirmed: 1)) == .send)
        #expect(machine.next(after: .sent(confirmed: 2)).isWait)
        #expect(machine.attempts == 2)
        #expect(machine.next(after: .synced(confirmed: 2)) == .send)
        #expect(machine.next(after: .sent(confirmed: 3)).isFailure)
        // A gain of the minimum is progress; the last few bytes of the file count whole.
        var fair = UploadMachine(size: 1000, maxAttempts: 2, baseDelay: 1, maxDelay: 5, minimumGain: 100, random: { 0 })
        _ = fair.next(after: .synced(confirmed: 0))
        #expect(fair.next(after: .sent(confirmed: 100)) == .send)
        #expect(fair.next(after: .sent(confirmed: 950)) == .send)
        #expect(fair.next(after: .sent(confirmed: 1000)) == .complete)
        #expect(fair.attempts == 0)
    }

    @Test func aServerThatKeepsForgettingCannotKeepAnUploadGoingForever() {
        var machine = machine(attempts: 3)
        var actions: [UploadMachine.Action] = []
        for _ in 0..<10 {
            _ = machine.next(after: .synced(confirmed: 0))
            actions.append(machine.next(after: .sent(confirmed: 400)))
            actions.append(machine.next(after: .failed(UploadError(.gone, "the server no longer knows the upload"))))
            if case .fail = actions.last { break }
        }
        #expect(actions.filter { $0 == .restart }.count == 2)
        if case .fail(let error) = actions.last { #expect(error.code == .gone) } else { Issue.record("no failure") }
    }

    @Test func aConflictAsksTheServerAtOnceAndAChecksumMismatchWaits() {
        var machine = machine()
        #expect(machine.next(after: .failed(UploadError(.offsetConflict, "409"))) == .sync)
        guard case .wait = machine.next(after: .failed(UploadError(.checksumMismatch, "460"))) else {
            Issue.record("a corrupted chunk is sent again after a wait")
            return
        }
    }

    @Test(arguments: [
        UploadError(.unauthorized, "refused", status: 403), UploadError(.cancelled, "cancelled"),
        UploadError(.server, "bad request", status: 400), UploadError(.certificate, "not trusted"),
        UploadError(.tooLarge, "too large", status: 413),
    ])
    func whatWaitingCannotMendFailsAtOnce(error: UploadError) {
        var machine = machine()
        #expect(machine.next(after: .failed(error)) == .fail(error))
        #expect(machine.attempts == 0)
    }

    @Test func aServerErrorIsRetriedUntilTheTriesRunOut() {
        var machine = machine(attempts: 3)
        let error = UploadError(.server, "unavailable", status: 503)
        guard case .wait = machine.next(after: .failed(error)), case .wait = machine.next(after: .failed(error)) else {
            Issue.record("a 503 is retried")
            return
        }
        #expect(machine.next(after: .failed(error)) == .fail(error))
    }
}

extension UploadMachine.Action {
    var isWait: Bool {
        if case .wait = self { return true }
        return false
    }
}
