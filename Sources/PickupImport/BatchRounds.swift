/// Work done for many callers at once: whoever asks while a round runs is served by the next
/// round, which starts as that one ends, with everyone who asked meanwhile. So the work's fixed
/// cost (a flush of the disk, a catalog transaction) is shared by all who arrive during one,
/// and no one waits for a timer: one caller alone is served at once.
actor BatchRounds<Input: Sendable, Output: Sendable> {
    /// A round's work: one output for each input, in their order.
    typealias Work = @Sendable ([Input]) async -> [Output]

    private let work: Work
    private var waiting: [(inputs: [Input], continuation: CheckedContinuation<[Output], Never>)] = []
    private var running = false
    /// How many rounds have run, and the most inputs one of them took (for tests).
    private(set) var rounds = 0
    private(set) var largestRound = 0
    /// How many inputs wait for the next round (for tests).
    var waitingCount: Int { waiting.reduce(0) { $0 + $1.inputs.count } }

    init(work: @escaping Work) { self.work = work }

    /// `input`'s output, from the round it joins.
    func submit(_ input: Input) async -> Output {
        let outputs = await submit(all: [input])
        // One output an input: `ended` hands each caller as many as it gave.
        precondition(outputs.count == 1, "a round gave \(outputs.count) outputs for one input")
        return outputs[0]
    }

    /// The outputs of `inputs`, in their order, from the round they join together (a batch of
    /// items: one wait for all of them).
    func submit(all inputs: [Input]) async -> [Output] {
        guard !inputs.isEmpty else { return [] }
        return await withCheckedContinuation { continuation in
            waiting.append((inputs, continuation))
            startRound()
        }
    }

    private func startRound() {
        guard !running, !waiting.isEmpty else { return }
        running = true
        let round = waiting
        waiting = []
        rounds += 1
        let inputs = round.flatMap(\.inputs)
        largestRound = max(largestRound, inputs.count)
        let work = work
        Task {
            let outputs = await work(inputs)
            // One output an input is the work's promise; a caller left without one would wait for
            // ever, so a broken promise stops here, where it is seen.
            precondition(
                outputs.count == inputs.count, "a round's work gave \(outputs.count) outputs for \(inputs.count)")
            self.ended(round.map { ($0.inputs.count, $0.continuation) }, outputs)
        }
    }

    private func ended(
        _ callers: [(count: Int, continuation: CheckedContinuation<[Output], Never>)], _ outputs: [Output]
    ) {
        var next = 0
        for caller in callers {
            caller.continuation.resume(returning: Array(outputs[next..<next + caller.count]))
            next += caller.count
        }
        running = false
        startRound()
    }
}
