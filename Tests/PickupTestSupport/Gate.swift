/// Holds whoever passes it until it is opened: work a test keeps waiting (a round of a batch, a
/// server that has not answered yet) while it looks at what happens meanwhile.
public actor Gate {
    private var open = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// How many have come to the gate, held or not.
    public private(set) var entered = 0

    public init() {}

    /// Waits until the gate is open.
    public func pass() async {
        entered += 1
        if open { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Opens the gate for those waiting and all who come later.
    public func release() {
        open = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}
