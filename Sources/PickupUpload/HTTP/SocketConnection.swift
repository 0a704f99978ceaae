#if os(Linux)
    import Foundation
    import Glibc

    /// One TCP connection speaking HTTP/1.1 with blocking calls, for plain
    /// `http://` URLs on Linux. File bodies go out with `sendfile(2)` straight
    /// from the page cache, so memory stays flat; the kernel's send and receive
    /// timeouts turn a stalled peer into an error, and a cut connection fails
    /// at once (reset, or end of stream) instead of waiting out a timer.
    ///
    /// `@unchecked Sendable` is safe: a connection is used by one exchange at a
    /// time (the client takes it out of its pool for the exchange); `descriptor`
    /// never changes, and `interrupt()` — the only call from another thread —
    /// is `shutdown(2)`, which the kernel makes safe against a blocked `recv`.
    final class SocketConnection: @unchecked Sendable {
        let descriptor: Int32
        let key: String
        private var buffer = [UInt8](repeating: 0, count: 64 << 10)
        private var start = 0
        private var end = 0
        /// Bytes of an answer read on this connection, to tell a stale kept-alive
        /// connection (nothing came back) from a request the server saw.
        private(set) var answered = false
        private(set) var reusable = true

        init(host: String, port: Int, timeout: Double) throws(UploadError) {
            key = "\(host):\(port)"
            descriptor = try SocketConnection.open(host: host, port: port, timeout: timeout)
        }

        deinit { close(descriptor) }

        func interrupt() { shutdown(descriptor, Int32(SHUT_RDWR)) }

        /// Sends `request` and reads the answer.
        func exchange(_ request: HTTPRequest, what: String) throws(UploadError) -> HTTPResponse {
            answered = false
            var head = "\(request.method) \(SocketConnection.target(request.url)) HTTP/1.1\r\n"
            head += "Host: \(request.hostHeader)\r\n"
            for (name, value) in request.headers { head += "\(name): \(value)\r\n" }
            if request.method != "GET" && request.method != "HEAD" || request.body.length > 0 {
                head += "Content-Length: \(request.body.length)\r\n"
            }
            head += "\r\n"
            try write(Data(head.utf8), what: what)
            try write(request.body, what: what)
            return try readResponse(method: request.method, what: what)
        }

        // MARK: Writing

        private func write(_ body: HTTPBody, what: String) throws(UploadError) {
            switch body {
            case .none: return
            case .data(let data): try write(data, what: what)
            case .parts(let parts): for part in parts { try write(part, what: what) }
            case .file(let source, let offset, let length):
                // sendfile has no MSG_NOSIGNAL: a peer gone would raise SIGPIPE and end the
                // process. Block it on this thread for the call, and take a pending one back.
                var pipe = sigset_t()
                sigemptyset(&pipe)
                sigaddset(&pipe, SIGPIPE)
                var previous = sigset_t()
                pthread_sigmask(SIG_BLOCK, &pipe, &previous)
                defer {
                    var none = timespec(tv_sec: 0, tv_nsec: 0)
                    while sigtimedwait(&pipe, nil, &none) == SIGPIPE {}
                    pthread_sigmask(SIG_SETMASK, &previous, nil)
                }
                var position = off_t(offset)
                var left = length
                while left > 0 {
                    let sent = sendfile(descriptor, source.descriptor, &position, Int(min(left, 1 << 30)))
                    if sent < 0 {
                        if errno == EINTR { continue }
                        throw failure(errno, what)
                    }
                    if sent == 0 {
                        throw UploadError(.sourceUnreadable, "\(source.path) ended early: it changed during the upload")
                    }
                    left -= Int64(sent)
                }
            }
        }

        private func write(_ data: Data, what: String) throws(UploadError) {
            var failed: Int32 = 0
            data.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                var done = 0
                while done < raw.count {
                    let n = send(descriptor, base + done, raw.count - done, Int32(MSG_NOSIGNAL))
                    if n < 0 {
                        if errno == EINTR { continue }
                        failed = errno
                        return
                    }
                    done += n
                }
            }
            if failed != 0 { throw failure(failed, what) }
        }

        // MARK: Reading

        private func fill(what: String) throws(UploadError) -> Bool {
            if start == end {
                start = 0
                end = 0
            }
            if end == buffer.count {
                buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
                end -= start
                start = 0
            }
            while true {
                let count = buffer.count - end
                let n = buffer.withUnsafeMutableBytes { raw in
                    recv(descriptor, raw.baseAddress.map { $0 + end }, count, 0)
                }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw failure(errno, what)
                }
                if n == 0 { return false }
                answered = true
                end += n
                return true
            }
        }

        private func line(what: String) throws(UploadError) -> String {
            var scanned = start
            while true {
                while scanned < end {
                    if scanned - start > 32 << 10 {
                        throw UploadError(.server, "\(what): the server sent a header line over 32 KB")
                    }
                    if buffer[scanned] == 0x0A {
                        var stop = scanned
                        if stop > start && buffer[stop - 1] == 0x0D { stop -= 1 }
                        let text = String(decoding: buffer[start..<stop], as: UTF8.self)
                        start = scanned + 1
                        return text
                    }
                    scanned += 1
                }
                if end - start >= 32 << 10 {
                    throw UploadError(.server, "\(what): the server sent a header line over 32 KB")
                }
                let offset = scanned - start
                guard try fill(what: what) else {
                    throw UploadError(.network, "\(what) failed: the server closed the connection mid-answer")
                }
                scanned = start + offset
            }
        }

        private func bytes(_ count: Int, into body: inout Data, what: String) throws(UploadError) {
            var left = count
            while left > 0 {
                if start == end {
                    guard try fill(what: what) else {
                        throw UploadError(.network, "\(what) failed: the server closed the connection mid-answer")
                    }
                }
                let take = min(left, end - start)
                body.append(contentsOf: buffer[start..<(start + take)])
                start += take
                left -= take
            }
        }

        private func readResponse(method: String, what: String) throws(UploadError) -> HTTPResponse {
            let limit = 16 << 20
            while true {
                let statusLine = try line(what: what)
                let fields = statusLine.split(separator: " ", maxSplits: 2)
                guard fields.count >= 2, fields[0].hasPrefix("HTTP/1."), let status = Int(fields[1]) else {
                    throw UploadError(.server, "\(what): the server's answer is not HTTP ('\(statusLine.prefix(40))')")
                }
                var headers: [String: String] = [:]
                var headerBytes = 0
                while true {
                    let text = try line(what: what)
                    if text.isEmpty { break }
                    headerBytes += text.utf8.count
                    if headerBytes > 256 << 10 {
                        throw UploadError(.server, "\(what): the server sent over 256 KB of headers")
                    }
                    guard let colon = text.firstIndex(of: ":") else { continue }
                    let name = text[..<colon].lowercased()
                    let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    headers[name] = headers[name].map { $0 + ", " + value } ?? value
                }
                if (100..<200).contains(status) { continue }  // 100 Continue and the like: the answer follows
                let connection = headers["connection"]?.lowercased() ?? ""
                if connection.contains("close") || fields[0] == "HTTP/1.0" && !connection.contains("keep-alive") {
                    reusable = false
                }
                var body = Data()
                if method == "HEAD" || status == 204 || status == 304 {
                    return HTTPResponse(status: status, headers: headers, body: body)
                }
                if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
                    while true {
                        let sizeLine = try line(what: what)
                        guard
                            let size = Int(
                                sizeLine.split(separator: ";")[0].trimmingCharacters(in: .whitespaces), radix: 16),
                            size >= 0
                        else { throw UploadError(.server, "\(what): a chunked answer has a bad chunk size") }
                        if size == 0 {
                            while try !line(what: what).isEmpty {}  // trailers
                            break
                        }
                        guard body.count + size <= limit else {
                            throw UploadError(.server, "\(what): the server's answer is over 16 MB")
                        }
                        try bytes(size, into: &body, what: what)
                        _ = try line(what: what)
                    }
                } else if let text = headers["content-length"] {
                    guard let length = Int(text), length >= 0, length <= limit else {
                        throw UploadError(.server, "\(what): the server's answer has a bad or huge Content-Length")
                    }
                    try bytes(length, into: &body, what: what)
                } else {
                    reusable = false
                    while try fill(what: what) {
                        if end - start + body.count > limit {
                            throw UploadError(.server, "\(what): the server's answer is over 16 MB")
                        }
                        body.append(contentsOf: buffer[start..<end])
                        start = end
                    }
                    body.append(contentsOf: buffer[start..<end])
                    start = end
                }
                return HTTPResponse(status: status, headers: headers, body: body)
            }
        }

        // MARK: Connecting

        private func failure(_ code: Int32, _ what: String) -> UploadError {
            reusable = false
            if code == EAGAIN || code == EWOULDBLOCK {
                return UploadError(.network, "\(what) stalled: no progress within the timeout")
            }
            return UploadError(.network, "\(what) failed: \(String(cString: strerror(code)))")
        }

        /// The request target: the path and query as the URL spells them.
        static func target(_ url: URL) -> String {
            let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
            var path = components?.percentEncodedPath ?? "/"
            if path.isEmpty { path = "/" }
            if let query = components?.percentEncodedQuery { path += "?" + query }
            return path
        }

        private static func open(host: String, port: Int, timeout: Double) throws(UploadError) -> Int32 {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0, let first = list else {
                throw UploadError(.network, "cannot find the host \(host): \(String(cString: gai_strerror(status)))")
            }
            defer { freeaddrinfo(list) }
            var lastError: Int32 = ECONNREFUSED
            var entry: UnsafeMutablePointer<addrinfo>? = first
            while let address = entry {
                entry = address.pointee.ai_next
                let fd = socket(
                    address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
                    address.pointee.ai_protocol)
                if fd < 0 {
                    lastError = errno
                    continue
                }
                if let error = connect(fd, address.pointee, timeout: timeout) {
                    lastError = error
                    close(fd)
                    continue
                }
                configure(fd, timeout: timeout)
                return fd
            }
            let reason =
                lastError == ETIMEDOUT ? "timed out" : String(cString: strerror(lastError))
            throw UploadError(.network, "cannot connect to \(host):\(port): \(reason)")
        }

        /// Connects without blocking past `timeout`; returns the error, if any.
        private static func connect(_ fd: Int32, _ address: addrinfo, timeout: Double) -> Int32? {
            let flags = fcntl(fd, F_GETFL, 0)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            if Glibc.connect(fd, address.ai_addr, address.ai_addrlen) != 0 {
                guard errno == EINPROGRESS else { return errno }
                var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                var ready: Int32
                repeat { ready = poll(&poller, 1, Int32(timeout * 1000)) } while ready < 0 && errno == EINTR
                if ready == 0 { return ETIMEDOUT }
                if ready < 0 { return errno }
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                if error != 0 { return error }
            }
            _ = fcntl(fd, F_SETFL, flags)
            return nil
        }

        private static func configure(_ fd: Int32, timeout: Double) {
            var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
            let size = socklen_t(MemoryLayout<timeval>.size)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, size)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, size)
            var on: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, socklen_t(MemoryLayout<Int32>.size))
        }
    }
#endif
