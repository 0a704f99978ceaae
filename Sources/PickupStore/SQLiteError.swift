/// A failed SQLite call: what Pickup was doing, SQLite's code and message.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public let action: String

    public var description: String { "\(action) failed: \(message) (SQLite code \(code))" }
}
