#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Writes to standard output and error with `write(2)`, whole texts at a
/// time (callers batch their lines), and tells whether output is a terminal.
public enum Console {
    public static func out(_ text: String) { raw(text.hasSuffix("\n") ? text : text + "\n") }

    public static func error(_ text: String) { write(text.hasSuffix("\n") ? text : text + "\n", to: STDERR_FILENO) }

    /// Writes to standard output as given, without adding a newline.
    public static func raw(_ text: String) { write(text, to: STDOUT_FILENO) }

    /// Writes to standard error as given (progress bars redraw with `\r`).
    public static func errorRaw(_ text: String) { write(text, to: STDERR_FILENO) }

    public static var errorIsTerminal: Bool {
        // A terminal that cannot move the cursor (TERM=dumb: Emacs's shell, some CI logs) gets
        // lines, as a file does, not a bar redrawn with escape sequences.
        isatty(STDERR_FILENO) == 1 && getenv("TERM").map { String(cString: $0) } != "dumb"
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            guard var pointer = bytes.baseAddress else { return }
            var left = bytes.count
            while left > 0 {
                let written = systemWrite(descriptor, pointer, left)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // a closed pipe (`| head`): nothing more to say
                }
                pointer += written
                left -= written
            }
        }
    }
}

#if canImport(Glibc)
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    private let systemWrite = Darwin.write
#elseif canImport(Musl)
    private let systemWrite = Musl.write
#endif
