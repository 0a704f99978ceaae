/// A run of bytes inside a file: where it starts, and how many.
public struct ByteRange: Sendable, Hashable, Codable {
    /// The first byte's offset in the file.
    public var offset: Int64
    /// How many bytes.
    public var length: Int64

    /// The `length` bytes from `offset`.
    public init(offset: Int64, length: Int64) {
        self.offset = offset
        self.length = length
    }

    /// Whether every byte lies in a file of `size` bytes, and there is at least one.
    public func fits(in size: Int64) -> Bool {
        offset >= 0 && length > 0 && offset <= size && length <= size - offset
    }
}
