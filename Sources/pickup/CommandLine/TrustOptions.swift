import ArgumentParser

/// `--ca-file`, for the commands that talk to a server (`upload`, `uploads resume`, `uploads cancel`);
/// `uploads list` and `prune` only read the journal and do not offer it.
struct TrustOptions: ParsableArguments {
    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp(
            "Also trust the certificate authorities in this PEM file (as SSL_CERT_FILE does).", valueName: "FILE"),
        completion: .file())
    var caFile: String?
}
