import Pickup

/// The arguments the process was started with, after its name, each as `SystemPath` spells it:
/// `CommandLine.arguments` repairs bytes that are not UTF-8 (a Latin-1 file name from a glob)
/// into U+FFFD, after which the name leads nowhere.
public enum SystemArguments {
    /// Every argument after the program's name.
    public static var all: [String] {
        (1..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { SystemPath.string(cString: $0) }
        }
    }
}
