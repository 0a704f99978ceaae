/// How large the next tus chunk is. The first is `first`; each chunk the server takes whole
/// doubles the next, up to `largest`, since on a distant link every chunk waits a round trip
/// for its answer before the next can go (tus 1.0 sends one PATCH at a time). A grown chunk
/// that fails ends the growth: one a proxy refused as too large (413) leaves the rest at the
/// largest size the server took whole; any other failure (a lost connection, a corrupted chunk)
/// at the first size, since a link that failed once may fail again, and a chunk cut off is
/// sent again whole where the server keeps no partial chunk (one that checks checksums).
struct TusChunkSizes: Sendable {
    /// The first chunk's size, and the least any chunk is.
    let first: Int
    /// The most a chunk grows to.
    let largest: Int
    /// The size of the next chunk (the file's rest, when that is less).
    private(set) var next: Int
    /// The largest chunk the server took whole.
    private var passed: Int
    private var grows: Bool

    init(first: Int, largest: Int) {
        self.first = first
        self.largest = max(first, largest)
        next = first
        passed = first
        grows = self.largest > first
    }

    /// A chunk of `sent` bytes was sent; `whole`: the server took all of it.
    mutating func took(_ sent: Int, whole: Bool) {
        guard whole else { return }
        passed = max(passed, sent)
        // A file's short last chunk says nothing about larger ones.
        if grows, sent == next { next = min(largest, next * 2) }
    }

    /// A chunk of `sent` bytes failed; `refused`: a proxy refused it as too large. Whether it
    /// was a grown one (and the next is smaller).
    mutating func failed(_ sent: Int, refused: Bool) -> Bool {
        guard sent > first else { return false }
        grows = false
        next = refused ? passed : first
        return next < sent
    }
}
