import PickupHTTP
import PickupUpload
import Testing

#if canImport(URLSessionTransportLinux)
    import URLSessionTransportLinux
#endif

/// The HTTP transports the network suites run through, as a test argument: `asyncHTTP`,
/// AsyncHTTPClient (what the `pickup` tool uses on Linux), and on Linux `urlSession`, the
/// iPhone's `URLSessionTransport` through FoundationNetworking (its file compiled a second
/// time in the test-only target `URLSessionTransportLinux`).
enum Transport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case asyncHTTP
    #if canImport(URLSessionTransportLinux)
        case urlSession
    #endif

    /// The transports that can be given the tests' own certificate authority. Not
    /// FoundationNetworking's URLSession: it sets libcurl's CA file to the system's
    /// `/etc/ssl/certs/ca-certificates.crt` for every request and offers no way to add one
    /// (no per-session trust, no server-trust challenge), so its https cases would need the
    /// machine's store changed. Apple's URLSession takes a CA through the server-trust challenge.
    static let trustingTestCA: [Transport] = [.asyncHTTP]

    /// A new transport of this kind; `caFile`: a certificate authority to trust besides the
    /// system's (only for `trustingTestCA`).
    func make(caFile: String? = nil) -> any HTTPTransport {
        switch self {
        case .asyncHTTP: return AsyncHTTPTransport(caFile: caFile)
        #if canImport(URLSessionTransportLinux)
            case .urlSession: return URLSessionTransport()
        #endif
        }
    }

    var testDescription: String { rawValue }
}
