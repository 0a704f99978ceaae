import Foundation
import Pickup
import PickupTestSupport
import PickupUpload
import Testing

extension FastTier {
    /// tus chunks start at `chunkSize` and double while the server takes them whole, up to
    /// `largestTusChunk`; a grown chunk that fails ends the growth (at the largest size that passed
    /// after a proxy's 413, at the first size after any other failure).
    @Suite("tus chunks grow while the server takes them")
    struct TusChunkGrowthTests {
        static let kilobyte = 1 << 10

        /// A file of `bytes` bytes that are not all alike.
        func file(_ bytes: Int) throws -> (path: String, data: Data) {
            let path = Temporary.path("grow", suffix: ".bin")
            let data = Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
            try data.write(to: URL(fileURLWithPath: path))
            return (path, data)
        }

        /// A clock that moves `step` seconds each time it is read: every chunk takes `step` seconds.
        final class SlowLinkClock: UploadClock {
            let step: Double
            private let seconds = LockedValue<Double>(0)
            init(step: Double) { self.step = step }
            var now: Double {
                seconds.withValue {
                    $0 += step; return $0
                }
            }
            func sleep(seconds: Double) async {}
        }

        func uploader(
            largest: Int, server: InMemoryTusServer, clock: (any UploadClock)? = nil, attempts: Int = 8,
            journal: String = UploadTestFiles.journalPath()
        ) throws -> Uploader {
            var options = UploadOptions(
                chunkSize: 64 * Self.kilobyte, maxAttempts: attempts, baseDelay: 0.001, maxDelay: 0.002,
                transport: server)
            options.largestTusChunk = largest
            if let clock { options.clock = clock }
            return Uploader(journal: try UploadJournal(path: journal), options: options)
        }

        func upload(
            _ bytes: Int, largest: Int, server: InMemoryTusServer, clock: (any UploadClock)? = nil
        ) async throws -> (record: UploadRecord, sent: Data) {
            let (path, data) = try file(bytes)
            defer { unlink(path) }
            let uploader = try uploader(largest: largest, server: server, clock: clock)
            let record = await uploader.upload(path: path, to: .tus(endpoint: server.endpoint))
            return (record, data)
        }

        func stored(_ record: UploadRecord, on server: InMemoryTusServer) async throws -> Data {
            let remote = try #require(record.remote)
            return try #require(await server.stored(remote))
        }

        @Test("64, 128, 256 KB, then 256 KB each up to the file's rest")
        func doubles() async throws {
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")))
            let (record, data) = try await upload(1 << 20, largest: 256 * Self.kilobyte, server: server)
            #expect(record.state == .done)
            #expect(try await stored(record, on: server) == data)
            #expect(await server.patches.map { $0 / Self.kilobyte } == [64, 128, 256, 256, 256, 64])
        }

        @Test("chunks that take 5 s or more do not grow (a slow link keeps them short); under 5 s they do")
        func slowLink() async throws {
            let slow = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")))
            let (record, data) = try await upload(
                1 << 20, largest: 1 << 20, server: slow, clock: SlowLinkClock(step: 5))
            #expect(record.state == .done)
            #expect(try await stored(record, on: slow) == data)
            #expect(await slow.patches == Array(repeating: 64 * Self.kilobyte, count: 16))
            let quick = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")))
            _ = try await upload(1 << 20, largest: 1 << 20, server: quick, clock: SlowLinkClock(step: 4.9))
            #expect(await quick.patches.map { $0 / Self.kilobyte } == [64, 128, 256, 512, 64])
        }

        @Test("largestTusChunk equal to chunkSize: chunks of one size")
        func fixed() async throws {
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")))
            let (record, data) = try await upload(1 << 20, largest: 64 * Self.kilobyte, server: server)
            #expect(record.state == .done)
            #expect(try await stored(record, on: server) == data)
            #expect(await server.patches == Array(repeating: 64 * Self.kilobyte, count: 16))
        }

