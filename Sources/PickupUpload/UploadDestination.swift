import Foundation

/// Where one file goes, and by which protocol: what the command line, the queue
/// and the journal all speak. `Codable`: the journal keeps it as JSON, with no
/// credential, header, user, password or query in it.
public enum UploadDestination: Sendable, Hashable, Codable {
    /// A tus 1.0 endpoint: the upload is created there.
    case tus(endpoint: URL)
    /// An S3 object, its requests signed with the uploader's `s3Credentials`.
    case s3(S3Location)
    /// An S3 object, its requests presigned by the uploader's `s3Signer` (an app's backend).
    case s3Presigned(S3Location)
    /// A web form that takes the file in one `multipart/form-data` POST.
    case form(FormTarget)

    /// How it is shown and logged, as `pickup upload --to` takes it: `tus+https://...`,
    /// `s3://bucket/key at https://store`, or a form's `https://...`; no credentials, query or
    /// fragment.
    public var displayName: String {
        switch self {
        case .tus(let endpoint): return "tus+" + redacted(endpoint.absoluteString)
        case .s3(let location), .s3Presigned(let location): return location.displayName
        case .form(let form): return redacted(form.url.absoluteString)
        }
    }

    /// Whether it is a tus server's (the one kind that carries ``UploadRecord/metadata``).
    var isTusUpload: Bool { if case .tus = self { true } else { false } }

    /// The URL a server was given as, for tus and forms (whose query may hold a token).
    var url: URL? {
        switch self {
        case .tus(let endpoint): return endpoint
        case .form(let form): return form.url
        case .s3, .s3Presigned: return nil
        }
    }

    /// The same destination at `url` (a tus endpoint or form given again); S3 is unchanged.
    func moved(to url: URL) -> UploadDestination {
        switch self {
        case .tus: return .tus(endpoint: url)
        case .form(var form):
            form.url = url
            return .form(form)
        case .s3, .s3Presigned: return self
        }
    }

    /// Whether `url`, given again to resume an upload (for the query, a token, that the journal
    /// does not keep), names this same place: its endpoint or form URL, the query aside, however
    /// written (scheme and host in any case, the default port or none, with or without the
    /// trailing slash, `~` or `%7E`, `/a/../files`). A URL elsewhere would send the file where the
    /// journal does not say it went, with the credentials of the place it names. An S3 upload has
    /// no URL to give again: any is refused, not passed over.
    package func isSamePlace(as url: URL) -> Bool {
        switch self {
        case .s3, .s3Presigned: return false
        case .tus, .form:
            guard let own = UploadDestination.place(stored.url),
                let given = UploadDestination.place(moved(to: url).stored.url)
            else { return false }
            return own == given
        }
    }

