/// How many of an upload's bytes are on their way: the bytes the server confirmed, and beyond
/// them the bytes of the file that the requests in flight have handed to the network (a tus
/// chunk, S3 parts, a whole form), as their transports tell. What a progress bar shows between
/// two confirmations, which on a slow link can be seconds apart (a 16 MB chunk at 20 Mbit/s:
/// 7 s; a form: the whole upload).
///
/// A request that ends well keeps its bytes until the next confirmation counts them; one that
/// fails takes its bytes back, and so do a step that fails and a server that holds fewer bytes
/// than it had confirmed: those are the only times the count goes down. Otherwise it never does, even
/// while a confirmation that does not yet count a request that ended well comes in between (S3
/// parts arrive in any order).
struct SentBytes: Sendable {
    /// The file's size: the count never passes it.
    let size: Int64
    /// What the server confirmed last.
    private(set) var confirmed: Int64
    /// Bytes sent so far by each request in flight, by its number.
    private var flying: [Int: Int64] = [:]
    /// Bytes of the requests that ended well since the last confirmation.
    private var landed: Int64 = 0
    /// The count last given: the least the next one is, but after a failure.
    private var floor: Int64
    private var serial = 0

    init(size: Int64, confirmed: Int64) {
        self.size = size
        self.confirmed = confirmed
        floor = min(size, confirmed)
    }

    /// The bytes on their way now.
    var value: Int64 { max(floor, counted) }

    /// What the confirmation, the requests that landed since and those in flight add up to.
    private var counted: Int64 { min(size, confirmed + landed + flying.values.reduce(0, +)) }

    /// A request carrying file bytes starts: its number, for the calls below.
    mutating func begin() -> Int {
        serial += 1
        flying[serial] = 0
        return serial
    }

    /// Request `number` has handed `bytes` of the file to the network so far. A request that
    /// already ended counts for nothing (a transport may tell of a last write after the answer).
    mutating func sent(_ number: Int, _ bytes: Int64) {
        guard let before = flying[number] else { return }
        flying[number] = max(before, bytes)
        floor = value
    }

    /// Request `number` ended: answered well (`landed`), or not, which takes its bytes back.
    mutating func end(_ number: Int, landed: Bool) {
        guard let bytes = flying.removeValue(forKey: number) else { return }
        if landed {
            self.landed += bytes
            floor = value
        } else {
            floor = counted
        }
    }

    /// A step failed (even after its requests were answered well: an answer the step refused):
    /// what landed since the last confirmation counts no more.
    mutating func failed() {
        landed = 0
        floor = counted
    }

    /// The server holds `bytes`: they count instead of what landed before. Fewer than it had
    /// confirmed (it lost some) lowers the count with them.
    mutating func confirm(_ bytes: Int64) {
        let rewound = bytes < confirmed
        confirmed = bytes
        landed = 0
        floor = rewound ? counted : value
    }
}
