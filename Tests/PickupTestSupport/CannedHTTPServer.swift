import Foundation

/// A TCP server on 127.0.0.1 that reads a request's headers and answers every
/// connection with the same bytes — well-formed or not — then closes (or,
/// with `hold`, keeps the connection open and says nothing more). For testing
/// how a client copes with servers that misbehave.
///
/// `@unchecked Sendable` is safe: after `init` only `stop()` touches shared
/// state (`stopped`, under `lock`); the listening descriptor never changes.
public final class CannedHTTPServer: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private let answer: [UInt8]
    private let hold: Bool
    private let lock = NSLock()
    private var stopped = false

    public init(answer: [UInt8], hold: Bool = false) throws {
        self.answer = answer
        self.hold = hold
        (listener, port) = try Loopback.open(backlog: 16, what: "the canned server")
        Thread.detachNewThread { [self] in
            Loopback.acceptConnections(on: listener) { client in
                Thread.detachNewThread { [self] in respond(client) }
            }
        }
    }

    public convenience init(_ text: String, hold: Bool = false) throws {
        try self.init(answer: Array(text.utf8), hold: hold)
    }

    deinit { stop() }

    public var url: URL? { URL(string: "http://127.0.0.1:\(port)/files") }

    public func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
        }
    }

    private func respond(_ client: Int32) {
        // Read up to the end of the request's headers (a body, if any, is ignored).
        var seen: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !seen.suffix(4).elementsEqual([13, 10, 13, 10]) {
            let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            seen += buffer[0..<n]
            if seen.count > 1 << 20 { break }
        }
        var sent = 0
        while sent < answer.count {
            let n = answer.withUnsafeBytes {
                send(client, $0.baseAddress.map { $0 + sent }, answer.count - sent, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { break }
            sent += n
        }
        if hold {
            // Say nothing more until the client gives up.
            while buffer.withUnsafeMutableBytes({ recv(client, $0.baseAddress, $0.count, 0) }) > 0 {}
        }
        close(client)
    }
}
