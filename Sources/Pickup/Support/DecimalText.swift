/// A number as a person types it on a command line: digits and at most one point (`8`, `0.5`,
/// `.5`, `5.`), nothing else. `Double` alone would also read `0x10` as 16, `1e3` as 1000, `inf`
/// and `nan`, so every option that takes a number reads it through here.
package enum DecimalText {
    /// The value of `text`, or nil when it is not digits and at most one point.
    package static func value(_ text: some StringProtocol) -> Double? {
        guard text.contains(where: \.isNumber), text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            text.filter({ $0 == "." }).count <= 1
        else { return nil }
        return Double(String(text))
    }
}
