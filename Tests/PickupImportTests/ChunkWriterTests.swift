import Foundation
import Pickup
import PickupTestSupport
import Testing

@testable import PickupImport

#if canImport(Glibc)
    import Glibc
#endif

/// How a copy flushed on its own is written on Linux: streamed to the disk, a chunk or two in
/// the page cache at a time, and every failed write reported.
@Suite("Streamed writes", .timeLimit(.minutes(5)))
struct ChunkWriterTests {
    static let chunk = 4 << 20

    /// Writes `chunks` whole chunks of one byte value through `writer`; what it threw, if anything.
    static func write(_ chunks: Int, with writer: inout ChunkWriter) -> ImportError? {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: ChunkWriter.alignment)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 7)
        do throws(ImportError) {
            for number in 0..<chunks {
                try writer.write(UnsafeRawBufferPointer(buffer), at: Int64(number * chunk))
            }
            return nil
        } catch {
            return error
        }
    }

    /// Runs `body` with a new file in a new temporary folder, open for writing (its descriptor,
    /// path and folder), then closes it and removes the folder.
    static func withFile(_ body: (_ descriptor: Int32, _ path: String, _ folder: String) throws -> Void) throws {
        let folder = try Temporary.folder("chunks")
        defer { Temporary.remove(folder) }
        let path = folder + "/copy"
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try body(descriptor, path, folder)
    }

    /// A writeback whose calls give these answers in turn (0 once they run out), counting them.
    final class Script: Sendable {
        let starts: LockedValue<[Int32]>
        let finishes: LockedValue<[Int32]>
        init(starts: [Int32] = [], finishes: [Int32] = []) {
            self.starts = LockedValue(starts)
            self.finishes = LockedValue(finishes)
        }
        var writeback: ChunkWriter.Writeback {
            ChunkWriter.Writeback(
                start: { _, _, _ in self.starts.withValue { $0.isEmpty ? 0 : $0.removeFirst() } },
                finish: { _, _, _ in self.finishes.withValue { $0.isEmpty ? 0 : $0.removeFirst() } })
        }
    }

    @Test(
        "a streamed copy keeps no more than two chunks in the page cache while it is written",
        .enabled(if: ImportCopyTests.onExt4(), "checked where this machine's disk is ext4"))
    func fewChunksCached() throws {
        try Self.withFile { descriptor, path, folder in
            var writer = ChunkWriter(descriptor: descriptor, folder: folder, uncached: true)
            #expect(Self.write(12, with: &writer) == nil)
            #expect(writer.streamed)
            let (resident, pages) = try ImportCopyTests.residentPages(path)
            #expect(pages == 12 * Self.chunk / 4096)
            #expect(
                resident <= 2 * Self.chunk / 4096, "\(resident) of \(pages) pages in the page cache, before the flush")
        }
    }

    @Test("a wait that fails fails the copy, whatever its errno: the final flush would not say it again")
    func failedWait() throws {
        try Self.withFile { descriptor, _, folder in
            // The first wait (for chunk 0) succeeds, the second (for chunk 1) says EOPNOTSUPP, as the
            // block layer says of a request it did not take.
            let script = Script(finishes: [0, EOPNOTSUPP])
            var writer = ChunkWriter(
                descriptor: descriptor, folder: folder, uncached: true, writeback: script.writeback)
            guard writer.streamed else { return }  // Apple's systems: not streamed
            let error = Self.write(4, with: &writer)
            #expect(error?.code == .destinationUnwritable, "\(String(describing: error))")
            #expect(script.finishes.withValue { $0.isEmpty }, "both waits were asked")
        }
    }

    @Test("a system that does not stream, said by the first start, gets the copy written whole")
    func notStreaming() throws {
        try Self.withFile { descriptor, path, folder in
            let script = Script(starts: [ENOSYS], finishes: [EIO, EIO])
            var writer = ChunkWriter(
                descriptor: descriptor, folder: folder, uncached: true, writeback: script.writeback)
            #expect(Self.write(3, with: &writer) == nil)
            #expect(!writer.streamed)
            #expect(script.finishes.withValue { $0.count } == 2, "no wait was asked once it did not stream")
            let written = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(written.count == 3 * Self.chunk)
        }
    }

    @Test("a start that fails with a write error, first or later, fails the copy", arguments: [[EIO], [0, ENOSYS]])
    func failedStart(starts: [Int32]) throws {
        try Self.withFile { descriptor, _, folder in
            let script = Script(starts: starts)
            var writer = ChunkWriter(
                descriptor: descriptor, folder: folder, uncached: true, writeback: script.writeback)
            guard writer.streamed else { return }  // Apple's systems: not streamed
            #expect(Self.write(3, with: &writer)?.code == .destinationUnwritable)
        }
    }
}