        @Test("a proxy's 413 for a grown chunk: the chunk goes again at once at the size that passed, and the rest too")
        func refusedByProxy() async throws {
            let server = InMemoryTusServer(
                endpoint: try #require(URL(string: "http://tus.test/files/")), largestBody: 200 * Self.kilobyte)
            let (record, data) = try await upload(1 << 20, largest: 1 << 20, server: server)
            #expect(record.state == .done)
            #expect(record.error == nil)
            #expect(try await stored(record, on: server) == data)
            // 64 + 128 taken, 256 refused, then the 832 KB left in chunks of 128 KB.
            let refusedThenSmaller = [64, 128, 256, 128, 128, 128, 128, 128, 128, 64]
            #expect(await server.patches.map { $0 / Self.kilobyte } == refusedThenSmaller)
            // No HEAD: a refused body leaves the offset as it was, so nothing is asked again.
            #expect(await server.log.filter { $0.hasPrefix("HEAD") }.isEmpty)
        }

        @Test("the size a proxy let through is the endpoint's from then on: the next upload grows no larger")
        func refusalRemembered() async throws {
            let server = InMemoryTusServer(
                endpoint: try #require(URL(string: "http://tus.test/files/")), largestBody: 200 * Self.kilobyte)
            let uploader = try uploader(largest: 1 << 20, server: server)
            for _ in 0..<2 {
                let (path, data) = try file(1 << 20)
                defer { unlink(path) }
                let record = await uploader.upload(path: path, to: .tus(endpoint: server.endpoint))
                #expect(record.state == .done)
                #expect(try await stored(record, on: server) == data)
            }
            let sizes = await server.patches.map { $0 / Self.kilobyte }
            let first = [64, 128, 256, 128, 128, 128, 128, 128, 128, 64]
            #expect(sizes == first + [64] + Array(repeating: 128, count: 7) + [64])
        }

        @Test("a server that keeps only part of a chunk: the rest goes at the first size, growing no more")
        func partlyKept() async throws {
            let server = InMemoryTusServer(
                endpoint: try #require(URL(string: "http://tus.test/files/")), keepingAtMost: 100 * Self.kilobyte)
            let (record, data) = try await upload(1 << 20, largest: 1 << 20, server: server)
            #expect(record.state == .done)
            #expect(try await stored(record, on: server) == data)
            // 64 whole, 128 of which 100 kept, then 64 at a time: 164 KB, then 860 KB in 14 chunks.
            #expect(
                await server.patches.map { $0 / Self.kilobyte } == [64, 128] + Array(repeating: 64, count: 13) + [28])
        }

        @Test("a resume sends with the chunk sizes its upload began with, not the resuming uploader's")
        func resumeKeepsSizes() async throws {
            let (path, data) = try file(1 << 20)
            defer { unlink(path) }
            let journal = UploadTestFiles.journalPath()
            // Requests: OPTIONS, POST, PATCH 64 KB, PATCH 64 KB, PATCH (cut): fixed 64 KB chunks, one try.
            let server = InMemoryTusServer(endpoint: try #require(URL(string: "http://tus.test/files/")), cutting: [5])
            let first = try uploader(largest: 64 * Self.kilobyte, server: server, attempts: 1, journal: journal)
            let failed = await first.upload(path: path, to: .tus(endpoint: server.endpoint))
            #expect(failed.state == .failed)
            #expect(failed.chunkSize == 64 * Self.kilobyte && failed.largestTusChunk == 64 * Self.kilobyte)
            // A resuming process with the defaults (8 MiB chunks, growing).
            let resuming = Uploader(
                journal: try UploadJournal(path: journal), options: UploadOptions(transport: server))
            let record = await resuming.resume(id: failed.id).result()
            #expect(record.state == .done)
            #expect(try await stored(record, on: server) == data)
            #expect(await server.patches == Array(repeating: 64 * Self.kilobyte, count: 17))
        }

        @Test("a grown chunk cut off: the upload resumes, the rest at the first size")
        func cutGrownChunk() async throws {
            // Requests: OPTIONS, POST, PATCH 64 KB, PATCH 128 KB, PATCH 256 KB (cut).
            let server = InMemoryTusServer(
                endpoint: try #require(URL(string: "http://tus.test/files/")), cutting: [5])
            let (record, data) = try await upload(1 << 20, largest: 1 << 20, server: server)
            #expect(record.state == .done)
            #expect(try await stored(record, on: server) == data)
            let cutThenFirstSize = [64, 128, 256] + Array(repeating: 64, count: 13)
            #expect(await server.patches.map { $0 / Self.kilobyte } == cutThenFirstSize)
            #expect(await server.log.filter { $0.hasPrefix("HEAD") }.count == 1)
        }

        @Test("a chunk of the first size that fails is retried at that size; growth goes on after it")
        func cutFirstSize() async throws {
            // Requests: OPTIONS, POST, PATCH 64 KB (cut), HEAD, PATCH 64 KB, ...
            let server = InMemoryTusServer(
                endpoint: try #require(URL(string: "http://tus.test/files/")), cutting: [3])
            let (record, data) = try await upload(1 << 20, largest: 256 * Self.kilobyte, server: server)
            #expect(record.state == .done)
            #expect(try await stored(record, on: server) == data)
            #expect(await server.patches.map { $0 / Self.kilobyte } == [64, 64, 128, 256, 256, 256, 64])
        }
    }
}
