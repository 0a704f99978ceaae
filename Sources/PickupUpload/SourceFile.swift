import Foundation
import Pickup
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
        // A FIFO is refused below, not waited on.
        let fd = SystemPath.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
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
        let read = data.withUnsafeMutableBytes { PositionalRead.fill($0, from: descriptor, at: offset) }
        switch read {
        case .success(let done) where done == count: return data
        case .success: throw failure(EIO)  // the file ended early: it changed
        case .failure(let error): throw failure(error.code)
        }
    }

    /// Fills `buffer` from `offset` (`pread`, straight into the caller's memory: no copy, no
    /// zeroing); the bytes read, fewer only when the file ended early (it changed).
    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(UploadError) -> Int {
        switch PositionalRead.fill(buffer, from: descriptor, at: offset) {
        case .success(let done): return done
        case .failure(let error): throw failure(error.code)
        }
    }

    private func failure(_ code: Int32) -> UploadError {
        UploadError(.sourceUnreadable, "reading \(path) failed: \(String(cString: strerror(code)))")
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
