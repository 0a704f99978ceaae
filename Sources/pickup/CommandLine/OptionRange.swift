import ArgumentParser

/// The range check of a numeric option, with its refusal worded one way for every command:
/// "--retries takes a whole number from 0 to 100", "--timeout takes seconds from 1 to 3600".
enum OptionRange {
    /// `value` when `range` holds it; otherwise the refusal, naming `flag`.
    static func whole(_ value: Int, _ range: ClosedRange<Int>, flag: String) throws(ValidationError) -> Int {
        guard range.contains(value) else {
            throw ValidationError("\(flag) takes a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// `value`, in `unit` ("seconds", "megabytes"), when `range` holds it; otherwise the
    /// refusal, naming `flag`, with `why` (the range's reason) after it when given.
    static func number(
        _ value: Double, _ range: ClosedRange<Double>, flag: String, unit: String, why: String? = nil
    ) throws(ValidationError) -> Double {
        guard range.contains(value) else {
            let bounds = "from \(DecimalValue(range.lowerBound)) to \(DecimalValue(range.upperBound))"
            throw ValidationError("\(flag) takes \(unit) \(bounds)" + (why.map { " (\($0))" } ?? ""))
        }
        return value
    }
}
