import ArgumentParser

/// A number an option takes in megabytes or seconds (8, 0.5, 2.5), shown in help as it is
/// typed: `(default: 8)`, not `(default: 8.0)`.
struct DecimalValue: ExpressibleByArgument, Sendable, Hashable, CustomStringConvertible {
    var value: Double

    init(_ value: Double) { self.value = value }

    init?(argument: String) {
        // Digits and one point (a sign, for the range check to name): `Double` alone would also
        // read `0x10` as 16, `1e3` as 1000 and `inf`.
        let digits = argument.hasPrefix("-") ? argument.dropFirst() : Substring(argument)
        guard digits.contains(where: \.isNumber), digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            digits.filter({ $0 == "." }).count <= 1, let value = Double(argument), value.isFinite
        else { return nil }
        self.value = value
    }

    var description: String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    var defaultValueDescription: String { description }
}
