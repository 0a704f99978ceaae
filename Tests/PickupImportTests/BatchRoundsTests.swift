import PickupTestSupport
import Testing

@testable import PickupImport

/// `BatchRounds`: callers who arrive while a round runs are served together by the next one.
@Suite("batch rounds", .timeLimit(.minutes(5)))
struct BatchRoundsTests {
    @Test("a caller alone is served at once, in a round of its own")
    func alone() async {
        let rounds = BatchRounds<Int, Int> { inputs in inputs.map { $0 * 2 } }
        #expect(await rounds.submit(21) == 42)
        #expect(await rounds.submit(5) == 10)
        #expect(await rounds.rounds == 2)
        #expect(await rounds.largestRound == 1)
    }

    @Test("a batch's inputs join one round with the single callers', each caller given its own outputs in order")
    func batches() async throws {
        let gate = Gate()
        let rounds = BatchRounds<Int, Int> { inputs in
            await gate.pass()
            return inputs.map { $0 * 10 }
        }
        async let first = rounds.submit(0)
        while await gate.entered == 0 { try await Task.sleep(for: .milliseconds(1)) }
        async let batch = rounds.submit(all: [1, 2, 3])
        async let single = rounds.submit(4)
        async let another = rounds.submit(all: [5, 6])
        while await rounds.waitingCount < 6 { try await Task.sleep(for: .milliseconds(1)) }
        await gate.release()
        #expect(await first == 0)
        #expect(await batch == [10, 20, 30])
        #expect(await single == 40)
        #expect(await another == [50, 60])
        #expect(await rounds.submit(all: []) == [])
        #expect(await rounds.rounds == 2, "the first caller's round, then one for the other six inputs")
        #expect(await rounds.largestRound == 6)
    }

    @Test("callers who arrive during a round share the next one, each given its own output")
    func sharing() async throws {
        let gate = Gate()
        let rounds = BatchRounds<Int, String> { inputs in
            await gate.pass()
            return inputs.map { "item \($0)" }
        }
        async let first = rounds.submit(0)
        // The first round is running (held at the gate) before the others ask.
        while await gate.entered == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let later = Task {
            await withTaskGroup(of: (Int, String).self) { group in
                for input in 1...5 { group.addTask { (input, await rounds.submit(input)) } }
                var outputs: [Int: String] = [:]
                for await (input, output) in group { outputs[input] = output }
                return outputs
            }
        }
        // All five are queued behind the running round before it is let go.
        while await rounds.waitingCount < 5 { try await Task.sleep(for: .milliseconds(1)) }
        await gate.release()
        #expect(await first == "item 0")
        let outputs = await later.value
        #expect(outputs == [1: "item 1", 2: "item 2", 3: "item 3", 4: "item 4", 5: "item 5"])
        #expect(await rounds.rounds == 2, "one round for the first caller, one for the five")
        #expect(await rounds.largestRound == 5)
    }
}
