import ArgumentParser

/// How much a long command says on standard error while it works, shared by every command that
/// shows progress. Results (standard output) and failures are printed either way.
public struct ProgressOptions: ParsableArguments, Sendable {
    @Flag(name: .customLong("no-progress"), help: "No progress bar and no progress lines.")
    public var noProgress = false

    @Flag(
        name: [.customShort("q"), .customLong("quiet")],
        help: "Only results and failures: no progress, no plans, no per-file lines on standard error.")
    public var quiet = false

    /// Nothing asked: progress shown.
    public init() {}

    /// Whether progress (a bar on a terminal, percent lines elsewhere) is shown.
    public var showsProgress: Bool { !noProgress && !quiet }
}
