import CPickupSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a copy's chunks to its temporary file, without leaving the copy in the page cache
/// where the system allows: streamed on Linux, uncached (`F_NOCACHE`) on Apple's systems.
///
/// Every imported file is flushed before it gets its name, so its bytes must reach the disk
/// anyway, and a 4 GB video the app will not read again soon must not push the app's own data
/// out of memory. On Linux each chunk goes through the page cache, in slices small enough to
/// stay cheap for the kernel, and its writeback starts at once; then the chunk before it is
/// waited for and its pages let go (`sync_file_range`, `POSIX_FADV_DONTNEED`). So the disk
/// always has the next chunk queued while the copy reads and hashes, as `cp` and the kernel's
/// own writeback keep it busy, and the cache holds a chunk or two of the file. (Direct I/O,
/// used before, kept one write at a time in flight: as fast as the disk's single writes, which
/// on this project's virtual disks were 10–30% slower than its streamed ones.)
///
/// A write that fails is reported by the next wait, which is then the only one to hear of it
/// (since Linux 4.16 a failed write is reported once to each descriptor: the final `fsync`
/// would say nothing), so every failed wait fails the copy. Only the first start of a copy
/// may say that the system does not stream at all (no such call, a sandbox that refuses it):
/// the copy is then written through the cache and flushed at the end, as any file. On Apple's
/// systems whole chunks go uncached (`F_NOCACHE`) and the file's unaligned tail through the
/// cache: the iOS 26.2 SDK's `sys/fcntl.h` adds `F_NOCACHE_EXT` to "relax size and alignment
/// restrictions for write", so plain `F_NOCACHE` is not relied on for them. A file system that
/// refuses it gets ordinary writes.
struct ChunkWriter {
    /// Offsets and lengths of direct writes are multiples of this (the largest
    /// logical block size in use; 512-byte devices accept it too).
    static let alignment = 4096
    /// Most bytes handed to one buffered `write`. Larger writes into the page
    /// cache measured up to 10× the system time of 1 MB ones on this project's
    /// Linux machines (4 MB writes: 3.5 s of system time per GB, 1 MB: 0.3 s).
    static let bufferedSlice = 1 << 20

    /// How streamed writes reach the disk: the system's calls (Linux `sync_file_range` and
    /// `posix_fadvise`), or a test's. Each gives 0, or the `errno` of its failure.
    struct Writeback: Sendable {
        /// Starts writing a range of the file (descriptor, offset, count).
        var start: @Sendable (Int32, Int64, Int64) -> Int32
        /// Waits for a range to be written, then lets its pages go.
        var finish: @Sendable (Int32, Int64, Int64) -> Int32

        /// Linux's calls (no-ops that succeed elsewhere).
        static let system = Writeback(
            start: { pickup_start_writeback($0, $1, $2) == 0 ? 0 : errno },
            finish: { pickup_finish_writeback($0, $1, $2) == 0 ? 0 : errno })
    }

    let descriptor: Int32
    let folder: String
    private(set) var direct: Bool
    /// Whether writes are streamed to the disk and let go from the cache (Linux).
    private(set) var streamed: Bool
    private let writeback: Writeback
    /// The range last started, not yet waited for; nil until a start has succeeded (from then
    /// on every failure is a failed write).
    private var unfinished: (offset: Int64, count: Int)?

    /// `uncached`: the copy is not to stay in the page cache (a file flushed on its own):
    /// streamed on Linux, direct (`F_NOCACHE`) elsewhere where the file system takes it.
    init(descriptor: Int32, folder: String, uncached: Bool, writeback: Writeback = .system) {
        self.descriptor = descriptor
        self.folder = folder
        self.writeback = writeback
        #if os(Linux)
            streamed = uncached
            direct = false
        #else
            streamed = false
            direct = uncached && pickup_set_direct_io(descriptor, 1) == 0
        #endif
    }

    /// Writes `bytes` at `offset`. `bytes` must start on an aligned address,
    /// which the copy buffers do.
    mutating func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(ImportError) {
        var done = 0
        if direct, offset % Int64(ChunkWriter.alignment) == 0 {
            let whole = bytes.count - bytes.count % ChunkWriter.alignment
            if whole > 0 {
                done = try writeDirect(UnsafeRawBufferPointer(rebasing: bytes[0..<whole]), at: offset)
            }
        }
        if done < bytes.count {
            // A tail of less than a block (the file's end), or no direct I/O here.
            stopDirect()
            try writeBuffered(UnsafeRawBufferPointer(rebasing: bytes[done...]), at: offset + Int64(done))
        }
        if streamed { try stream(offset: offset, count: bytes.count) }
    }

    /// Lets every page of a flushed file go from the page cache (Linux; a no-op elsewhere).
    static func letGo(_ descriptor: Int32) { pickup_drop_cached(descriptor) }

    /// Starts writing the range just written, then waits for the one before it and lets its
    /// pages go.
    private mutating func stream(offset: Int64, count: Int) throws(ImportError) {
        let started = writeback.start(descriptor, offset, Int64(count))
        if started != 0 {
            // The first start tells whether this system streams at all; any later failure, or a
            // first one of another kind, is a write that failed as it started.
            if unfinished == nil, [ENOSYS, EPERM, EINVAL, ESPIPE].contains(started) {
                streamed = false
                return
            }
            throw ImportError.writing(folder, errno: started)
        }
        defer { unfinished = (offset, count) }
        guard let earlier = unfinished else { return }
        let finished = writeback.finish(descriptor, earlier.offset, Int64(earlier.count))
        // Whatever it says, a failed wait is a failed write that nothing later reports.
        if finished != 0 { throw ImportError.writing(folder, errno: finished) }
    }

    /// Writes aligned bytes directly; returns how many went (all of them, or
    /// fewer when the file system turned out to refuse direct I/O here).
    private mutating func writeDirect(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(ImportError) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, base + done, bytes.count - done, off_t(offset + Int64(done)))
            if n > 0 {
                done += n
                if done % ChunkWriter.alignment != 0 { return done }  // finish the odd part buffered
                continue
            }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EINVAL { return done }  // alignment this file system will not take
            throw ImportError.writing(folder, errno: n == 0 ? ENOSPC : errno)
        }
        return done
    }

    private mutating func stopDirect() {
        guard direct else { return }
        direct = false
        _ = pickup_set_direct_io(descriptor, 0)
    }

    private func writeBuffered(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(ImportError) {
        guard var pointer = bytes.baseAddress else { return }
        var left = bytes.count
        var position = offset
        while left > 0 {
            let n = pwrite(descriptor, pointer, min(left, ChunkWriter.bufferedSlice), off_t(position))
            if n < 0 {
                if errno == EINTR { continue }
                throw ImportError.writing(folder, errno: errno)
            }
            if n == 0 { throw ImportError.writing(folder, errno: ENOSPC) }
            pointer += n
            left -= n
            position += Int64(n)
        }
    }
}
