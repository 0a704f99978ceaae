import Foundation

/// The S3 multipart steps: start the upload, list the parts the store holds, send the
/// missing ones (`partConcurrency` at a time, streamed from the file, as `aws s3 cp`
/// does), and complete with what the store lists.
struct S3Steps: UploadSteps {
    let location: S3Location
    let authorization: S3Authorization
    let source: SourceFile
    let options: UploadOptions
    let partSize: Int64
    let count: Int
    private var client: S3Client
    /// The parts the store holds, by number.
    private var held: [Int: S3Part] = [:]

    init(location: S3Location, authorization: S3Authorization, source: SourceFile, options: UploadOptions) {
        self.location = location
        self.authorization = authorization
        self.source = source
        self.options = options
        partSize = Uploader.partSize(for: source.size, preferred: options.chunkSize)
        count = max(1, Int((source.size + partSize - 1) / partSize))
        client = S3Client(location: location, authorization: authorization, options: options)
    }

    /// Bytes in the parts the store holds.
    private var heldBytes: Int64 { held.values.reduce(0) { $0 + $1.size } }

    mutating func sync(_ record: inout UploadRecord) async throws(UploadError) -> Int64 {
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

    mutating func send(_ record: inout UploadRecord) async throws(UploadError) -> Int64 {
        guard let uploadID = record.remote else { throw UploadError(.gone, "the upload has not started on the store") }
        let missing = (1...count).filter { held[$0] == nil }.prefix(max(1, options.partConcurrency))
        let client = self.client
        let (partSize, size, source) = (self.partSize, record.size, self.source)
        let results = await withTaskGroup(of: Result<S3Part, UploadError>.self) { group in
            for number in missing {
                group.addTask {
                    let offset = Int64(number - 1) * partSize
                    let length = Int(min(partSize, size - offset))
                    do throws(UploadError) {
                        let etag = try await client.upload(
                            part: number, of: uploadID, source: source, offset: offset, length: length)
                        return .success(S3Part(number: number, etag: etag, size: Int64(length)))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            var results: [Result<S3Part, UploadError>] = []
            for await result in group { results.append(result) }
            return results
        }
        var failure: UploadError?
        for result in results {
            switch result {
            case .success(let part): held[part.number] = part
            case .failure(let error): failure = failure ?? error
            }
        }
        // Parts that arrived are kept (the next sync lists them); the first failure is reported.
        if let failure { throw failure }
        return heldBytes
    }

    /// Completes with what the store lists, so that its ETags and ours cannot disagree.
    func complete(_ record: inout UploadRecord) async throws(UploadError) {
        guard let uploadID = record.remote else { throw UploadError(.gone, "the upload has not started on the store") }
        let listed = Uploader.usableParts(try await client.parts(of: uploadID), partSize, record.size)
        guard listed.count == count else {
            throw UploadError(.server, "the store lists \(listed.count) of \(count) parts")
        }
        try await client.complete(uploadID, parts: listed)
    }

    mutating func reconnect() {
        client = S3Client(location: location, authorization: authorization, options: options)
    }
}
