import ArgumentParser

/// Options given as NAME=VALUE, repeated (`--form-field`, `--metadata`).
enum KeyValueOption {
    /// Each NAME=VALUE as a pair, in the order given; refused, naming `flag`, when one has no
    /// `=` or no name.
    static func pairs(_ texts: [String], flag: String) throws(ValidationError) -> [(name: String, value: String)] {
        try texts.map { (text) throws(ValidationError) in
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw ValidationError("\(flag) takes NAME=VALUE, not '\(text)'")
            }
            return (parts[0], parts[1])
        }
    }
}
