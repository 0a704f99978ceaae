import CPickupSystem
import Pickup
import PickupStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Copies one file into a folder the way DESIGN.md asks: to a temporary file
/// in the destination (unnamed on Linux, see `TemporaryFile`), hashed while
/// copying, not left in the page cache where the system allows (`ChunkWriter`:
/// streamed to the disk on Linux, uncached on Apple's systems), `fsync`ed (or, for small files, flushed with others:
/// `FlushRounds`), then linked to a readable name that never overwrites
/// anything. A cancelled or failed copy leaves no file behind; a killed one
/// leaves nothing on Linux, elsewhere a hidden temporary that the next session
/// sweeps away.
struct FileCopier {
    /// Bytes moved per read and write. Memory stays at this, whatever the file's size.
    static let chunkSize = 4 << 20
    /// Prefix of named temporary files in the destination, each locked by its writer.
    static let temporaryPrefix = ".pickup-partial-"
    /// Prefix of a named temporary in the instant between being made and being locked.
    static let newPrefix = ".pickup-new-"

    let folder: String
    /// The folder's volume and file system, when the caller looked them up once for many copies.
    let facts: FileSystemFacts.Destination?

    /// A copier into `folder`; `facts`: its volume and file system, when already known.
    init(folder: String, facts: FileSystemFacts.Destination? = nil) {
        self.folder = folder
        self.facts = facts
    }

    struct Copied: Sendable {
        let temporary: TemporaryFile
        let size: Int64
        let sha256: String
        /// How the bytes got there.
        let method: CopyMethod
        /// The source's status as the copy read it (the same from its first byte to its last).
        let source: FileStatus
    }

    /// Copies `source` to a temporary file in the folder, reporting bytes as they go.
    /// `shouldStop` is asked between chunks; when it says yes, the copy is undone.
    /// `expected`: which file `source` led to when it was found; a path that leads elsewhere now
    /// is refused (checked on the open descriptor, before a byte is read). `flushing` false: the
    /// copy is written through the page cache and not flushed; the caller flushes it (`FlushRounds`)
    /// before naming it.
    func copyToTemporary(
        _ source: String, expected: FileIdentity? = nil, flushing: Bool = true, progress: (Int64) -> Void,
        shouldStop: () -> Bool
    ) throws(ImportError) -> Copied {
        // Non-blocking, so that a FIFO or a device is refused instead of waited on.
        let input = SystemPath.withCString(source) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard input >= 0 else { throw ImportError.reading(source, errno: errno) }
        defer { close(input) }
        guard let before = FileStatus(descriptor: input) else { throw ImportError.reading(source, errno: errno) }
        guard before.kind == .regular else {
            throw ImportError(.sourceUnreadable, "this is not a regular file", path: source)
        }
        if let expected, before.identity != expected {
            throw ImportError(
                .sourceUnreadable,
                "this is no longer the file found when its folder was read (it was replaced, by a link or another "
                    + "file); it is not imported", path: source)
        }
        let plan = (facts ?? FileSystemFacts.Destination(folder: folder)).plan(source: before)
        #if canImport(Darwin)
            if plan.method == .cloned,
                let cloned = try cloneToTemporary(input, source: source, before: before, progress: progress)
            {
                return cloned
            }
        #endif
        let (temporary, output) = try createTemporary()
        do throws(ImportError) {
            let (size, sha256, inKernel) = try copyContents(
                input, size: before.size, to: output, source: source, inKernel: plan.copiesInKernel,
                uncached: flushing, progress: progress, shouldStop: shouldStop)
            try checkUnchanged(input, source: source, before: before, copied: size)
            FileCopier.keepModificationTime(of: before, on: output)
            guard !flushing || FileSystemFacts.flush(output) else { throw ImportError.writing(folder, errno: errno) }
            if flushing { ChunkWriter.letGo(output) }
            let method: CopyMethod = inKernel && plan.method == .reflinked ? .reflinked : .copied
            return Copied(temporary: temporary, size: size, sha256: sha256, method: method, source: before)
        } catch {
            temporary.discard()
            throw error
        }
    }

    /// Throws `sourceChanged` unless the file stayed the same from the first byte read to the
    /// last: same size, time and inode, and its name still leads to it.
    private func checkUnchanged(
        _ input: Int32, source: String, before: FileStatus, copied size: Int64
    ) throws(ImportError) {
        let after = FileStatus(descriptor: input)
        let named = FileStatus(path: source)
        if size != before.size || after != before || named.map({ !$0.isSameFile(as: before) }) ?? true {
            throw ImportError(
                .sourceChanged,
                "the file changed while it was copied (\(before.size) bytes when the copy began, "
                    + "\(size) copied, \(named?.size ?? 0) now)", path: source)
        }
    }

