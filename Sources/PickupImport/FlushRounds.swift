import CPickupSystem
import Dispatch
import Pickup
import PickupStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes many small copies durable together: one flush of the library's whole file system
/// (`syncfs`) serves every item waiting for one, where flushing each file, then its folder,
/// then the catalog cost three waits for the disk per photo.
///
/// An item waits twice: for its copies' bytes before any gets a name, then for its names and
/// its catalog record before it is reported imported. So a crash can leave a temporary that no
/// name points to, a stored file the catalog does not know yet (the next import adopts it), or
/// a record whose name did not reach the disk (`library verify` says it is missing, and the
/// next import of its source puts it back) — never a name or a record for bytes that are not
/// on the disk, and never an item reported imported that is not all there.
///
/// A round starts a millisecond after one is asked for, when none is running (without that
/// pause for a caller that speaks for many: an import's round of photos), and flushes for all
/// who asked by then; whoever asks while one flushes waits for the next, which starts when it
/// ends (a round that began before their writes may not hold them). So with eight photos in
/// flight, about one flush serves eight. A caller that knows its writes ended before a flush
/// began (`ticket()`, read once they ended) waits only for that flush: the one running, or
/// none when it has ended; so a round of photos copied while the round before it was being
/// recorded shares that round's last flush instead of waiting for a flush of its own after it.
///
/// Only where `syncfs` is known to write every file and folder of a local file system to the
/// disk and to say when a write failed: Linux 5.8 or later, on ext4, XFS or Btrfs (tmpfs has no
/// disk). Each round also flushes the library folder (`fsync`), which makes the drive empty its
/// own cache: ext4 without a journal writes its inode tables after `syncfs` flushed that cache.
/// A round that fails fails every later one too (`syncfs` reports a failed write once per
/// descriptor, and the next round may find nothing left to report). Elsewhere, and for large
/// files, each file is flushed on its own, with `F_FULLFSYNC` on Apple's systems.
actor FlushRounds {
    /// Files larger than this are flushed on their own, not left in the page cache: a round
    /// would hold them in memory and flush them with every small file waiting, and they gain
    /// little from sharing a flush. A phone's photos (1 to 5 MB) are smaller.
    static let largestFile: Int64 = 8 << 20

    private let folder: String
    private let descriptor: Int32
    private var running = false
    /// Those waiting for the next flush.
    private var waiting: [CheckedContinuation<Int32, Never>] = []
    /// Those waiting for the flush now running (their writes ended before it began).
    private var joined: [CheckedContinuation<Int32, Never>] = []
    /// How many flushes have begun, each numbered from 1 as it begins.
    private let begun = LockedValue(0)
    /// The number of the flush now running (0: none), and of the last one that ended.
    private var flushing = 0
    private var lastEnded = 0
    /// The first failure a round met (errno), kept for every later round.
    private var failure: Int32 = 0

    /// Rounds for the library at `folder`, or nil where its file system is not one whose whole
    /// flush is known to be durable, or its catalog's folder lies on another volume.
    init?(folder: String) {
        #if os(Linux)
            let local: Set<Int64> = [0xEF53, 0x5846_5342, 0x9123_683E, 0x0102_1994]
            guard FlushRounds.reportsWriteErrors(), local.contains(pickup_filesystem_type(folder)),
                let library = FileStatus(path: folder), let state = FileStatus(path: folder + "/.pickup"),
                library.device == state.device
            else { return nil }
            let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            self.folder = folder
            self.descriptor = descriptor
        #else
            return nil
        #endif
    }

    deinit { close(descriptor) }

    /// Whether the running kernel's `syncfs` reports a write that failed (Linux 5.8 and later).
    private static func reportsWriteErrors() -> Bool {
        var names = utsname()
        guard uname(&names) == 0 else { return false }
        let release = withUnsafeBytes(of: names.release) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let numbers = release.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
        guard numbers.count == 2 else { return false }
        return numbers[0] > 5 || (numbers[0] == 5 && numbers[1] >= 8)
    }

    /// Returns once everything written before the call is on the disk; throws what the disk
    /// reported when a write failed. `gathering` false: a caller that already speaks for many
    /// (a round of `ImportSession.nameRound` or `recordRound`) starts a flush at once when none
    /// is running.
    func flush(gathering: Bool = true) async throws(ImportError) {
        try await flush(after: nil, gathering: gathering)
    }

    /// A mark to read once some writes have ended: any flush that begins after it holds them.
    nonisolated func ticket() -> Int { begun.withValue { $0 } }

    /// Returns once the writes that ended before `ticket` was read are on the disk: at once when
    /// a flush that began after it has ended, when that flush ends if it is running, else as
    /// `flush(gathering:)` does. Nil: everything written before the call.
    func flush(after ticket: Int?, gathering: Bool = true) async throws(ImportError) {
        if let ticket, lastEnded > ticket {
            if failure != 0 { throw ImportError.writing(folder, errno: failure) }
            return
        }
        let code = await withCheckedContinuation { continuation in
            if let ticket, flushing > ticket {
                joined.append(continuation)
            } else {
                waiting.append(continuation)
                startRound(gathering: gathering)
            }
        }
        if code != 0 { throw ImportError.writing(folder, errno: code) }
    }

    /// How long a round waits for more items to ask before it flushes. Where copies are
    /// quick (photos in the page cache) items ask one after another, and without the pause
    /// nearly every one paid a whole flush of its own (1,000 photos: about 1,400 rounds).
    static let gathering: Duration = .milliseconds(1)

    /// Where these rounds' flushes run, one at a time (one `FlushRounds` a session: another
    /// session's flushes do not wait for them).
    private let queue = DispatchQueue(label: "pickup.import.flush", qos: .userInitiated)

    /// Starts a round for everyone waiting, unless one is running: after `gathering` (or at
    /// once), for all who asked by then.
    private func startRound(gathering: Bool) {
        guard !running, !waiting.isEmpty else { return }
        running = true
        guard gathering else { return flushWaiting() }
        Task {
            try? await Task.sleep(for: FlushRounds.gathering)
            self.flushWaiting()
        }
    }

    /// The round's flush, for everyone waiting now.
    private func flushWaiting() {
        let round = waiting
        waiting = []
        flushing = begun.withValue { count in
            count += 1
            return count
        }
        let descriptor = descriptor
        // On a thread of its own: the flush blocks for as long as the disk takes. A serial queue
        // of its own, not the global one, where copies queue by the dozen ahead of it.
        queue.async {
            let code = FlushRounds.syncAll(descriptor)
            Task { await self.ended(round, code: code) }
        }
    }

    /// One round's work: the whole file system, then the library folder (which makes the drive
    /// empty its cache); 0, or the errno of what failed.
    private static func syncAll(_ descriptor: Int32) -> Int32 {
        guard pickup_sync_filesystem(descriptor) == 0 else { return errno }
        return fsync(descriptor) == 0 ? 0 : errno
    }

    private func ended(_ round: [CheckedContinuation<Int32, Never>], code: Int32) {
        if failure == 0 { failure = code }
        lastEnded = flushing
        flushing = 0
        for continuation in round + joined { continuation.resume(returning: failure) }
        joined = []
        // Whoever asked during this round has waited for it: the next round flushes for them
        // now, without gathering again.
        if waiting.isEmpty {
            running = false
        } else {
            flushWaiting()
        }
    }
}
