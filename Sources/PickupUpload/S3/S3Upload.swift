import Foundation

extension Uploader {
    /// The part size for a file: at least 5 MiB (S3's minimum) and `preferred`,
    /// and large enough that 10,000 parts (S3's maximum) hold the whole file,
    /// rounded up to whole MiB.
    public static func partSize(for size: Int64, preferred: Int) -> Int64 {
        let mebibyte: Int64 = 1 << 20
        var part = max(5 * mebibyte, Int64(preferred))
        let needed = (size + 9_999) / 10_000
        if part < needed { part = (needed + mebibyte - 1) / mebibyte * mebibyte }
        return part
    }

    /// Uploads a file to S3 with a multipart upload; returns its final record.
    public func upload(
        path: String, to location: S3Location, credentials: S3Credentials, type: String = "application/octet-stream",
        events: AsyncStream<UploadEvent>.Continuation? = nil
    ) async -> UploadRecord {
        await start(path: path, target: location.journalTarget, type: type, events: events) { record, source in
            await self.runS3(
                record, location: location, authorization: .credentials(credentials), source: source, events: events)
        }
    }

    /// Uploads a file to S3 through URLs presigned by `signer` (an app's backend): no
    /// credentials in the app. Parts go as `UNSIGNED-PAYLOAD`, as presigned URLs allow.
    public func upload(
        path: String, to location: S3Location, signer: any S3URLSigner, type: String = "application/octet-stream",
        events: AsyncStream<UploadEvent>.Continuation? = nil
    ) async -> UploadRecord {
        await start(path: path, target: location.journalTarget, type: type, events: events) { record, source in
            await self.runS3(
                record, location: location, authorization: .presigned(signer), source: source, events: events)
        }
    }

    func runS3(
        _ start: UploadRecord, location: S3Location, authorization: S3Authorization, source: SourceFile,
        events: AsyncStream<UploadEvent>.Continuation?
    ) async -> UploadRecord {
        var record = start
        var client = S3Client(location: location, authorization: authorization, options: options)
        let partSize = Uploader.partSize(for: record.size, preferred: options.chunkSize)
        let count = max(1, Int((record.size + partSize - 1) / partSize))
        let began = Date()
        let firstOffset = record.offset
        events?.yield(.started(id: record.id, path: record.path, size: record.size))
        var done: [Int: S3Part] = [:]
        var needsList = record.remote != nil
        var attempts = 0
        var sentOnce: Set<Int> = []
        while true {
            do {
                if Task.isCancelled { throw UploadError(.cancelled, "the upload was cancelled") }
                if record.remote == nil {
                    record.remote = try await client.create(type: record.type)
                    done = [:]
                    needsList = false
                }
                guard let uploadID = record.remote else { continue }
                if needsList {
                    done = [:]
                    for part in Uploader.usableParts(try await client.parts(of: uploadID), partSize, record.size) {
                        done[part.number] = part
                    }
                    needsList = false
                }
                let contiguous = Uploader.contiguousBytes(done, partSize: partSize, size: record.size)
                if record.state != .uploading || record.offset != contiguous {
                    record.state = .uploading
                    record.offset = contiguous
                    try await journal.save(record)
                }
                guard let number = (1...count).first(where: { done[$0] == nil }) else { break }
                let offset = Int64(number - 1) * partSize
                let length = Int(min(partSize, record.size - offset))
                let etag = try await client.upload(
                    part: number, of: uploadID, source: source, offset: offset, length: length)
                done[number] = S3Part(number: number, etag: etag, size: Int64(length))
                // Only a part sent for the first time is progress: a store that loses parts it
                // accepted cannot keep the upload going forever.
                if sentOnce.insert(number).inserted { attempts = 0 }
                record.offset = Uploader.contiguousBytes(done, partSize: partSize, size: record.size)
                try await journal.save(record)
                Uploader.reportProgress(record, since: began, from: firstOffset, to: events)
            } catch {
                let failure = (error as? UploadError) ?? UploadError(.network, "\(error)")
                if failure.code == .gone {
                    record.remote = nil
                    attempts += 1
                } else {
                    if failure.code == .network {
                        client = S3Client(location: location, authorization: authorization, options: options)
                    }
                    guard failure.isRetryable else { return await finish(record, failure, events) }
                    attempts += 1
                    needsList = record.remote != nil
                }
                if attempts >= options.maxAttempts { return await finish(record, failure, events) }
                let delay = failure.code == .gone ? 0 : options.delay(attempt: attempts)
                if delay > 0 {
                    events?.yield(.retrying(id: record.id, error: failure, delay: delay))
                    try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
                }
            }
        }
        // Complete with what the store lists, so its ETags and ours cannot disagree.
        do {
            guard let uploadID = record.remote else { throw UploadError(.server, "no upload to complete") }
            let listed = Uploader.usableParts(try await client.parts(of: uploadID), partSize, record.size)
            guard listed.count == count else {
                throw UploadError(.server, "the store lists \(listed.count) of \(count) parts")
            }
            try await client.complete(uploadID, parts: listed)
        } catch {
            return await finish(record, (error as? UploadError) ?? UploadError(.network, "\(error)"), events)
        }
        record.state = .done
        record.offset = record.size
        record.error = nil
        try? await journal.save(record)
        events?.yield(.finished(record))
        return record
    }

    /// Cancels an S3 upload: aborts it on the store and marks it cancelled.
    func abortS3(_ record: UploadRecord, authorization: S3Authorization) async {
        guard let location = S3Location(journalTarget: record.target), let uploadID = record.remote else { return }
        try? await S3Client(location: location, authorization: authorization, options: options).abort(
            uploadID)
    }

    /// The listed parts that hold what this upload sends: one per number (the last
    /// listed), each of the size its number must have. A part cut off by a lost
    /// connection, which some stores keep, is sent again.
    static func usableParts(_ listed: [S3Part], _ partSize: Int64, _ size: Int64) -> [S3Part] {
        let count = max(1, Int((size + partSize - 1) / partSize))
        var byNumber: [Int: S3Part] = [:]
        for part in listed where (1...count).contains(part.number) {
            let expected = min(partSize, size - Int64(part.number - 1) * partSize)
            if part.size == expected { byNumber[part.number] = part }
        }
        return byNumber.values.sorted { $0.number < $1.number }
    }

    static func contiguousBytes(_ done: [Int: S3Part], partSize: Int64, size: Int64) -> Int64 {
        var number = 1
        while done[number] != nil { number += 1 }
        return min(size, Int64(number - 1) * partSize)
    }
}
