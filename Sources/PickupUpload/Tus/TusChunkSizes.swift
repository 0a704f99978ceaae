/// How large the next tus chunk is. The first is `first`; each chunk the server takes whole in
/// under `quick` seconds doubles the next, up to `largest`, since on a distant link every chunk
/// waits a round trip for its answer before the next can go (tus 1.0 sends one PATCH at a time).
/// A chunk that takes longer already makes that wait small (150 ms is 1.5% of 10 s), and a
/// slow link keeps its chunks short, well inside a request's deadline (600 s). A grown chunk
/// that fails ends the growth: one a proxy refused as too large (413) leaves the rest at the
/// largest size the server took whole; any other failure (a lost connection, a corrupted chunk)
/// at the first size, since a link that failed once may fail again, and a chunk cut off is
/// sent again whole where the server keeps no partial chunk (one that checks checksums).
struct TusChunkSizes: Sendable {
    /// The first chunk's size, and the least any chunk is.
    let first: Int
    /// The most a chunk grows to.
    let largest: Int
    /// Seconds under which a chunk taken whole makes the next one twice as large.
    static let quick: Double = 10
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

    /// A chunk of `sent` bytes went in `seconds`; `whole`: the server took all of it.
    mutating func took(_ sent: Int, whole: Bool, seconds: Double) {
        guard whole else { return }
        passed = max(passed, sent)
        // A file's short last chunk says nothing about larger ones.
        if grows, sent == next, seconds < Self.quick { next = min(largest, next * 2) }
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
