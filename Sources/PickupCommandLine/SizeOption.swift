import ArgumentParser
import Pickup

/// A size in pixels given on the command line (`--size`, `--thumbnails`): `WxH`, or one number
/// for a square. What is wrong with one is said exactly: its form, a side under 1, or more
/// pixels than the command makes.
public enum SizeOption {
    /// The size `text` gives for `option`; `example` shows the form, `most` is the largest area.
    public static func parse(
        _ text: String, option: String, example: String, most: Int
    ) throws(ValidationError)
        -> PixelSize
    {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        let sides = parts.map { Int($0) }
        guard (1...2).contains(parts.count), sides.allSatisfy({ $0 != nil }) else {
            throw ValidationError(
                "\(option) \(text): give the size in pixels as WxH, like \(example) (one number is a square)")
        }
        let width = sides[0] ?? 0
        let height = sides.last.flatMap { $0 } ?? 0
        guard width >= 1, height >= 1 else {
            throw ValidationError("\(option) \(text): each side is 1 pixel or more, like \(example)")
        }
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, area <= most else {
            let side = Int(Double(most).squareRoot())
            throw ValidationError(
                "\(option) \(text): at most \(most / 1_000_000) million pixels (\(side)x\(side), say)")
        }
        return PixelSize(width: width, height: height)
    }
}
