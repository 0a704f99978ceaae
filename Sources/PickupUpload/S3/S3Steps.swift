import Foundation

/// The S3 steps. A file below `UploadOptions.multipartThreshold` goes in one PUT (one round
/// trip, as `aws s3 cp` sends small files; sent again whole when it fails). A larger one is a
/// multipart upload: start it, list the parts the store holds, send the missing ones
/// (streamed from the file, `partConcurrency` of them in flight at once, a new one starting
/// as soon as one arrives, as `aws s3 cp` does), and complete with what the store lists.
/// Parts beyond the first in flight take only connections no other upload uses
/// (`ConnectionBudget`), so a large video shares the link with the photos beside it.
struct S3Steps: UploadSteps {
    let location: S3Location
    let authorization: S3Authorization
    let source: SourceFile
    let options: UploadOptions
    let partSize: Int64
    let count: Int
    private let client: S3Client
    /// The connections this upload's parts hold beyond its own.
    private let connections: PartConnections
    /// The parts the store holds, by number.
    private var held: [Int: S3Part] = [:]
    /// The parts on their way, by number: the request sending each, and its serial.
    private var flying: [Int: Flight] = [:]
    private var serial = 0
    /// Each request's end, as it comes: its serial, its part number, and what came of it.
    private var arrived: AsyncStream<Arrival>.Iterator
    private let report: AsyncStream<Arrival>.Continuation
    /// Whether the object goes in one PUT (decided at the first sync), and whether it went.
    private var whole = false
    private var sentWhole = false

    private struct Flight {
        let serial: Int
        let task: Task<Void, Never>
    }

    private struct Arrival: Sendable {
        let serial: Int
        let number: Int
        let result: Result<S3Part, UploadError>
    }

    init(
        location: S3Location, authorization: S3Authorization, source: SourceFile, options: UploadOptions,
        connections: ConnectionBudget
    ) {
        self.connections = PartConnections(budget: connections)
        self.location = location
        self.authorization = authorization
        self.source = source
        self.options = options
        partSize = Uploader.partSize(for: source.size, preferred: options.chunkSize)
        count = max(1, Int((source.size + partSize - 1) / partSize))
        client = S3Client(location: location, authorization: authorization, options: options)
        let (arrivals, report) = AsyncStream.makeStream(of: Arrival.self)
        self.report = report
        arrived = arrivals.makeAsyncIterator()
    }

    /// Bytes in the parts the store holds.
    private var heldBytes: Int64 { held.values.reduce(0) { $0 + $1.size } }

    mutating func sync(_ record: inout UploadRecord) async throws(UploadError) -> Int64 {
        land()
        // A small file not begun as a multipart upload: one PUT, nothing to ask the store.
        if whole || (record.remote == nil && record.size < options.multipartThreshold) {
            whole = true
            return sentWhole ? record.size : 0
        }
        guard let uploadID = record.remote else {
            record.remote = try await client.create(type: record.type)
            held = [:]
            return 0
        }
        held = [:]
        for part in Uploader.usableParts(try await client.parts(of: uploadID), partSize, record.size) {
            held[part.number] = part
        }
        return heldBytes
    }

    /// Fills the window with missing parts, then waits for the first of them to arrive and
    /// returns the bytes the store holds with it. The others fly on into the next call.
    mutating func send(_ record: inout UploadRecord) async throws(UploadError) -> Int64 {
        if whole {
            try await client.put(source: source, type: record.type)
            sentWhole = true
            return record.size
        }
        guard let uploadID = record.remote else { throw UploadError(.gone, "the upload has not started on the store") }
        let missing = max(0, count - held.count - flying.count)
        let window = connections.parts(
            flying: flying.count, window: max(1, options.partConcurrency), left: missing)
        for number in 1...count where held[number] == nil && flying[number] == nil && flying.count < window {
            launch(number, of: uploadID, size: record.size)
        }
        while !flying.isEmpty {
            guard let arrival = await arrived.next() else { break }
            // A request let go of by `land()` may still report: only the current one counts.
            guard flying[arrival.number]?.serial == arrival.serial else { continue }
            flying[arrival.number] = nil
            connections.settle(flying: flying.count)
            switch arrival.result {
            case .success(let part):
                held[part.number] = part
                return heldBytes
            case .failure(let error):
                // Parts that arrived are kept (the next sync lists them); the rest are let go.
                land()
                throw error
            }
        }
        land()
        if Task.isCancelled { throw UploadError(.cancelled, "the upload was cancelled") }
        return heldBytes
    }

    /// Starts sending part `number`; its end comes through `arrived`.
    private mutating func launch(_ number: Int, of uploadID: String, size: Int64) {
        serial += 1
        let (serial, client, source, partSize, report) = (
            self.serial, self.client, self.source, self.partSize, self.report
        )
        let task = Task {
            let offset = Int64(number - 1) * partSize
            let length = Int(min(partSize, size - offset))
            let result: Result<S3Part, UploadError>
            do throws(UploadError) {
                let etag = try await client.upload(
                    part: number, of: uploadID, source: source, offset: offset, length: length)
                result = .success(S3Part(number: number, etag: etag, size: Int64(length)))
            } catch {
                result = .failure(error)
            }
            report.yield(Arrival(serial: serial, number: number, result: result))
        }
        flying[number] = Flight(serial: serial, task: task)
    }

    mutating func stop() { land() }

    /// Lets every part in flight go: cancelled, and whatever they report later ignored.
    private mutating func land() {
        for flight in flying.values { flight.task.cancel() }
        flying = [:]
        connections.settle(flying: 0)
    }

    /// Completes with what the store lists, so that its ETags and ours cannot disagree.
    mutating func complete(_ record: inout UploadRecord) async throws(UploadError) {
        if whole {
            // An empty file is never sent: its PUT is the completion.
            if !sentWhole { try await client.put(source: source, type: record.type) }
            sentWhole = true
            return
        }
        guard let uploadID = record.remote else { throw UploadError(.gone, "the upload has not started on the store") }
        let listed = Uploader.usableParts(try await client.parts(of: uploadID), partSize, record.size)
        guard listed.count == count else {
            throw UploadError(.server, "the store lists \(listed.count) of \(count) parts")
        }
        try await client.complete(uploadID, parts: listed)
    }
}
