import ArgumentParser
import PickupCommandLine

extension UploadsCommand {
    /// `pickup uploads list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every upload: id, state, file, target, bytes the server confirmed, its URL on the server.",
            discussion: "A header row names the fields; --state keeps the uploads in those states."
                + Examples.text([
                    "pickup uploads list --state failed,paused", "pickup uploads list --state done --json",
                ]))

        @Option(
            name: .customLong("state"),
            help: ArgumentHelp(
                "Only uploads in these states: " + UploadsJob.states.joined(separator: ", ")
                    + " (commas: any of them).", valueName: "STATE"),
            completion: .list(UploadsJob.states))
        var state: String?

        @OptionGroup var shared: JournalOptions

        func validate() throws {
            _ = try UploadsJob.states(state)
        }

        func run() async throws {
            try finish(await UploadsJob(.list(try UploadsJob.states(state)), shared).run())
        }
    }
}
