import ArgumentParser

/// The options of every command that works with the upload journal: `pickup upload` and
/// `pickup uploads list|resume|cancel`.
struct JournalOptions: ParsableArguments {
    @Option(
        name: .customLong("journal"),
        help: ArgumentHelp(
            "The upload journal (default ~/.local/state/pickup/uploads.sqlite, or $PICKUP_STATE_DIR).",
            valueName: "PATH"))
    var journal: String?

    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp(
            "Also trust the certificate authorities in this PEM file (as SSL_CERT_FILE does).", valueName: "FILE"))
    var caFile: String?

    @Flag(name: .customLong("json"), help: "Print one JSON object a line: each upload's record.")
    var json = false
}
