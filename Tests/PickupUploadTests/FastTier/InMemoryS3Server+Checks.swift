import Foundation
import PickupStore
import PickupUpload

/// What `InMemoryS3Server` checks of a request, written apart from the library's `SigV4` so
/// that a mistake in one is not repeated in the other: the signature, the payload's digest, and
/// the few XML texts the store reads and writes.
enum S3Checks {
    /// Why S3 would refuse the request's authorization, as a status and an error code; nil when
    /// it signs right. Header-based SigV4
    /// (https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html): the
    /// `Authorization` header is "AWS4-HMAC-SHA256 Credential=<key>/<date>/<region>/s3/aws4_request,
    /// SignedHeaders=…, Signature=…"; the canonical request is the method, the URI-encoded path,
    /// the query sorted by name, the signed headers (lowercase names, trimmed values, each ending
    /// in a newline), the signed header names, and the payload's hash; "host" and every `x-amz-*`
    /// header sent must be signed. A presigned request (`X-Amz-Signature` in the query) is taken
    /// as it comes.
    static func authorizationProblem(
        _ request: HTTPRequest, credentials: S3Credentials
    ) -> (status: Int, code: String)? {
        if query(of: request.url)["X-Amz-Signature"] != nil { return nil }
        guard let header = request.value("Authorization"), header.hasPrefix("AWS4-HMAC-SHA256 ") else {
            return (403, "AccessDenied")
        }
        var fields: [String: String] = [:]
        for item in header.dropFirst("AWS4-HMAC-SHA256 ".count).split(separator: ",") {
            let pair = item.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        guard let credential = fields["Credential"], let signed = fields["SignedHeaders"],
            let signature = fields["Signature"], let date = request.value("x-amz-date")
        else { return (400, "AuthorizationHeaderMalformed") }
        let scope = credential.split(separator: "/").map(String.init)
        guard scope.count == 5, scope[3] == "s3", scope[4] == "aws4_request", date.hasPrefix(scope[1]) else {
            return (400, "AuthorizationHeaderMalformed")
        }
        guard scope[0] == credentials.accessKey else { return (403, "InvalidAccessKeyId") }
        guard scope[2] == credentials.region else { return (400, "AuthorizationHeaderMalformed") }
        let names = signed.split(separator: ";").map(String.init)
        let sent = request.headers.map { $0.0.lowercased() }.filter { $0.hasPrefix("x-amz-") }
        guard names.contains("host"), sent.allSatisfy(names.contains) else { return (403, "AccessDenied") }
        var canonicalHeaders = ""
        for name in names {
            guard let value = name == "host" ? request.hostHeader : request.value(name) else {
                return (403, "SignatureDoesNotMatch")
            }
            canonicalHeaders += name + ":" + value.trimmingCharacters(in: .whitespaces) + "\n"
        }
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let canonical = [
            request.method, components?.percentEncodedPath ?? "/", canonicalQuery(of: request.url),
            canonicalHeaders, signed, request.value("x-amz-content-sha256") ?? "UNSIGNED-PAYLOAD",
        ].joined(separator: "\n")
        let toSign = [
            "AWS4-HMAC-SHA256", date, scope[1...4].joined(separator: "/"),
            Digest.hex(Digest.sha256(Array(canonical.utf8))),
        ].joined(separator: "\n")
        var key = Array(("AWS4" + credentials.secretKey).utf8)
        for part in scope[1...4] { key = Digest.hmacSHA256(key: key, data: Array(part.utf8)) }
        let expected = Digest.hex(Digest.hmacSHA256(key: key, data: Array(toSign.utf8)))
        return expected == signature ? nil : (403, "SignatureDoesNotMatch")
    }

    /// The query as SigV4 signs it: each name and value URI-encoded ("Do not URI-encode any of the
    /// unreserved characters that RFC 3986 defines: A-Z, a-z, 0-9, hyphen, underscore, period, and
    /// tilde"), `name=` for a name without a value, sorted by name.
    static func canonicalQuery(of url: URL) -> String {
        let pairs = (URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "")
            .split(separator: "&").map { item -> (String, String) in
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(pair[0]).removingPercentEncoding ?? String(pair[0])
                let value = pair.count > 1 ? (String(pair[1]).removingPercentEncoding ?? String(pair[1])) : ""
                return (uriEncode(name), uriEncode(value))
            }
        return pairs.sorted { $0 < $1 }.map { $0.0 + "=" + $0.1 }.joined(separator: "&")
    }

    /// The query's items by name, percent-decoded; a name without a value maps to "".
    static func query(of url: URL) -> [String: String] {
        var items: [String: String] = [:]
        for item in (URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "")
            .split(separator: "&")
        {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0]).removingPercentEncoding ?? String(pair[0])
            items[name] = pair.count > 1 ? (String(pair[1]).removingPercentEncoding ?? String(pair[1])) : ""
        }
        return items
    }

    private static func uriEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                out.append(Character(UnicodeScalar(byte)))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// Whether `text` is a SHA-256 in hex (not UNSIGNED-PAYLOAD or a streaming marker).
    static func isHexDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { Character(UnicodeScalar($0)).isHexDigit }
    }

    static func sha256(_ data: Data) -> String {
        let hasher = DigestHasher()
        data.withUnsafeBytes { hasher.update($0) }
        return hasher.finalizeHex()
    }

    /// An ETag for bytes: quoted hex. "The entity tag is a hash of the object ... The ETag may
    /// or may not be an MD5 digest of the object data" (API_Object.html, `ETag`): this store
    /// uses the first 128 bits of the SHA-256, so that a client never relies on it being an MD5.
    static func etag(of data: Data) -> String { "\"" + sha256(data).prefix(32) + "\"" }

    /// An ETag without its quotes: S3 lists them quoted (`&quot;…&quot;`) and takes them either way.
    static func unquoted(_ etag: String) -> String { etag.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }

    /// The texts inside each `<tag>…</tag>`, in order (the store's XML is flat and machine-written).
    static func elements(_ tag: String, in text: String) -> [String] {
        var found: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "<\(tag)>"),
            let close = rest.range(of: "</\(tag)>", range: open.upperBound..<rest.endIndex)
        {
            found.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return found
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
