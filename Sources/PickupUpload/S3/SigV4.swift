import Foundation
import PickupStore

/// AWS Signature Version 4 for S3 requests: canonical request, string to
/// sign, derived signing key, `Authorization` header.
enum SigV4 {
    /// RFC 3986 encoding: unreserved characters kept, everything else `%XX`;
    /// `/` kept when `path` is true.
    static func encode(_ text: String, path: Bool = false) -> String {
        var out = ""
        for byte in text.utf8 {
            let char = Character(UnicodeScalar(byte))
            if char.isASCII && (char.isLetter || char.isNumber) || "-._~".contains(char) || (path && char == "/") {
                out.append(char)
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// `20261129T153000Z` and `20261129` for `date`.
    static func stamps(_ date: Date) -> (amz: String, day: String) {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let day = String(format: "%04d%02d%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
        return (day + String(format: "T%02d%02d%02dZ", Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)), day)
    }

    /// Signs `request` (whose URL was built from `encodedPath` and `query`), setting
    /// `x-amz-date`, `x-amz-content-sha256`, the session token and `Authorization`.
    static func sign(
        _ request: inout HTTPRequest, encodedPath: String, query: [(String, String)], payloadHash: String,
        credentials: S3Credentials, date: Date = Date()
    ) {
        let (amz, day) = stamps(date)
        request.set("x-amz-date", amz)
        request.set("x-amz-content-sha256", payloadHash)
        if let token = credentials.sessionToken { request.set("x-amz-security-token", token) }
        var headers: [(String, String)] = [("host", request.hostHeader)]
        for (name, value) in request.headers {
            let lower = name.lowercased()
            if lower.hasPrefix("x-amz-") || lower == "content-type" || lower == "content-md5" {
                headers.append((lower, value.trimmingCharacters(in: .whitespaces)))
            }
        }
        headers.sort { $0.0 < $1.0 }
        let signedHeaders = headers.map(\.0).joined(separator: ";")
        let canonicalQuery = query.map { (encode($0.0), encode($0.1)) }.sorted { $0 < $1 }.map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
        let canonical = [
            request.method, encodedPath, canonicalQuery,
            headers.map { "\($0.0):\($0.1)\n" }.joined(), signedHeaders, payloadHash,
        ].joined(separator: "\n")
        let scope = "\(day)/\(credentials.region)/s3/aws4_request"
        let signature = sign(canonical: canonical, amz: amz, day: day, credentials: credentials)
        request.set(
            "Authorization",
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKey)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"
        )
    }

    /// The signature of a canonical request: string to sign, derived key, HMAC.
    private static func sign(canonical: String, amz: String, day: String, credentials: S3Credentials) -> String {
        let scope = "\(day)/\(credentials.region)/s3/aws4_request"
        let toSign = ["AWS4-HMAC-SHA256", amz, scope, Digest.hex(Digest.sha256(Array(canonical.utf8)))]
            .joined(separator: "\n")
        var key = Digest.hmacSHA256(key: Array(("AWS4" + credentials.secretKey).utf8), data: Array(day.utf8))
        for part in [credentials.region, "s3", "aws4_request"] {
            key = Digest.hmacSHA256(key: key, data: Array(part.utf8))
        }
        return Digest.hex(Digest.hmacSHA256(key: key, data: Array(toSign.utf8)))
    }

    /// A presigned URL (query-string authentication, `UNSIGNED-PAYLOAD`): what an app's
    /// backend hands out so that a client can make one request without credentials.
    static func presign(
        method: String, location: S3Location, query: [(String, String)], credentials: S3Credentials,
        expires: Int, date: Date = Date()
    ) -> URL? {
        let (amz, day) = stamps(date)
        let path = "/" + encode(location.bucket) + "/" + encode(location.key, path: true)
        var parameters =
            query + [
                ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"),
                ("X-Amz-Credential", "\(credentials.accessKey)/\(day)/\(credentials.region)/s3/aws4_request"),
                ("X-Amz-Date", amz), ("X-Amz-Expires", String(expires)), ("X-Amz-SignedHeaders", "host"),
            ]
        if let token = credentials.sessionToken { parameters.append(("X-Amz-Security-Token", token)) }
        let canonicalQuery = parameters.map { (encode($0.0), encode($0.1)) }.sorted { $0 < $1 }
            .map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        var host = location.endpoint.host ?? ""
        if let port = location.endpoint.port { host += ":\(port)" }
        let canonical = [method, path, canonicalQuery, "host:\(host)\n", "host", "UNSIGNED-PAYLOAD"]
            .joined(separator: "\n")
        let signature = sign(canonical: canonical, amz: amz, day: day, credentials: credentials)
        let base = location.endpoint.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        return URL(string: base + path + "?" + canonicalQuery + "&X-Amz-Signature=" + signature)
    }
}
