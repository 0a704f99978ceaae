import PickupStore

/// Arguments a shell hands over that swift-argument-parser would misread, found before it reads
/// them: a file whose name begins with `-` (a glob's `*.jpg` can expand to `-dash.jpg`, which
/// would read as `-d -a -s -h ...` and print the help, exit 0), and a negative number after an
/// option (`--limit -1`, which would read as a missing value).
public enum ArgumentSlips {
    /// The first argument before `--` that is a file's name rather than an option, and what to
    /// do about it; nil when there is none. A name counts as a file's when such a file or folder
    /// exists, or when it holds a `.` or a `/` that no option of ours holds (`-x.jpg`).
    public static func fileNamedLikeAnOption(in arguments: [String], command: String) -> String? {
        for argument in arguments {
            if argument == "--" { return nil }
            guard argument.hasPrefix("-"), argument != "-", !isNegativeNumber(argument) else { continue }
            // `--output=./x.jpg`: the option is the part before `=`.
            let option = argument.hasPrefix("--") ? String(argument.prefix { $0 != "=" }) : argument
            let looksLikeName = option.contains(".") || option.contains("/")
            guard looksLikeName || FileStatus(path: argument) != nil else { continue }
            return "'\(argument)' is a file's name, not an option: a name that begins with '-' (from a glob "
                + "such as *.jpg?) is read as options. Put '--' before the file names (\(command) -- *.jpg) "
                + "or write ./\(argument)"
        }
        return nil
    }

    /// The arguments with a negative number after a long option joined to it (`--limit -1`
    /// becomes `--limit=-1`), so that the option gets its value and the command says what is
    /// wrong with it; a long option that takes no value then says so.
    public static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var joined: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" {
                joined += arguments[index...]
                break
            }
            let next = arguments.index(after: index)
            if argument.hasPrefix("--"), argument.count > 2, !argument.contains("="), next < arguments.endIndex,
                isNegativeNumber(arguments[next])
            {
                joined.append(argument + "=" + arguments[next])
                index = arguments.index(after: next)
                continue
            }
            joined.append(argument)
            index = next
        }
        return joined
    }

    /// `-1`, `-0.5`, `-1:05`, `-25%`, `-5x5`: a minus sign and a number, as a time, share, count
    /// or size is written.
    static func isNegativeNumber(_ text: String) -> Bool {
        let rest = text.dropFirst()
        return text.hasPrefix("-") && rest.first?.isNumber == true
            && rest.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == ":" || $0 == "%" || $0 == "x") }
    }
}
