/// How large the next tus chunk is. The first is `first`; each chunk the server takes whole in
/// under `quick` seconds doubles the next, up to `largest`, since on a distant link every chunk
/// waits a round trip for its answer before the next can go (tus 1.0 sends one PATCH at a time).
/// A chunk of 5 s or more already makes that wait small (150 ms is 3% of 5 s). One that takes
/// 10 s or more halves the next (never below `first`): chunks come back to about 10 s when the
/// link slows, so that the journal's confirmed offset (what a resume goes on from) moves about
/// that often, and a slow link keeps its chunks short, well inside a request's deadline (600 s).
/// A progress bar moves in between, with the bytes sent (`UploadEvent.sending`).
///
/// Growth ends for the upload at the first sign against it:
/// - a proxy refuses a grown chunk as too large (413): the rest goes at the largest size the
///   server took whole (`largestPassedBeforeRefusal` says so, for the uploader's other uploads
///   to the endpoint: kept in memory, not in the journal);
/// - any other failure of a grown chunk (a lost connection, a corrupted chunk): the rest goes at
///   the first size, since a link that failed once may fail again, and a chunk cut off is sent
///   again whole where the server keeps no partial chunk (one that checks checksums);
/// - the server keeps only part of a chunk: the rest at the first size, so that a server keeping
///   a little of each chunk is not sent ever larger ones.
struct TusChunkSizes: Sendable {
    /// The first chunk's size, and the least any chunk is.
    let first: Int
    /// The most a chunk grows to.
    private(set) var largest: Int
    /// Seconds under which a chunk taken whole makes the next one twice as large.
    static let quick: Double = 5
    /// Seconds from which a chunk makes the next one half as large.
    static let slow: Double = 10
    /// The size of the next chunk (the file's rest, when that is less).
    private(set) var next: Int
    /// The largest chunk the server took whole.
    private var passed: Int
    private var grows: Bool
    /// After a proxy refused a grown chunk (413): the largest size that passed before, which is
    /// the endpoint's limit as far as is known.
    private(set) var largestPassedBeforeRefusal: Int?

    init(first: Int, largest: Int) {
        self.first = first
        self.largest = max(first, largest)
        next = first
        passed = first
        grows = self.largest > first
    }

    /// Chunks no larger than `ceiling` (what an earlier upload to the endpoint found it takes).
    mutating func limit(to ceiling: Int) {
        largest = max(first, min(largest, ceiling))
        next = min(next, largest)
        grows = grows && largest > next
    }

    /// A chunk of `sent` bytes went in `seconds`; `whole`: the server took all of it.
    mutating func took(_ sent: Int, whole: Bool, seconds: Double) {
        guard whole else {
            grows = false
            next = first
            return
        }
        passed = max(passed, sent)
        if seconds >= Self.slow {
            next = max(first, min(next, sent) / 2)
            return
        }
        // A file's short last chunk says nothing about larger ones.
        if grows, sent == next, seconds < Self.quick { next = min(largest, next * 2) }
    }

    /// A chunk of `sent` bytes failed; `refused`: a proxy refused it as too large. Whether it
    /// was a grown one (and the next is smaller).
    mutating func failed(_ sent: Int, refused: Bool) -> Bool {
        guard sent > first else { return false }
        grows = false
        next = refused ? passed : first
        if refused, passed < sent { largestPassedBeforeRefusal = passed }
        return next < sent
    }
}
