import Foundation

/// A TCP proxy on 127.0.0.1 that stands between a client and a server and
/// behaves like a bad network: it cuts connections (both ways, at once) after
/// random numbers of request bytes, a set number of times, and can flip one
/// byte of the request stream at a set position. Everything else passes through.
///
/// `@unchecked Sendable` is safe: the mutable state (`cuts`, counters, open
/// sockets) is only touched under `lock`; the threads share nothing else.
public final class CuttingProxy: @unchecked Sendable {
    public let port: Int
    private let upstream: Int
    private let listener: Int32
    private let lock = NSLock()
    private var cutsLeft: Int
    private var cutsMade = 0
    private var forwarded = 0
    private var nextCut: Int
    private let gap: ClosedRange<Int>
    private var corruptAt: Int?
    private var corrupted = false
    private var open: Set<Int32> = []
    private var stopped = false

    /// Forwards to 127.0.0.1:`upstream`; cuts `cuts` times, each after a number of request
    /// bytes drawn from `gap`; flips the request byte at position `corruptAt` (counted over
    /// all connections), if given.
    public init(to upstream: Int, cuts: Int, gap: ClosedRange<Int>, corruptAt: Int? = nil) throws {
        self.upstream = upstream
        self.cutsLeft = cuts
        self.gap = gap
        self.nextCut = Int.random(in: gap)
        self.corruptAt = corruptAt
        (listener, port) = try Loopback.open(backlog: 64, what: "the proxy")
        Thread.detachNewThread { [self] in Loopback.acceptConnections(on: listener) { forward($0) } }
    }

    deinit { stop() }

    /// The cuts made so far.
    public var cuts: Int { lock.withLock { cutsMade } }
    /// Request bytes passed on so far, over all connections (headers included).
    public var forwardedBytes: Int { lock.withLock { forwarded } }
    /// Whether the byte at `corruptAt` went through flipped.
    public var didCorrupt: Bool { lock.withLock { corrupted } }

    public func url(_ path: String) -> URL? { URL(string: "http://127.0.0.1:\(port)\(path)") }

    public func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    /// Connects a client to the upstream server and pumps both ways.
    private func forward(_ client: Int32) {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Loopback.address(port: upstream)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let admitted = lock.withLock {
            guard !stopped, connected == 0 else { return false }
            open.insert(client)
            open.insert(server)
            return true
        }
        guard admitted else {
            close(client)
            close(server)
            return
        }
        Thread.detachNewThread { [self] in pump(from: client, to: server, request: true) }
        Thread.detachNewThread { [self] in pump(from: server, to: client, request: false) }
    }

    /// Copies one direction until either side ends; the request direction counts bytes,
    /// cuts and corrupts. Whichever direction ends first closes both sockets.
    private func pump(from source: Int32, to sink: Int32, request: Bool) {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        loop: while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            var length = count
            var cut = false
            if request {
                lock.withLock {
                    if let position = corruptAt, position >= forwarded, position < forwarded + count {
                        buffer[position - forwarded] ^= 0xFF
                        corruptAt = nil
                        corrupted = true
                    }
                    if cutsLeft > 0, forwarded + count >= nextCut {
                        length = nextCut - forwarded
                        cut = true
                        cutsLeft -= 1
                        cutsMade += 1
                        nextCut += Int.random(in: gap)
                    }
                    forwarded += length
                }
            }
            var sent = 0
            while sent < length {
                let n = buffer.withUnsafeBytes {
                    send(sink, $0.baseAddress.map { $0 + sent }, length - sent, Int32(MSG_NOSIGNAL))
                }
                if n <= 0 { break loop }
                sent += n
            }
            if cut { break }
        }
        lock.withLock {
            // The first direction to end closes both sockets; the other finds them gone.
            guard open.contains(source) || open.contains(sink) else { return }
            shutdown(source, Int32(SHUT_RDWR))
            shutdown(sink, Int32(SHUT_RDWR))
            open.remove(source)
            open.remove(sink)
        }
        // Both pumps of a pair are past their last call on these sockets once each got here;
        // the one arriving second closes them.
        closeWhenBothDone(source, sink)
    }

    private var finished: Set<Int32> = []

    private func closeWhenBothDone(_ a: Int32, _ b: Int32) {
        let last = lock.withLock {
            if finished.contains(a) || finished.contains(b) {
                finished.remove(a)
                finished.remove(b)
                return true
            }
            finished.insert(a)
            return false
        }
        if last {
            close(a)
            close(b)
        }
    }
}
