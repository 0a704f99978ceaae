import ArgumentParser

/// A number an option takes in megabytes or seconds (8, 0.5, 2.5), shown in help as it is
/// typed: `(default: 8)`, not `(default: 8.0)`.
struct DecimalValue: ExpressibleByArgument, Sendable, Hashable, CustomStringConvertible {
    var value: Double

    init(_ value: Double) { self.value = value }

    init?(argument: String) {
        guard let value = Double(argument), value.isFinite else { return nil }
        self.value = value
    }

    var description: String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    var defaultValueDescription: String { description }
}
