/// Loads picked items a few at a time and hands each result back in selection
/// order, whatever order they finish in — the way a picker's results must
/// reach the app. A failure is that item's result; it never stops the others
/// and never leaves a spinner waiting.
public struct OrderedLoader<Input: Sendable, Output: Sendable>: Sendable {
    /// How many items load at once (at least one).
    public let concurrency: Int
    private let load: @Sendable (Input) async -> Result<Output, LoadFailure>

    /// Why one item could not be loaded, in words a person can act on.
    public struct LoadFailure: Error, Sendable, Hashable {
        /// What happened, and what to do.
        public var message: String
        /// A failure with its message.
        public init(_ message: String) { self.message = message }
    }

    /// A loader that runs `load` on at most `concurrency` items at a time.
    public init(concurrency: Int = 3, load: @escaping @Sendable (Input) async -> Result<Output, LoadFailure>) {
        self.concurrency = max(1, concurrency)
        self.load = load
    }

    /// Results in the order of `inputs`, each as soon as it and all before it are done.
    public func results(for inputs: [Input]) -> AsyncStream<(index: Int, result: Result<Output, LoadFailure>)> {
        let (stream, continuation) = AsyncStream<(index: Int, result: Result<Output, LoadFailure>)>.makeStream()
        let load = self.load
        let concurrency = self.concurrency
        let task = Task {
            var done: [Int: Result<Output, LoadFailure>] = [:]
            var delivered = 0
            await withTaskGroup(of: (Int, Result<Output, LoadFailure>).self) { group in
                var next = 0
                while next < min(concurrency, inputs.count) {
                    let index = next
                    group.addTask { (index, await load(inputs[index])) }
                    next += 1
                }
                for await (index, result) in group {
                    done[index] = result
                    while let ready = done.removeValue(forKey: delivered) {
                        continuation.yield((delivered, ready))
                        delivered += 1
                    }
                    if next < inputs.count, !Task.isCancelled {
                        let index = next
                        group.addTask { (index, await load(inputs[index])) }
                        next += 1
                    }
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
