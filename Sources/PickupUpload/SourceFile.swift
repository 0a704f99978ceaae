import Foundation
import PickupStore

/// The file being uploaded, read a chunk at a time with `pread`.
///
/// `@unchecked Sendable` is safe: the descriptor is only read with `pread` given
/// an offset of its own, which changes no shared state (not even the descriptor's
/// file position), and it is closed in `deinit`.
public final class SourceFile: @unchecked Sendable {
    let descriptor: Int32
    /// The file's size in bytes when it was opened.
    public let size: Int64
    /// Its modification time when it was opened, in nanoseconds since 1970.
    public let modified: Int64
    /// The file's path.
    public let path: String

    /// Opens a file for reading; a file that cannot be opened is an `UploadError` that says why.
    /// `expected`: which file the path led to when it was found (a folder's walk); a path that
    /// now leads elsewhere (the file was swapped for a link, or for another file) is refused,
    /// checked on the open descriptor, so nothing of the other file is read.
    public init(path: String, expected: FileIdentity? = nil) throws(UploadError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)  // a FIFO is refused below, not waited on
        guard fd >= 0 else {
            throw UploadError(.sourceUnreadable, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard let status = FileStatus(descriptor: fd), status.kind == .regular else {
            close(fd)
            throw UploadError(.sourceUnreadable, "\(path) is not a regular file")
        }
        if let expected, status.identity != expected {
            close(fd)
            throw UploadError(
                .sourceUnreadable,
                "\(path) is no longer the file found when its folder was read (it was replaced, by a link or "
                    + "another file); it is not sent")
        }
        descriptor = fd
        size = status.size
        modified = status.modified
    }

    deinit { close(descriptor) }

    /// `count` bytes from `offset`; fewer only when the file ended early (it changed).
    public func read(at offset: Int64, count: Int) throws(UploadError) -> Data {
        var data = Data(count: count)
        var done = 0
        var failure: Int32 = 0
        data.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            while done < count {
                let n = pread(descriptor, base + done, count - done, off_t(offset + Int64(done)))
                if n < 0, errno == EINTR { continue }
                if n <= 0 {
                    failure = n < 0 ? errno : EIO
                    return
                }
                done += n
            }
        }
        guard failure == 0 else {
            throw UploadError(.sourceUnreadable, "reading \(path) failed: \(String(cString: strerror(failure)))")
        }
        return data
    }

    /// Fills `buffer` from `offset` (`pread`, straight into the caller's memory: no copy, no
    /// zeroing); the bytes read, fewer only when the file ended early (it changed).
    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(UploadError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, base + done, buffer.count - done, off_t(offset + Int64(done)))
            if n < 0, errno == EINTR { continue }
            if n < 0 {
                throw UploadError(.sourceUnreadable, "reading \(path) failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Calls `body` with the bytes of `offset..<offset+count`, a block of at most 1 MB at a time.
    func forEachBlock(at offset: Int64, count: Int, _ body: (UnsafeRawBufferPointer) -> Void) throws(UploadError) {
        let block = 1 << 20
        var done = 0
        while done < count {
            let data = try read(at: offset + Int64(done), count: min(block, count - done))
            data.withUnsafeBytes { body($0) }
            done += data.count
        }
    }
}