    #if canImport(Darwin)
        /// An APFS clone of the open source under a hidden name in the folder: no new blocks,
        /// made durable with `F_FULLFSYNC`, then read once to hash what it holds. Nil when the
        /// system will not clone (another volume or file system): the caller copies instead.
        private func cloneToTemporary(
            _ input: Int32, source: String, before: FileStatus, progress: (Int64) -> Void
        ) throws(ImportError) -> Copied? {
            let names = temporaryNames()
            guard fclonefileat(input, AT_FDCWD, names.fresh, UInt32(CLONE_NOFOLLOW)) == 0 else {
                if [ENOTSUP, EXDEV, EPERM, EACCES, EINVAL, ENOSYS].contains(errno) { return nil }
                throw ImportError.writing(folder, errno: errno)
            }
            let clone = open(names.fresh, O_RDONLY | O_CLOEXEC)
            guard clone >= 0 else {
                let code = errno
                unlink(names.fresh)
                throw ImportError.writing(names.fresh, errno: code)
            }
            let path = try claim(names, descriptor: clone)
            let temporary = TemporaryFile(storage: .named(path, lock: clone))
            FileCopier.keepModificationTime(of: before, on: clone)
            guard FileSystemFacts.flush(clone) else {
                let code = errno
                temporary.discard()
                throw ImportError.writing(path, errno: code)
            }
            guard case .success(let found) = FileHash.sha256(ofFileAt: path, progress: progress) else {
                temporary.discard()
                throw ImportError(.destinationUnwritable, "the clone could not be read back", path: path)
            }
            do throws(ImportError) {
                try checkUnchanged(input, source: source, before: before, copied: found.size)
            } catch {
                temporary.discard()
                throw error
            }
            return Copied(
                temporary: temporary, size: found.size, sha256: found.sha256, method: .cloned, source: before)
        }
    #endif

