import CPickupSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a copy's chunks to its temporary file, past the page cache where the
/// file system allows (direct I/O), through it otherwise.
///
/// Every imported file is flushed before it gets its name, so its bytes must
/// reach the disk anyway. Written directly, they go from the copy buffer to the
/// disk once: no page-cache pages to allocate, fill and write back, no
/// evicting the app's own cache to hold a video it will not read again soon.
/// Direct writes need offsets and lengths in whole blocks: the copier hands
/// over full chunks (a multiple of `alignment`) until the last, whose tail
/// goes through the page cache. A file system that refuses direct I/O gets
/// ordinary writes, in slices small enough to stay cheap for the kernel.
struct ChunkWriter {
    /// Offsets and lengths of direct writes are multiples of this (the largest
    /// logical block size in use; 512-byte devices accept it too).
    static let alignment = 4096
    /// Most bytes handed to one buffered `write`. Larger writes into the page
    /// cache measured up to 10× the system time of 1 MB ones on this project's
    /// Linux machines (4 MB writes: 3.5 s of system time per GB, 1 MB: 0.3 s).
    static let bufferedSlice = 1 << 20

    let descriptor: Int32
    let folder: String
    private(set) var direct: Bool

    /// `direct` asks for direct I/O; it stays off where the file system refuses it.
    init(descriptor: Int32, folder: String, direct: Bool) {
        self.descriptor = descriptor
        self.folder = folder
        self.direct = direct && pickup_set_direct_io(descriptor, 1) == 0
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
    }

    /// Whether writes go through the page cache, so that starting their
    /// writeback early pays.
    var buffered: Bool { !direct }

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
