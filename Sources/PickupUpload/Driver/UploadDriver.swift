import Foundation

/// Runs one upload: asks the machine what to do next, does it with the protocol's
/// steps, saves each step in the journal and reports it on `events`. The one loop
/// behind tus, S3 and form uploads.
struct UploadDriver {
    let journal: UploadJournal
    let options: UploadOptions

    func run(
        _ start: UploadRecord, steps: inout some UploadSteps, events: AsyncStream<UploadEvent>.Continuation?
    ) async -> UploadRecord {
        let began = options.clock.now
        // Bytes on their way between confirmations, told to whoever listens.
        let meter = events.map {
            SendMeter(id: start.id, size: start.size, confirmed: start.offset, events: $0, clock: options.clock)
        }
        return await SendMeter.current.withValue(meter) {
            await drive(start, steps: &steps, events: events, meter: meter, began: began)
        }
    }

    private func drive(
        _ start: UploadRecord, steps: inout some UploadSteps, events: AsyncStream<UploadEvent>.Continuation?,
        meter: SendMeter?, began: Double
    ) async -> UploadRecord {
        var record = start
        let clock = options.clock
        // Where this run's bytes begin: the journal's count, then the server's once it has said.
        var firstOffset = record.offset
        // Begun in an earlier run: the first sync asks the server what it kept of it.
        var resuming = record.remote != nil
        var machine = UploadMachine(
            size: record.size, confirmed: record.offset, maxAttempts: record.maxAttempts ?? options.maxAttempts,
            baseDelay: options.baseDelay, maxDelay: options.maxDelay, minimumGain: steps.minimumGain,
            random: options.random)
        events?.yield(.started(id: record.id, path: record.path, size: record.size))
        var action = machine.start
        while true {
            var outcome: UploadMachine.Outcome
            do throws(UploadError) {
                // Stopping is checked before each step; ending (done or failed) always runs.
                if Task.isCancelled, action != .done, !action.isFailure {
                    throw UploadError(.cancelled, "the upload was cancelled")
                }
                switch action {
                case .sync:
                    let confirmed = try await steps.sync(&record)
                    try check(confirmed, of: record)
                    // Counted before the rewind is told: a request ending meanwhile counts from it.
                    meter?.confirm(confirmed, tell: true)
                    if confirmed < record.offset {
                        events?.yield(.rewound(id: record.id, from: record.offset, to: confirmed))
                    }
                    record.offset = confirmed
                    record.state = .uploading
                    try await journal.save(record)
                    if resuming {
                        resuming = false
                        firstOffset = confirmed
                        events?.yield(.resumed(id: record.id, confirmed: confirmed, size: record.size))
                    }
                    outcome = .synced(confirmed: confirmed)
                case .send:
                    let confirmed = try await steps.send(&record)
                    try check(confirmed, of: record)
                    record.offset = confirmed
                    try await journal.save(record)
                    meter?.confirm(confirmed)
                    // The pace of the bytes sent over the last seconds where a transport tells them,
                    // else the confirmed bytes' since the run began.
                    let average = Double(max(0, confirmed - firstOffset)) / max(0.001, clock.now - began)
                    events?.yield(
                        .progress(
                            id: record.id, confirmed: confirmed, size: record.size,
                            bytesPerSecond: meter?.bytesPerSecond ?? average))
                    outcome = .sent(confirmed: confirmed)
                case .complete:
                    try await steps.complete(&record)
                    outcome = .completed
                case .restart:
                    // Without a `remote`, the next sync starts a new upload on the server.
                    record.remote = nil
                    // An upload the server forgot before this run asked: it kept nothing of it.
                    if resuming {
                        resuming = false
                        firstOffset = 0
                        events?.yield(.resumed(id: record.id, confirmed: 0, size: record.size))
                    }
                    outcome = .restarted
                case .wait(let seconds, let error):
                    events?.yield(.retrying(id: record.id, error: error, delay: seconds))
                    // No connection to rebuild here: a transport never reuses a connection a
                    // request failed on (AsyncHTTPClient closes it; URLSession does not keep it).
                    await clock.sleep(seconds: seconds)
                    outcome = .waited
                case .done:
                    record.state = .done
                    record.offset = record.size
                    record.error = nil
                    try? await journal.save(record)
                    meter?.close()
                    events?.yield(.finished(record))
                    return record
                case .fail(let error):
                    steps.stop()
                    record.state = error.code == .cancelled ? .cancelled : .failed
                    record.error = error
                    try? await journal.save(record)
                    meter?.close()
                    events?.yield(.finished(record))
                    return record
                }
            } catch {
                // What landed since the last confirmation counts no more: the next sync says what the
                // server holds.
                meter?.failed()
                outcome = .failed(error)
            }
            action = machine.next(after: outcome)
        }
    }

    /// A server's count of bytes must fit the file.
    private func check(_ confirmed: Int64, of record: UploadRecord) throws(UploadError) {
        guard (0...record.size).contains(confirmed) else {
            throw UploadError(
                .badAnswer, "the server says it holds \(confirmed) bytes of a \(record.size)-byte file")
        }
    }
}
