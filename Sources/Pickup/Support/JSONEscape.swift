/// How a character stands in a JSON string: what JSON requires escaped (quotes, backslashes,
/// control characters) escaped, everything else as it is. One rule for the command line's
/// JSON Lines and the catalog's facts.
package enum JSONEscape {
    /// Appends `scalar` to `text`, the inside of a JSON string, escaped where JSON requires it.
    package static func append(_ scalar: Unicode.Scalar, to text: inout String) {
        switch scalar {
        case "\"": text += "\\\""
        case "\\": text += "\\\\"
        case "\n": text += "\\n"
        case "\r": text += "\\r"
        case "\t": text += "\\t"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: text.unicodeScalars.append(scalar)
        }
    }
}
