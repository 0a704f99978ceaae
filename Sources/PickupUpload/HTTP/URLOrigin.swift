import Foundation

extension URL {
    /// Whether `other` has this URL's origin: scheme, host and port (the scheme's default when
    /// none is given), compared without case. Credentials given for one origin go nowhere else.
    func hasSameOrigin(as other: URL) -> Bool {
        func port(_ url: URL) -> Int { url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80) }
        return scheme?.lowercased() == other.scheme?.lowercased() && host?.lowercased() == other.host?.lowercased()
            && port(self) == port(other)
    }
}
