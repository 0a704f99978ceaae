import ArgumentParser

/// The options of every command that works with the upload journal: `pickup upload` and
/// `pickup uploads list|resume|cancel|prune`.
struct JournalOptions: ParsableArguments {
    @Option(
        name: .customLong("journal"),
        help: ArgumentHelp(
            "The upload journal (default uploads.sqlite in $PICKUP_STATE_DIR, else in $XDG_STATE_HOME/pickup, "
                + "else in ~/.local/state/pickup).", valueName: "PATH"),
        completion: .file())
    var journal: String?

    @Flag(name: .customLong("json"), help: "Print one JSON object a line: each upload's record.")
    var json = false
}