    /// Gives the copy its source's modification time (as `cp -p` does), so that a photo's file
    /// date survives the import; its access time too. A file system that refuses it keeps the
    /// copy's own time: the bytes matter more.
    static func keepModificationTime(of source: FileStatus, on descriptor: Int32) {
        let seconds = source.modified / 1_000_000_000
        let nanoseconds = source.modified % 1_000_000_000
        let time = timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds))
        var times = [time, time]
        _ = futimens(descriptor, &times)
    }

    /// A new temporary file in the folder and the descriptor to write it through:
    /// unnamed where the system can, hidden and named otherwise.
    private func createTemporary() throws(ImportError) -> (TemporaryFile, Int32) {
        let unnamed = pickup_open_unnamed(folder, 0o644)
        if unnamed >= 0 { return (TemporaryFile(storage: .unnamed(unnamed)), unnamed) }
        let names = temporaryNames()
        let output = open(names.fresh, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw ImportError.writing(folder, errno: errno) }
        let path = try claim(names, descriptor: output)
        return (TemporaryFile(storage: .named(path, lock: output)), output)
    }

    /// A new temporary's two names: the one it is made under (`.pickup-new-*`, which no sweep
    /// removes while it could be in use) and the one it takes once locked (`.pickup-partial-*`).
    func temporaryNames() -> (fresh: String, partial: String) {
        let suffix = randomSuffix()
        return (folder + "/" + FileCopier.newPrefix + suffix, folder + "/" + FileCopier.temporaryPrefix + suffix)
    }

    /// Locks a temporary made under its fresh name and gives it its partial name, so that every
    /// `.pickup-partial-*` file is locked for as long as its writer lives. Made and locked in two
    /// steps, a file is never seen unlocked under the name a sweep looks for. A file system
    /// without locks (some network ones) still gets the file; a sweep there may take it.
    func claim(_ names: (fresh: String, partial: String), descriptor: Int32) throws(ImportError) -> String {
        _ = flock(descriptor, LOCK_EX | LOCK_NB)
        guard rename(names.fresh, names.partial) == 0 else {
            let code = errno
            close(descriptor)
            unlink(names.fresh)
            throw ImportError.writing(folder, errno: code)
        }
        return names.partial
    }

    /// Copies every byte of `input` to `output`, hashing them; the size copied and the SHA-256.
    /// `uncached`: not left in the page cache (a file flushed on its own; `ChunkWriter`).
    private func copyContents(
        _ input: Int32, size: Int64, to output: Int32, source: String, inKernel kernelFirst: Bool, uncached: Bool,
        progress: (Int64) -> Void, shouldStop: () -> Bool
    ) throws(ImportError) -> (Int64, String, inKernel: Bool) {
        // Two buffers: while the hash thread digests one, this thread reads and writes the other.
        // A file that fits in one gets one buffer of its size, hashed on this thread.
        let bufferSize = FileCopier.bufferSize(for: size)
        let pipeline = HashPipeline(
            chunkSize: bufferSize, overlapped: FileCopier.copyMemory(for: size) > bufferSize)
        var copied: Int64 = 0
        var slot = 0
        // In-kernel copies pay where they become reflinks or server-side copies;
        // elsewhere (ext4, tmpfs) writing the bytes already read for the hash is faster.
        var inKernel = kernelFirst
        var writer = ChunkWriter(descriptor: output, folder: folder, uncached: uncached && !inKernel)
        while true {
            if shouldStop() {
                pipeline.finish()
                throw ImportError(.cancelled, "the import was cancelled", path: source)
            }
            let buffer = pipeline.acquire(slot)
            let count: Int
            do {
                count = try readChunk(input, into: buffer, at: copied, path: source)
                if count > 0 {
                    let done = inKernel ? try copyInKernel(input, output, at: copied, count: count) : false
                    if !done {
                        // The kernel would not copy here (another file system): the bytes read are
                        // written, and from now on streamed, where the copy is flushed on its own.
                        if inKernel { writer = ChunkWriter(descriptor: output, folder: folder, uncached: uncached) }
                        inKernel = false
                        try writer.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), at: copied)
                    }
                }
            } catch {
                pipeline.release(slot, count: 0)
                pipeline.finish()
                throw error
            }
            pipeline.release(slot, count: count)
            if count == 0 { break }
            copied += Int64(count)
            progress(copied)
            slot = 1 - slot
        }
        return (copied, pipeline.finish(), inKernel && copied > 0)
    }

    /// The memory a copy of a file of `size` bytes holds: one buffer where the file fits in it
    /// (hashed on the copying thread), two where hashing overlaps the copy (`HashPipeline`).
    static func copyMemory(for size: Int64) -> Int {
        let buffer = bufferSize(for: size)
        return Int64(buffer) < size ? 2 * buffer : buffer
    }

    /// The copy buffers' size for a file of `size` bytes: the file rounded up to
    /// whole blocks, at most a chunk.
    static func bufferSize(for size: Int64) -> Int {
        let blocks = (max(size, 1) + Int64(ChunkWriter.alignment) - 1) / Int64(ChunkWriter.alignment)
        return Int(min(blocks * Int64(ChunkWriter.alignment), Int64(chunkSize)))
    }

    /// Fills `buffer` from `offset`, short only at the end of the file, so that
    /// every chunk but the last is whole (direct writes need whole blocks).
    private func readChunk(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64, path: String
    )
        throws(ImportError) -> Int
    {
        switch PositionalRead.fill(buffer, from: descriptor, at: offset) {
        case .success(let filled): return filled
        case .failure(let error): throw ImportError.reading(path, errno: error.code)
        }
    }

    /// Copies a range inside the kernel; false when this file system cannot
    /// (the caller then writes the bytes it read). A partial copy is finished
    /// here, so that the range is either whole or not started.
    private func copyInKernel(_ input: Int32, _ output: Int32, at offset: Int64, count: Int) throws(ImportError) -> Bool
    {
        var done = 0
        while done < count {
            let n = pickup_copy_range(input, offset + Int64(done), output, offset + Int64(done), Int64(count - done))
            if n > 0 {
                done += Int(n)
                continue
            }
            if n < 0, errno == EINTR { continue }
            if done == 0, n < 0, [EXDEV, EINVAL, ENOSYS, EOPNOTSUPP, EBADF, EPERM].contains(errno) { return false }
            if n == 0 { throw ImportError(.sourceChanged, "the file shrank while it was copied", path: nil) }
            throw ImportError.writing(folder, errno: errno)
        }
        return true
    }

    /// Puts a finished temporary file at `name`, replacing what is there (a damaged copy being
    /// restored) in one rename: the name always holds either the old file or the whole new one.
    func replace(_ temporary: TemporaryFile, named name: String) throws(ImportError) {
        let path = folder + "/" + name
        switch temporary.storage {
        case .unnamed(let descriptor):
            let hidden = folder + "/" + FileCopier.temporaryPrefix + randomSuffix()
            // Locked before it has a name: while it has the hidden one, on its way to `path`, no
            // sweep removes it.
            _ = flock(descriptor, LOCK_EX | LOCK_NB)
            guard pickup_link_unnamed(descriptor, hidden) == 0 else { throw ImportError.writing(path, errno: errno) }
            guard rename(hidden, path) == 0 else {
                let code = errno
                unlink(hidden)
                throw ImportError.writing(path, errno: code)
            }
        case .named(let hidden, _):
            guard rename(hidden, path) == 0 else { throw ImportError.writing(path, errno: errno) }
        }
        temporary.release()
        // The folder the name is in (a layout's subfolder), and the library's (the hidden name).
        let named = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? folder
        if named != folder { FileCopier(folder: named).syncFolder() }
        syncFolder()
    }

    /// Gives a finished temporary file its readable name: `IMG_0001.HEIC`, or
    /// `IMG_0001 2.HEIC` when that is taken. Linking fails rather than overwrite,
    /// so two importers can never take the same name. The temporary is used up
    /// when this returns; when it throws, the caller still has it to discard.
    /// `syncing` false: the folder is not flushed; the caller flushes it (`FlushRounds`).
    func place(_ temporary: TemporaryFile, as preferred: String, syncing: Bool = true) throws(ImportError) -> String {
        let name = StoredName(preferred)
        for attempt in 1...10_000 {
            let candidate = name.variant(attempt)
            let path = folder + "/" + candidate
            let linked: Int32
            switch temporary.storage {
            case .unnamed(let descriptor): linked = pickup_link_unnamed(descriptor, path)
            case .named(let hidden, _): linked = link(hidden, path)
            }
            if linked == 0 {
                temporary.discard()  // the unnamed file's descriptor, or the hidden name
                if syncing { syncFolder() }
                return candidate
            }
            let code = errno
            if code == EEXIST { continue }
            if case .named(let hidden, _) = temporary.storage, code == EPERM || code == EOPNOTSUPP || code == EXDEV {
                // No hard links here (some FUSE and network file systems): rename,
                // after checking the name is free (a race can still lose to another writer).
                if access(path, F_OK) == 0 { continue }
                guard rename(hidden, path) == 0 else { throw ImportError.writing(path, errno: errno) }
                temporary.release()
                if syncing { syncFolder() }
                return candidate
            }
            throw ImportError.writing(path, errno: code)
        }
        throw ImportError(.destinationUnwritable, "no free name left for \(preferred)", path: folder)
    }

    /// Writes a small file whole or not at all: a hidden temporary beside it, flushed, renamed
    /// over `path`.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ImportError) {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let copier = FileCopier(folder: folder)
        let names = copier.temporaryNames()
        let descriptor = open(names.fresh, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ImportError.writing(folder, errno: errno) }
        let temporary = try copier.claim(names, descriptor: descriptor)
        // The descriptor (and with it the lock) is let go once, after the rename or the removal.
        defer { close(descriptor) }
        do throws(ImportError) {
            var writer = ChunkWriter(descriptor: descriptor, folder: folder, uncached: false)
            // No typed-throws `Result` here: it is newer than the iOS 17.4 SDK's standard library.
            var failure: ImportError?
            bytes.withUnsafeBytes { raw in
                do throws(ImportError) { try writer.write(raw, at: 0) } catch { failure = error }
            }
            if let failure { throw failure }
            guard fsync(descriptor) == 0 else { throw ImportError.writing(temporary, errno: errno) }
            guard rename(temporary, path) == 0 else { throw ImportError.writing(path, errno: errno) }
        } catch {
            unlink(temporary)
            throw error
        }
        copier.syncFolder()
    }

    /// Makes the folder's new entries durable.
    func syncFolder() {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// Removes temporary files a killed process left behind: a `.pickup-partial-*` file whose
    /// lock no one holds (a writer that is still running holds it, in this process or another),
    /// and a `.pickup-new-*` file an hour old (one killed in the instant before locking it).
    func sweepTemporaries() {
        guard let directory = opendir(folder) else { return }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name.hasPrefix(FileCopier.temporaryPrefix) || name.hasPrefix(FileCopier.newPrefix) {
                names.append(name)
            }
        }
        closedir(directory)
        let anHourAgo = (Int64(time(nil)) - 3_600) * 1_000_000_000
        for name in names {
            let path = folder + "/" + name
            if name.hasPrefix(FileCopier.newPrefix) {
                if let status = FileStatus(path: path, followingLinks: false), status.modified < anHourAgo {
                    unlink(path)
                }
                continue
            }
            let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
            close(descriptor)
        }
    }

    private func randomSuffix() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(generator.next(), radix: 36) + String(generator.next(), radix: 36)
    }
}
