/// The examples at the end of a command's help.
public enum Examples {
    /// "Examples:" and one indented line each, after a blank line (nothing for none).
    public static func text(_ examples: [String]) -> String {
        examples.isEmpty ? "" : "\n\nExamples:\n" + examples.map { "  " + $0 }.joined(separator: "\n")
    }
}
