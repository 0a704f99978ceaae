/// The upload driver's decisions, apart from the network and the clock: after each
/// step's outcome, what to do next. One for tus, S3 and forms alike.
///
/// Tries count failures in a row without progress, and progress is only the server
/// holding more bytes than it ever held, by at least `minimumGain` (or the rest of the
/// file): a server that confirms bytes and then forgets them, or that takes one byte of
/// each chunk sent, cannot keep an upload going forever. A send that gains less than
/// that is itself a failure in a row. A plain value with an injected random
/// source, so retries and backoff are tested without servers and without sleeping.
package struct UploadMachine: Sendable {
    /// What to do next.
    package enum Action: Sendable, Equatable {
        /// Make sure the upload exists on the server (create it) and ask what it holds.
        case sync
        /// Send the next chunk or part.
        case send
        /// Finish the upload on the server (S3: complete it).
        case complete
        /// The server forgot the upload: start a new one, from byte 0.
        case restart
        /// Wait this many seconds, then `sync`.
        case wait(seconds: Double, after: UploadError)
        /// The server holds every byte and the upload is finished.
        case done
        /// Give up: the error says why.
        case fail(UploadError)

        /// Whether it ends the upload as failed.
        package var isFailure: Bool {
            if case .fail = self { return true }
            return false
        }
    }

    /// How the last step ended.
    package enum Outcome: Sendable {
        /// The server holds `confirmed` bytes.
        case synced(confirmed: Int64)
        /// A chunk or part was sent; the server holds `confirmed` bytes.
        case sent(confirmed: Int64)
        /// The upload was finished on the server.
        case completed
        /// A new upload was started on the server.
        case restarted
        /// The wait is over.
        case waited
        /// The step failed with this error.
        case failed(UploadError)
    }

    /// The file's size in bytes.
    package let size: Int64
    /// Failures in a row, without progress, before the upload fails.
    package let maxAttempts: Int
    /// The first retry's delay in seconds; it doubles each time, with jitter.
    package let baseDelay: Double
    /// The longest delay between tries, in seconds.
    package let maxDelay: Double
    /// Failures since the server last held more bytes than ever before.
    package private(set) var attempts = 0
    /// The most bytes the server ever held.
    package private(set) var highWater: Int64
    /// The least gain over `highWater` that counts as progress (tus: an eighth of a chunk).
    package let minimumGain: Int64
    /// What the server held after the last step.
    private var lastConfirmed: Int64
    private var random: @Sendable () -> Double

    /// `random` returns a number in 0..<1 for the backoff's jitter.
    package init(
        size: Int64, confirmed: Int64 = 0, maxAttempts: Int, baseDelay: Double, maxDelay: Double,
        minimumGain: Int64 = 1, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.size = size
        highWater = confirmed
        lastConfirmed = confirmed
        self.minimumGain = max(1, minimumGain)
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.random = random
    }

    /// The first action: ask the server.
    package var start: Action { .sync }

    /// The action after a step's outcome.
    package mutating func next(after outcome: Outcome) -> Action {
        switch outcome {
        case .synced(let confirmed):
            noteHeld(confirmed)
            return confirmed >= size ? .complete : .send
        case .sent(let confirmed):
            let before = lastConfirmed
            let least = min(minimumGain, max(1, size - before))
            noteHeld(confirmed)
            if confirmed < size, confirmed - before < least {
                // Too little for the bytes sent: a failure in a row, not progress.
                let error = UploadError(
                    .badAnswer,
                    "the server took \(max(0, confirmed - before)) bytes of a chunk at \(before) "
                        + "(at least \(least) count as progress)")
                attempts += 1
                return attempts >= maxAttempts ? .fail(error) : .wait(seconds: delay(attempt: attempts), after: error)
            }
            return confirmed >= size ? .complete : .send
        case .completed: return .done
        case .restarted, .waited: return .sync
        case .failed(let error): return failed(error)
        }
    }

    /// The server holds `confirmed`: tries start over when that is more than ever by at
    /// least `minimumGain` (or the rest of the file).
    private mutating func noteHeld(_ confirmed: Int64) {
        lastConfirmed = confirmed
        if confirmed > highWater {
            if confirmed - highWater >= min(minimumGain, size - highWater) { attempts = 0 }
            highWater = confirmed
        }
    }

    private mutating func failed(_ error: UploadError) -> Action {
        switch error.code {
        case .cancelled: return .fail(error)
        case .gone:
            attempts += 1
            return attempts >= maxAttempts ? .fail(error) : .restart
        case .offsetConflict:
            attempts += 1
            return attempts >= maxAttempts ? .fail(error) : .sync
        default:
            guard error.isRetryable else { return .fail(error) }
            attempts += 1
            guard attempts < maxAttempts else { return .fail(error) }
            // A server's Retry-After is honoured, up to `longestRetryAfter`; a longer wait ends
            // the upload now (resumable later), rather than hanging on or knocking early. An
            // endpoint that cannot be reached at all is tried again sooner: it is back within
            // seconds or it is down, and a batch waits for this upload's tries before it stops.
            let backoff = delay(attempt: attempts)
            let wait = error.unreachable ? min(backoff, UploadMachine.unreachableMaxDelay) : backoff
            guard let asked = error.retryAfter else { return .wait(seconds: wait, after: error) }
            guard asked <= longestRetryAfter else {
                var refused = error
                refused.message +=
                    "; the server asks to wait \(Int(asked.rounded())) s, longer than Pickup waits "
                    + "(\(Int(longestRetryAfter)) s): resume it later"
                return .fail(refused)
            }
            return .wait(seconds: max(asked, wait), after: error)
        }
    }

    /// The longest `Retry-After` waited for: four times the longest backoff, at least five minutes.
    package var longestRetryAfter: Double { max(300, maxDelay * 4) }

    /// The longest wait before another try of an endpoint that could not be reached: with the
    /// default 7 retries, at most 31.5 s of waiting in all.
    package static let unreachableMaxDelay = 8.0

    /// The delay before try number `attempt` (1-based): doubling from `baseDelay` up to
    /// `maxDelay`, with jitter in [50%, 100%].
    package func delay(attempt: Int) -> Double {
        let full = min(maxDelay, baseDelay * Double(1 << min(max(attempt, 1) - 1, 20)))
        return full * (0.5 + 0.5 * min(max(random(), 0), 1))
    }
}
