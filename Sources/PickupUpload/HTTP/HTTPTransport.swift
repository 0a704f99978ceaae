import Foundation
import Pickup

/// What sends Pickup's HTTP requests: URLSession on Apple platforms (`URLSessionTransport`),
/// AsyncHTTPClient on Linux (`PickupHTTP`'s `AsyncHTTPTransport`). The upload protocols
/// (tus, S3, form) speak to it alone, so an iOS app never pulls in the Linux stack.
///
/// A transport streams file bodies from the file, follows no redirect (credentials never
/// leave the host they were given for), reads at most `limits.maxResponseBytes` of an
/// answer, gives up at `limits.deadline`, and throws `UploadError` (`.network` for a
/// connection that failed or stalled, `.certificate` for a certificate not trusted).
public protocol HTTPTransport: Sendable {
    /// Sends a request and returns the answer, within `limits`.
    func send(_ request: HTTPRequest, limits: HTTPLimits) async throws(UploadError) -> HTTPResponse
}

/// The bounds every request is held to.
public struct HTTPLimits: Sendable, Hashable {
    /// Seconds without progress after which a request counts as stalled, at most: a link
    /// that was moving is judged from its own recent pace, sooner (see `StallRule`).
    public var stall: Double
    /// Seconds the whole exchange may take, at most.
    public var deadline: Double
    /// Bytes of an answer's body read, at most: a longer answer is an error.
    public var maxResponseBytes: Int

    /// Bounds: a stall ceiling and a deadline in seconds, and the longest answer in bytes.
    public init(
        stall: Double = UploadOptions.defaultStallTimeout, deadline: Double = 600, maxResponseBytes: Int = 4 << 20
    ) {
        self.stall = stall
        self.deadline = deadline
        self.maxResponseBytes = maxResponseBytes
    }
}

/// The transport uploads use when none is given: URLSession on Apple platforms, until a
/// program installs another. On Linux a program installs one (the `pickup` tool installs
/// `PickupHTTP`'s `AsyncHTTPTransport`); before that, every request fails and says so.
public enum HTTPTransports {
    private static let installed = LockedValue<(any HTTPTransport)?>(nil)

    /// Makes `transport` the one every upload without its own uses from now on.
    public static func install(_ transport: any HTTPTransport) { installed.withValue { $0 = transport } }

    /// The transport in use.
    public static var current: any HTTPTransport {
        #if canImport(Darwin)
            installed.current ?? URLSessionTransport.shared
        #else
            installed.current ?? NoTransport()
        #endif
    }
}

/// Where no transport is installed and the platform has none of its own.
struct NoTransport: HTTPTransport {
    func send(_ request: HTTPRequest, limits: HTTPLimits) async throws(UploadError) -> HTTPResponse {
        throw UploadError(
            .network,
            "no HTTP transport is installed: add PickupHTTP and call "
                + "HTTPTransports.install(AsyncHTTPTransport.shared), or give UploadOptions a transport")
    }
}
