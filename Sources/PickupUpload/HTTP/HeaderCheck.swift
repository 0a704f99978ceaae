/// Whether a request header can go on the wire as given: a name of HTTP token
/// characters, a value without control characters (RFC 9110 §5.5: CR, LF and
/// NUL never; tab is allowed). What it says names the header, never its value,
/// which is often a credential.
public enum HeaderCheck {
    /// Why the header cannot be sent, in a sentence that names it (nil: it can).
    public static func problem(name: String, value: String) -> String? {
        guard !name.isEmpty, name.utf8.allSatisfy(isToken) else {
            return "a header name has a character HTTP does not allow in names (letters, digits and !#$%&'*+-.^_`|~)"
        }
        if let bad = value.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
            let what =
                switch bad {
                case "\r": "a carriage return (\\r: a file saved with Windows line ends, say)"
                case "\n": "a line feed (\\n)"
                default: "a control character (U+\(String(bad.value, radix: 16, uppercase: true)))"
                }
            return "the \(name) header's value holds \(what), which HTTP does not allow; "
                + "its value is not shown, and nothing was sent"
        }
        return nil
    }

    /// The first problem of `headers`, in name order (nil: every one can be sent).
    public static func problem(_ headers: [String: String]) -> String? {
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if let problem = problem(name: name, value: value) { return problem }
        }
        return nil
    }

    /// Whether `byte` may be part of a header name (an HTTP token).
    public static func isToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
