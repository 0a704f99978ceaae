import Foundation
import Pickup

/// The tus 1.0 steps: ask the server's extensions once, create the upload (its first
/// chunk riding along with creation-with-upload), ask its offset, send chunks.
struct TusSteps: UploadSteps {
    let endpoint: URL
    let source: SourceFile
    let options: UploadOptions
    private let client: TusClient
    private var sizes: TusChunkSizes
    private var capabilities: TusCapabilities?
    /// What endpoints said they support, shared by the uploads of one uploader.
    private let known: LockedValue<[String: TusCapabilities]>?

    init(
        endpoint: URL, source: SourceFile, options: UploadOptions, known: LockedValue<[String: TusCapabilities]>? = nil
    ) {
        self.endpoint = endpoint
        self.source = source
        self.options = options
        self.known = known
        client = TusClient(endpoint: endpoint, options: options)
        sizes = TusChunkSizes(first: options.chunkSize, largest: options.largestTusChunk)
        capabilities = known?.withValue { $0[endpoint.absoluteString] }
    }

    private var checksum: TusChecksum? { options.tusChecksums ? capabilities?.preferredChecksum : nil }

    mutating func sync(_ record: inout UploadRecord) async throws(UploadError) -> Int64 {
        if capabilities == nil {
            var found = try await client.capabilities()
            // A ceiling another upload found meanwhile stays.
            known?.withValue { entries in
                found.largestChunk = entries[endpoint.absoluteString]?.largestChunk
                entries[endpoint.absoluteString] = found
            }
            capabilities = found
        }
        if let limit = capabilities?.maxSize, record.size > limit {
            throw UploadError(.tooLarge, "the server takes files up to \(limit) bytes; this one has \(record.size)")
        }
        if let remote = record.remote.flatMap({ URL(string: $0) }) {
            return try await client.offset(of: remote)
        }
        let first =
            capabilities?.extensions.contains("creation-with-upload") == true
            ? TusChunk(
                source: source, offset: 0, length: Int(min(Int64(options.chunkSize), record.size)), checksum: checksum)
            : nil
        let began = options.clock.now
        let created = try await client.create(
            length: record.size, metadata: TusClient.metadata(of: record), first: first)
        record.remote = created.url.absoluteString
        if let first {
            sizes.took(
                first.length, whole: created.offset == Int64(first.length), seconds: options.clock.now - began)
        }
        return created.offset
    }

    mutating func send(_ record: inout UploadRecord) async throws(UploadError) -> Int64 {
        guard let remote = record.remote.flatMap({ URL(string: $0) }) else {
            throw UploadError(.gone, "the upload has no address on the server yet")
        }
        // A ceiling an upload to the endpoint found (this one's, or another's, before or since).
        if let ceiling = known?.withValue({ $0[endpoint.absoluteString]?.largestChunk }) { sizes.limit(to: ceiling) }
        let count = Int(min(Int64(sizes.next), record.size - record.offset))
        let chunk = TusChunk(source: source, offset: record.offset, length: count, checksum: checksum)
        let next: Int64
        let began = options.clock.now
        do {
            next = try await client.patch(remote, chunk: chunk)
        } catch {
            let refused = error.code == .tooLarge
            guard sizes.failed(count, refused: refused) else { throw error }
            // A proxy that takes smaller bodies says 413 (the upload itself was accepted when it
            // was made): the chunk goes again at once at a size that passed. Other failures are
            // retried as any is, with the first size.
            if refused {
                if let ceiling = sizes.largestPassedBeforeRefusal {
                    known?.withValue { entries in
                        let kept = entries[endpoint.absoluteString]?.largestChunk ?? ceiling
                        entries[endpoint.absoluteString]?.largestChunk = min(kept, ceiling)
                    }
                }
                return try await send(&record)
            }
            throw error
        }
        guard next > record.offset, next <= record.size else {
            throw UploadError(.server, "the server reported offset \(next) after a chunk at \(record.offset)")
        }
        sizes.took(count, whole: next == record.offset + Int64(count), seconds: options.clock.now - began)
        return next
    }

    func complete(_ record: inout UploadRecord) async throws(UploadError) {}

    /// A PATCH must leave at least an eighth of its chunk on the server to count as progress:
    /// one that keeps a byte of each chunk cannot keep an upload going, one journal write a byte.
    var minimumGain: Int64 { Int64(max(1, options.chunkSize / 8)) }

}
