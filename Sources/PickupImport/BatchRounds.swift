/// Work done for many callers at once: whoever asks while a round runs is served by the next
/// round, which starts as that one ends, with everyone who asked meanwhile. So the work's fixed
/// cost (a flush of the disk, a catalog transaction) is shared by all who arrive during one,
/// and no one waits for a timer: one caller alone is served at once.
actor BatchRounds<Input: Sendable, Output: Sendable> {
    /// A round's work: one output for each input, in their order.
    typealias Work = @Sendable ([Input]) async -> [Output]

    private let work: Work
    private var waiting: [(input: Input, continuation: CheckedContinuation<Output, Never>)] = []
    private var running = false
    /// How many rounds have run, and the most inputs one of them took (for tests).
    private(set) var rounds = 0
    private(set) var largestRound = 0
    /// How many callers wait for the next round (for tests).
    var waitingCount: Int { waiting.count }

    init(work: @escaping Work) { self.work = work }

    /// `input`'s output, from the round it joins.
    func submit(_ input: Input) async -> Output {
        await withCheckedContinuation { continuation in
            waiting.append((input, continuation))
            startRound()
        }
    }

    private func startRound() {
        guard !running, !waiting.isEmpty else { return }
        running = true
        let round = waiting
        waiting = []
        rounds += 1
        largestRound = max(largestRound, round.count)
        let work = work
        Task {
            let outputs = await work(round.map(\.input))
            // One output an input is the work's promise; a caller left without one would wait for
            // ever, so a broken promise stops here, where it is seen.
            precondition(
                outputs.count == round.count, "a round's work gave \(outputs.count) outputs for \(round.count)")
            self.ended(round.map(\.continuation), outputs)
        }
    }

    private func ended(_ continuations: [CheckedContinuation<Output, Never>], _ outputs: [Output]) {
        for (continuation, output) in zip(continuations, outputs) { continuation.resume(returning: output) }
        running = false
        startRound()
    }
}
