import ArgumentParser

/// `--no-idempotency-key`, of `pickup upload` and `pickup uploads resume`: the run's setting,
/// not the upload's, so a file sent with a key is still "already there" without one.
struct FormKeyOption: ParsableArguments {
    @Flag(
        name: [.customLong("no-idempotency-key")],
        help: ArgumentHelp(
            "Form uploads: send no Idempotency-Key header this run, for a server that refuses it. By default each "
                + "form upload carries its own key, the same on every try, so that a server that honours it keeps "
                + "one copy when a lost answer makes Pickup send the file again."))
    var noIdempotencyKey = false

    /// Whether form uploads send their key.
    var sendsKey: Bool { !noIdempotencyKey }
}
