import NIOCore
import NIOSSL

/// The check swift-nio-ssl leaves out: a certificate that names only IP addresses passes
/// its identity check for any host name, as long as it names the address connected to
/// (RFC 6125 matches IP SANs against the socket's address). An impostor that answers for
/// a name (a rogue hotspot's DNS) with a trusted certificate for its own IP would get the
/// request and its `Authorization`. When the URL names a host, its certificate must name
/// that host: a DNS name of its subject alternative names (a `*.` wildcard standing for
/// one label). A common name alone is not enough (as browsers have it since 2017).
enum CertificateHostCheck {
    /// The connection's certificate does not name the host of the URL.
    struct Mismatch: Error, Sendable {
        let host: String
        let names: [String]
    }

    /// Fails unless the certificate of `channel`'s TLS connection names `host`.
    static func check(_ channel: any Channel, host: String) -> EventLoopFuture<Void> {
        channel.nioSSL_peerCertificate().flatMapThrowing { certificate in
            guard let certificate else { throw Mismatch(host: host, names: []) }
            let names = dnsNames(certificate)
            guard names.contains(where: { matches(host: host, name: $0) }) else {
                throw Mismatch(host: host, names: names)
            }
        }
    }

    /// The DNS names of the certificate's subject alternative names.
    static func dnsNames(_ certificate: NIOSSLCertificate) -> [String] {
        certificate._subjectAlternativeNames().filter { $0.nameType == .dnsName }.map {
            String(decoding: Array($0.contents), as: UTF8.self)
        }
    }

    /// Whether certificate name `name` covers `host` (case-insensitive; a trailing dot
    /// ignored; `*.example.com` covers `a.example.com`, not `example.com` or `a.b.example.com`).
    static func matches(host: String, name: String) -> Bool {
        let host = host.lowercased().trimmingSuffix(".")
        let name = name.lowercased().trimmingSuffix(".")
        guard !host.isEmpty, !name.isEmpty else { return false }
        if name.hasPrefix("*.") {
            let base = name.dropFirst(2)
            guard let dot = host.firstIndex(of: "."), !base.contains("*") else { return false }
            return host[host.index(after: dot)...] == base && host[..<dot].count > 0
        }
        return !name.contains("*") && host == name
    }

    /// Whether `host` is an IP address (v4, or v6 with or without brackets): those are left
    /// to swift-nio-ssl, which matches them against the address connected to.
    static func isIPAddress(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare.contains(":") { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in UInt8(part) != nil }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
