/// A `pickup` subcommand: its spec, validation of its arguments, and its work.
public protocol Command: Sendable {
    static var spec: CommandSpec { get }
    /// Checks the arguments and keeps what `run` needs; throws on misuse.
    init(_ arguments: ParsedArguments) throws(UsageError)
    /// Does the work and returns the exit status.
    func run() async -> Int32
}

/// Exit statuses shared by every command.
public enum ExitStatus {
    public static let success: Int32 = 0
    /// Some items failed; the others were done.
    public static let someFailed: Int32 = 1
    /// The command was called wrongly.
    public static let usage: Int32 = 2
}
