/// The examples at the end of a command's help.
public enum Examples {
    /// The widest line an example takes, its indent included: help is wrapped at 80 columns
    /// when it is not shown on a terminal, and a command wrapped there could not be pasted.
    static let width = 78

    /// "Examples:" and each example after a blank line (nothing for none), indented; one too
    /// long for a line goes on over several, each but the last ending with ` \`, so that it
    /// can be pasted into a shell as it is shown.
    public static func text(_ examples: [String]) -> String {
        examples.isEmpty ? "" : "\n\nExamples:\n" + examples.map(lines).joined(separator: "\n")
    }

    /// One example as the lines it takes: broken between words, never inside quotes nor
    /// between an option and its value.
    static func lines(_ example: String) -> String {
        var units: [String] = []
        for word in words(example) {
            if let last = units.last, last.hasPrefix("-"), !last.contains(" "), !word.hasPrefix("-") {
                units[units.count - 1] = last + " " + word
            } else {
                units.append(word)
            }
        }
        var lines: [String] = []
        var line = "  "
        for word in units {
            let indent = lines.isEmpty ? 2 : 4
            if line.count > indent, line.count + 1 + word.count + 2 > width {
                lines.append(line + " \\")
                line = String(repeating: " ", count: 4)
            }
            line += (line.count > (lines.isEmpty ? 2 : 4) ? " " : "") + word
        }
        return (lines + [line]).joined(separator: "\n")
    }

    /// The shell words of a command as typed: split at spaces outside quotes, quotes kept.
    static func words(_ command: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        for character in command {
            if let open = quote {
                if character == open { quote = nil }
                word.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                word.append(character)
            } else if character == " " {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }
}
