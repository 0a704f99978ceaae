import ArgumentParser
import Pickup

/// A number an option takes in megabytes or seconds (8, 0.5, 2.5), shown in help as it is
/// typed: `(default: 8)`, not `(default: 8.0)`.
struct DecimalValue: ExpressibleByArgument, Sendable, Hashable, CustomStringConvertible {
    var value: Double

    init(_ value: Double) { self.value = value }

    init?(argument: String) {
        // Digits and one point (`DecimalText`), and a sign for the range check to name.
        let negative = argument.hasPrefix("-")
        guard let magnitude = DecimalText.value(negative ? argument.dropFirst() : Substring(argument)),
            magnitude.isFinite
        else { return nil }
        value = negative ? -magnitude : magnitude
    }

    var description: String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    var defaultValueDescription: String { description }
}
