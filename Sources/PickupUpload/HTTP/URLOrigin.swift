import Foundation

extension URL {
    /// Whether `other` has this URL's origin: scheme, host and port (the scheme's default when
    /// none is given), compared without case. Credentials given for one origin go nowhere else.
    func hasSameOrigin(as other: URL) -> Bool {
        func port(_ url: URL) -> Int { url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80) }
        return scheme?.lowercased() == other.scheme?.lowercased() && host?.lowercased() == other.host?.lowercased()
            && port(self) == port(other)
    }

    /// What is wrong with this URL's port, when it names one that is no port (past 65535, or
    /// 0): said before any request, as AsyncHTTPClient traps on one (NIO's `SocketAddress`).
    /// A typo in `--to`, or a hostile server's `Location`.
    package var portProblem: String? {
        guard let port, !(1...65535).contains(port) else { return nil }
        return "\(redacted(absoluteString)) names port \(port); a port is a number from 1 to 65535"
    }
}
