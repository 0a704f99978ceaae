import Dispatch
import PickupStore

/// Hashes chunks on a thread of its own while the copying thread fills the
/// next buffer: copying and hashing overlap, so a chunk costs the longer of
/// the two, not their sum. Two buffers take turns; memory is two chunks.
///
/// `@unchecked Sendable` is safe: each buffer is used by one thread at a time,
/// handed over by its semaphore (`acquire` waits until the hash thread is done
/// with it; `release` passes it to the hash thread). The hasher is touched only
/// on the serial hash queue, and read by `finish` after that queue has drained.
final class HashPipeline: @unchecked Sendable {
    private let buffers: [UnsafeMutableRawBufferPointer]
    private let free: [DispatchSemaphore]
    private let queue = DispatchQueue(label: "pickup.import.hash")
    private let hasher = DigestHasher()
    private var digest: String?

    init(chunkSize: Int) {
        buffers = (0..<2).map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 4096) }
        free = (0..<2).map { _ in DispatchSemaphore(value: 1) }
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    /// The buffer of `slot`, once the hash thread no longer reads it.
    func acquire(_ slot: Int) -> UnsafeMutableRawBufferPointer {
        free[slot].wait()
        return buffers[slot]
    }

    /// Hands the first `count` bytes of `slot` to the hash thread.
    func release(_ slot: Int, count: Int) {
        queue.async { [self] in
            if count > 0 { hasher.update(UnsafeRawBufferPointer(rebasing: buffers[slot][0..<count])) }
            free[slot].signal()
        }
    }

    /// Waits for every chunk to be hashed; the SHA-256 as hex.
    @discardableResult
    func finish() -> String {
        queue.sync { [self] in
            if digest == nil { digest = hasher.finalizeHex() }
        }
        return queue.sync { digest ?? "" }
    }
}
