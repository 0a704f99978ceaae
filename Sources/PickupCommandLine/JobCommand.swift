import ArgumentParser

/// What a command's checked arguments make: the work itself, which ends with an exit status.
public protocol CommandJob {
    /// Does the work and returns the exit status (0: everything went; 1: something failed).
    func run() async -> Int32
}

/// A command that parses and prints only: its arguments make a job (which says what is wrong
/// with them, as a `ValidationError`), and the job does the work.
///
/// `validate()` makes the job, so a mistake in the arguments exits 2 before anything is read
/// or written; `run()` makes it again and runs it.
public protocol JobCommand: AsyncParsableCommand {
    associatedtype Job: CommandJob
    /// The job these arguments ask for; throws what is wrong with them.
    func job() throws -> Job
}

extension JobCommand {
    public func validate() throws { _ = try job() }

    public func run() async throws { try finish(await job().run()) }
}
