import Dispatch
import PickupStore

/// Hashes chunks on a thread of its own while the copying thread fills the
/// next buffer: copying and hashing overlap, so a chunk costs the longer of
/// the two, not their sum. Two buffers take turns; memory is two of them.
///
/// A file that fits in one buffer has nothing to overlap: it is hashed on the
/// copying thread, in one buffer (`overlapped` false), which spares a small
/// photo two hand-overs between threads and a second buffer. A file that grows
/// past its buffer while it is copied is still hashed whole, only without the overlap.
///
/// `@unchecked Sendable` is safe: each buffer is used by one thread at a time,
/// handed over by its semaphore (`acquire` waits until the hash thread is done
/// with it; `release` passes it to the hash thread). The hasher is touched only
/// on the serial hash queue, and read by `finish` after that queue has drained;
/// without the overlap, only the copying thread touches either.
final class HashPipeline: @unchecked Sendable {
    private let buffers: [UnsafeMutableRawBufferPointer]
    private let free: [DispatchSemaphore]
    /// Where chunks are hashed; nil: on the copying thread.
    private let queue: DispatchQueue?
    private let hasher = DigestHasher()
    private var digest: String?

    init(chunkSize: Int, overlapped: Bool = true) {
        let count = overlapped ? 2 : 1
        buffers = (0..<count).map { _ in
            UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 4096)
        }
        free = (0..<count).map { _ in DispatchSemaphore(value: 1) }
        queue = overlapped ? DispatchQueue(label: "pickup.import.hash") : nil
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    /// The buffer of `slot`, once the hash thread no longer reads it.
    func acquire(_ slot: Int) -> UnsafeMutableRawBufferPointer {
        guard queue != nil else { return buffers[0] }
        free[slot].wait()
        return buffers[slot]
    }

    /// Hands the first `count` bytes of `slot` to the hash thread (or hashes them now).
    func release(_ slot: Int, count: Int) {
        guard let queue else {
            if count > 0 { hasher.update(UnsafeRawBufferPointer(rebasing: buffers[0][0..<count])) }
            return
        }
        queue.async { [self] in
            if count > 0 { hasher.update(UnsafeRawBufferPointer(rebasing: buffers[slot][0..<count])) }
            free[slot].signal()
        }
    }

    /// Waits for every chunk to be hashed; the SHA-256 as hex.
    @discardableResult
    func finish() -> String {
        guard let queue else {
            if digest == nil { digest = hasher.finalizeHex() }
            return digest ?? ""
        }
        queue.sync { [self] in
            if digest == nil { digest = hasher.finalizeHex() }
        }
        return queue.sync { digest ?? "" }
    }
}
