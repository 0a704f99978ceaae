import ArgumentParser

/// Options given as NAME=VALUE, repeated (`--form-field`, `--metadata`).
enum KeyValueOption {
    /// Each NAME=VALUE as a pair, in the order given; refused, naming `flag` and its value's
    /// form (`form`, as its help says it), when one has no `=` or no name.
    static func pairs(
        _ texts: [String], flag: String, form: String = "NAME=VALUE"
    ) throws(ValidationError) -> [(name: String, value: String)] {
        try texts.map { (text) throws(ValidationError) in
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw ValidationError("\(flag) takes \(form), not '\(text)'")
            }
            return (parts[0], parts[1])
        }
    }
}
