import Foundation

/// What a request sends after its headers. File bodies are streamed from the
/// file (never loaded whole); `parts` joins pieces, as a form upload does.
public enum HTTPBody: Sendable {
    /// No body.
    case none
    /// Bytes in memory (small: a tus creation, an S3 completion).
    case data(Data)
    /// Bytes of a file, streamed from it.
    case file(SourceFile, offset: Int64, length: Int64)
    /// Several bodies, one after the other.
    case parts([HTTPBody])

    /// The body's length in bytes.
    public var length: Int64 {
        switch self {
        case .none: return 0
        case .data(let data): return Int64(data.count)
        case .file(_, _, let length): return length
        case .parts(let parts): return parts.reduce(0) { $0 + $1.length }
        }
    }

    /// Where the body's bytes from files lie: the bytes before the first of them, and their
    /// count (nil: none come from a file).
    var fileSpan: (leading: Int64, count: Int64)? {
        switch self {
        case .none, .data: return nil
        case .file(_, _, let length): return (0, length)
        case .parts(let parts):
            var leading: Int64 = 0
            for (index, part) in parts.enumerated() {
                if let inner = part.fileSpan {
                    let count = parts[(index + 1)...].reduce(inner.count) { $0 + ($1.fileSpan?.count ?? 0) }
                    return (leading + inner.leading, count)
                }
                leading += part.length
            }
            return nil
        }
    }

    /// The body in memory: for transports that cannot stream from a file (URLSession).
    public func materialized() throws(UploadError) -> Data {
        switch self {
        case .none: return Data()
        case .data(let data): return data
        case .file(let source, let offset, let length): return try source.read(at: offset, count: Int(length))
        case .parts(let parts):
            var data = Data()
            for part in parts { data.append(try part.materialized()) }
            return data
        }
    }
}

/// One HTTP request. Header names keep their case; they are compared without it.
public struct HTTPRequest: Sendable {
    /// The method, such as "PATCH".
    public var method: String
    /// The address.
    public var url: URL
    /// The headers, in order; names keep their case.
    public var headers: [(String, String)] = []
    /// What is sent after the headers.
    public var body: HTTPBody = .none
    /// Told the bytes of `body` handed to the network so far, as they go, by a transport that
    /// can tell, from any thread. A transport may still tell a little after `send` returned (it
    /// ended the exchange early, and writes already under way report): a caller ignores those.
    /// nil: nobody asks.
    public var onBodyBytesSent: (@Sendable (Int64) -> Void)?

    /// A request with its method, address, headers and body.
    public init(_ method: String, _ url: URL, headers: [(String, String)] = [], body: HTTPBody = .none) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Sets a header, replacing any of that name.
    public mutating func set(_ name: String, _ value: String) {
        headers.removeAll { $0.0.caseInsensitiveCompare(name) == .orderedSame }
        headers.append((name, value))
    }

    /// A header's value (the name is compared without case).
    public func value(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }

    /// `host` or `host:port` as the `Host` header and SigV4 want it.
    public var hostHeader: String {
        let host = url.host ?? ""
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return url.port.map { "\(bracketed):\($0)" } ?? bracketed
    }
}

/// A server's answer: status, headers (names lowercased, repeats joined with ", "), body.
public struct HTTPResponse: Sendable {
    /// The status code, such as 204.
    public var status: Int
    /// The headers, names lowercased.
    public var headers: [String: String]
    /// The body, at most the limit's bytes.
    public var body: Data

    /// An answer with its status, headers and body.
    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A header's value (the name is compared without case).
    public func value(_ name: String) -> String? { headers[name.lowercased()] }
    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

extension HTTPResponse {
    /// The seconds of its `Retry-After` (a number of seconds, or an HTTP date), from `now`;
    /// nil when it has none, or one that is not a time.
    public func retryAfter(now: Date = Date()) -> Double? {
        guard let text = headers["retry-after"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return nil
        }
        if text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return Double(text.prefix(9))  // at most ~31 years: a number, never an overflow
        }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = format.date(from: text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
