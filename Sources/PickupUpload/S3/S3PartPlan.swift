import Foundation

extension Uploader {
    /// The part size for a file: at least 5 MiB (S3's minimum) and `preferred`,
    /// and large enough that 10,000 parts (S3's maximum) hold the whole file,
    /// rounded up to whole MiB.
    public static func partSize(for size: Int64, preferred: Int) -> Int64 {
        let mebibyte: Int64 = 1 << 20
        var part = max(5 * mebibyte, Int64(preferred))
        let needed = (size + 9_999) / 10_000
        if part < needed { part = (needed + mebibyte - 1) / mebibyte * mebibyte }
        return part
    }

    /// The listed parts that hold what this upload sends: one per number (the last
    /// listed), each of the size its number must have. A part cut off by a lost
    /// connection, which some stores keep, is sent again.
    static func usableParts(_ listed: [S3Part], _ partSize: Int64, _ size: Int64) -> [S3Part] {
        let count = max(1, Int((size + partSize - 1) / partSize))
        var byNumber: [Int: S3Part] = [:]
        for part in listed where (1...count).contains(part.number) {
            let expected = min(partSize, size - Int64(part.number - 1) * partSize)
            if part.size == expected { byNumber[part.number] = part }
        }
        return byNumber.values.sorted { $0.number < $1.number }
    }
}
