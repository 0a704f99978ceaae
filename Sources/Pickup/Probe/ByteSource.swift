#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Random access to the bytes of a file, read only where asked.
public protocol ByteSource: AnyObject {
    /// Total size in bytes.
    var size: Int64 { get }
    /// Reads exactly `count` bytes at `offset`; throws ``ProbeError/Code/truncated``
    /// when the source ends first.
    func read(at offset: Int64, count: Int) throws(ProbeError) -> [UInt8]
    /// Bytes read from the underlying storage so far.
    var bytesRead: Int64 { get }
}

extension ByteSource {
    /// Reads up to `count` bytes at `offset`, fewer at the end of the source.
    func readUpTo(at offset: Int64, count: Int) throws(ProbeError) -> [UInt8] {
        guard offset < size else { return [] }
        return try read(at: offset, count: Int(min(Int64(count), size - offset)))
    }

    func truncated(at offset: Int64, count: Int) -> ProbeError {
        ProbeError(.truncated, "wanted \(count) bytes but the file ends at byte \(size)", offset: offset)
    }
}

/// The bytes of an array in memory (tests, fuzzing, data already loaded).
public final class MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    public private(set) var bytesRead: Int64 = 0

    /// A source over these bytes.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var size: Int64 { Int64(bytes.count) }

    public func read(at offset: Int64, count: Int) throws(ProbeError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else {
            throw truncated(at: offset, count: count)
        }
        bytesRead += Int64(count)
        let start = Int(offset)
        return Array(bytes[start..<start + count])
    }
}

/// A file read with `pread`, through a small window cache so that the many
/// small reads of a header walk cost one system call.
///
/// Not `Sendable`: one owner, one file descriptor, closed in `deinit`.
public final class FileByteSource: ByteSource {
    public let size: Int64
    public private(set) var bytesRead: Int64 = 0
    private let descriptor: Int32
    private var window: [UInt8] = []
    private var windowStart: Int64 = 0
    private let windowSize: Int

    /// Opens `path` for reading.
    public init(path: String, windowSize: Int = 64 << 10) throws(ProbeError) {
        // A FIFO is refused below, not waited on.
        let fd = SystemPath.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else {
            let code = errno
            var error = ProbeError(.unreadable, "cannot open the file: " + FileByteSource.errorText(code), path: path)
            error.systemError = code
            throw error
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw ProbeError(.unreadable, "cannot read the file's size: " + FileByteSource.errorText(code), path: path)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw ProbeError(
                .unreadable, "this is a folder, not a file (use --recursive to probe what it holds)", path: path)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw ProbeError(
                .unreadable, "this is not a regular file (a device, pipe or socket)", path: path,
                hint: "Name the photo or video itself: a pipe, device or socket is never read.")
        }
        descriptor = fd
        size = Int64(info.st_size)
        self.windowSize = max(4096, windowSize)
    }

    deinit { close(descriptor) }

    public func read(at offset: Int64, count: Int) throws(ProbeError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else {
            throw truncated(at: offset, count: count)
        }
        if count == 0 { return [] }
        let end = offset + Int64(count)
        if offset >= windowStart, end <= windowStart + Int64(window.count) {
            let start = Int(offset - windowStart)
            return Array(window[start..<start + count])
        }
        if count <= windowSize / 2 {
            // Fill a fresh window starting here: the next small reads usually follow.
            window = try readFromDisk(at: offset, count: Int(min(Int64(windowSize), size - offset)))
            windowStart = offset
            return Array(window[0..<count])
        }
        return try readFromDisk(at: offset, count: count)
    }

    private func readFromDisk(at offset: Int64, count: Int) throws(ProbeError) -> [UInt8] {
        // Read straight into the array's storage: no zeroing first.
        var read: Result<Int, PositionalReadError> = .success(0)
        let buffer = [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
            read = PositionalRead.fill(UnsafeMutableRawBufferPointer(storage), from: descriptor, at: offset)
            if case .success(let filled) = read { initialized = filled } else { initialized = 0 }
        }
        let done: Int
        switch read {
        case .success(let count): done = count
        case .failure(let error): throw ProbeError(.unreadable, "reading failed: " + error.text, offset: offset)
        }
        guard done == count else {
            throw ProbeError(.truncated, "the file shrank while being read", offset: offset + Int64(done))
        }
        bytesRead += Int64(count)
        return buffer
    }

    static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// A part of another source (a preview inside a raw photo), read as a file of its own: offsets
/// start at the part's first byte, and it ends where the part does.
final class WindowByteSource: ByteSource {
    private let base: ByteSource
    private let offset: Int64
    let size: Int64

    /// The `length` bytes of `base` from `offset` (the caller checked they are in it).
    init(_ base: ByteSource, offset: Int64, length: Int64) {
        self.base = base
        self.offset = offset
        size = length
    }

    var bytesRead: Int64 { base.bytesRead }

    func read(at offset: Int64, count: Int) throws(ProbeError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else {
            throw truncated(at: self.offset + offset, count: count)
        }
        return try base.read(at: self.offset + offset, count: count)
    }
}