    /// A tus endpoint's or form URL's place as one text: scheme, host, port and path, the path's
    /// dot segments resolved, its escapes of unreserved characters decoded (RFC 3986, 6.2.2.2) and
    /// the others in upper case, without its trailing slash (a root's path is `/`).
    static func place(_ url: URL?) -> String? {
        guard let url, let parts = URLComponents(url: url.standardized, resolvingAgainstBaseURL: false) else {
            return nil
        }
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        var path: [UInt8] = []
        var bytes = Array(parts.percentEncodedPath.utf8)[...]
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "%"), bytes.count >= 2,
                let value = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16)
            else {
                path.append(byte)
                continue
            }
            bytes = bytes.dropFirst(2)
            if unreserved.contains(value) {
                path.append(value)
            } else {
                path += Array(String(format: "%%%02X", value).utf8)
            }
        }
        while path.count > 1, path.last == UInt8(ascii: "/") { path.removeLast() }
        if path.isEmpty { path = [UInt8(ascii: "/")] }
        return "\(parts.scheme ?? "")://\(parts.host ?? ""):\(parts.port.map(String.init) ?? "")"
            + String(decoding: path, as: UTF8.self)
    }

    /// Whether sending to it replaces what is there under the same name: an S3 key (a tus
    /// upload is a new resource each time; a form's server names what it keeps).
    var replacesObject: Bool {
        switch self {
        case .s3, .s3Presigned: return true
        case .tus, .form: return false
        }
    }

    /// What the journal keeps: URLs without user, password, query or fragment.
    /// Its URLs are also written one way: scheme and host in lower case, no default port
    /// (`https://Example.com:443/files` is kept as `https://example.com/files`).
    var stored: UploadDestination {
        func clean(_ url: URL) -> URL { UploadDestination.canonical(URL(string: redacted(url.absoluteString)) ?? url) }
        switch self {
        case .tus(let endpoint): return .tus(endpoint: clean(endpoint))
        case .form(var form):
            form.url = clean(form.url)
            form.headers = [:]
            return .form(form)
        case .s3(var location):
            location.endpoint = clean(location.endpoint)
            return .s3(location)
        case .s3Presigned(var location):
            location.endpoint = clean(location.endpoint)
            return .s3Presigned(location)
        }
    }

    /// `url` with its scheme and host in lower case and without the scheme's default port.
    static func canonical(_ url: URL) -> URL {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        parts.scheme = parts.scheme?.lowercased()
        parts.host = parts.host?.lowercased()
        if (parts.scheme == "https" && parts.port == 443) || (parts.scheme == "http" && parts.port == 80) {
            parts.port = nil
        }
        return parts.url ?? url
    }

    /// The same stored destination with its tus endpoint's or form URL's trailing slash added or
    /// taken away (`…/files` and `…/files/` name one endpoint): the journal looks for both
    /// when it decides whether a file is already there, or an upload to continue. Nil for S3,
    /// and for a URL with no path to change.
    var twin: UploadDestination? { UploadDestination.twin(ofStored: stored) }

    /// `twin` of a destination that is already `stored` (not stored again: a run's lookups
    /// ask it for every file).
    static func twin(ofStored stored: UploadDestination) -> UploadDestination? {
        func toggled(_ url: URL) -> URL? {
            guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false), parts.path.count > 1 else {
                return nil
            }
            parts.path = parts.path.hasSuffix("/") ? String(parts.path.dropLast()) : parts.path + "/"
            return parts.url
        }
        switch stored {
        case .tus(let endpoint): return toggled(endpoint).map { .tus(endpoint: $0) }
        case .form(var form):
            guard let url = toggled(form.url) else { return nil }
            form.url = url
            return .form(form)
        case .s3, .s3Presigned: return nil
        }
    }

    /// Whether storing it drops a query (a token, say) that a resume must be given again.
    var losesQuery: Bool { url.map { !($0.query ?? "").isEmpty } ?? false }

    /// Reads what journals made before destinations were stored as JSON kept:
    /// `s3+http://host/bucket/key`, `form+https://...`, or a tus endpoint.
    init?(legacyTarget target: String) {
        if target.hasPrefix("s3+") {
            guard let location = S3Location(legacyTarget: target) else { return nil }
            self = .s3(location)
        } else if target.hasPrefix("form+") {
            guard let url = URL(string: String(target.dropFirst(5))) else { return nil }
            self = .form(FormTarget(url: url))
        } else {
            let plain =
                target.hasSuffix(UploadJournal.queryNotStored)
                ? String(target.dropLast(UploadJournal.queryNotStored.count)) : target
            guard let url = URL(string: plain), url.host != nil else { return nil }
            self = .tus(endpoint: url)
        }
    }
}

extension S3Location {
    /// `s3://bucket/key at endpoint`, without credentials.
    public var displayName: String {
        "s3://\(bucket)/\(key) at " + redacted(endpoint.absoluteString)
    }

    /// Reads a target of a journal made before destinations were stored as JSON.
    init?(legacyTarget: String) {
        guard legacyTarget.hasPrefix("s3+"), let url = URL(string: String(legacyTarget.dropFirst(3))),
            let scheme = url.scheme, let host = url.host
        else { return nil }
        let parts = url.path.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2, let endpoint = URL(string: "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? ""))
        else { return nil }
        self.init(endpoint: endpoint, bucket: parts[0], key: parts[1])
    }
}
