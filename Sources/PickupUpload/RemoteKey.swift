import Pickup

/// The name a file gets at its destination (an S3 key), from a template such as
/// `photos/{date}/{name}`, and the rule that two sources never land on one name.
///
/// Placeholders: `{name}` the file's name, `{stem}` without its extension, `{ext}` the
/// extension without its dot (`JPG`), `{relpath}` the path relative to what was named (the name, for a file named
/// itself), `{date}` the day the media was taken (`YYYY/MM/DD`, `undated` when it says
/// none), `{id}` the library item's id (else the first 12 hex digits of the SHA-256), and
/// `{sha256}`.
public struct RemoteKey: Sendable, Hashable {
    /// What a template may name about one source file.
    public struct Facts: Sendable, Hashable {
        /// The file's path relative to what was named on the command line (its name, for a file named itself).
        public var relativePath: String
        /// When the media was taken, if it says.
        public var taken: MediaDate?
        /// The library item's id, when it came from a library.
        public var itemID: String?
        /// The file's SHA-256 in lowercase hex, when known.
        public var sha256: String?

        /// What a template may name about one file.
        public init(relativePath: String, taken: MediaDate? = nil, itemID: String? = nil, sha256: String? = nil) {
            self.relativePath = relativePath
            self.taken = taken
            self.itemID = itemID
            self.sha256 = sha256
        }
    }

    /// The placeholders a template may use, without their braces.
    public static let placeholders = ["name", "stem", "ext", "relpath", "date", "id", "sha256"]

    /// The template, as given.
    public let template: String
    private let parts: [Part]

    private enum Part: Sendable, Hashable {
        case text(String)
        case placeholder(String)
    }

    /// Parses a template; nil with the reason when it names an unknown placeholder or
    /// leaves a brace open.
    public static func parse(_ template: String) -> Result<RemoteKey, RemoteKeyError> {
        var parts: [Part] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                return .failure(RemoteKeyError(message: "the key template '\(template)' leaves a '{' open"))
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard placeholders.contains(name) else {
                return .failure(
                    RemoteKeyError(
                        message: "the key template names {\(name)}; it can use "
                            + placeholders.map { "{\($0)}" }.joined(separator: ", ")))
            }
            parts.append(.placeholder(name))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        // A key is a name, not a path to walk: a store takes '..' as it is, or refuses it, or
        // folds it away (another key than the journal's), as it does a leading or a double slash.
        let segments = template.split(separator: "/", omittingEmptySubsequences: false)
        if template.hasPrefix("/") {
            return .failure(
                RemoteKeyError(
                    message: "the key template '\(template)' begins with '/': the key follows the prefix of --to, "
                        + "which ends with one already; leave it out"))
        }
        if let odd = segments.first(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
            return .failure(
                RemoteKeyError(
                    message: "the key template '\(template)' has \(odd.isEmpty ? "an empty part" : "a '\(odd)' part"): "
                        + "a key is stored as written, not walked as a path; write it as it should be stored "
                        + "(as 'trip/{date}/{name}')"))
        }
        return .success(RemoteKey(template: template, parts: parts))
    }

    private init(template: String, parts: [Part]) {
        self.template = template
        self.parts = parts
    }

    /// Whether rendering needs the file's SHA-256 (which costs a read of the file).
    public var needsSHA256: Bool {
        parts.contains { $0 == .placeholder("sha256") || $0 == .placeholder("id") }
    }

    /// The key for one file.
    public func render(_ facts: Facts) -> String {
        // A key is UTF-8: a name that is not is read as Latin-1 (`SystemPath.readable`).
        let relativePath = SystemPath.readable(facts.relativePath)
        let name = relativePath.split(separator: "/").last.map(String.init) ?? relativePath
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[name.index(after: $0)...]) } ?? ""
        var key = ""
        for part in parts {
            switch part {
            case .text(let text): key += text
            case .placeholder("name"): key += name
            case .placeholder("stem"): key += stem
            case .placeholder("ext"): key += ext
            case .placeholder("relpath"): key += relativePath
            case .placeholder("date"):
                if let date = facts.taken {
                    key +=
                        RemoteKey.digits(date.year, 4) + "/" + RemoteKey.digits(date.month, 2) + "/"
                        + RemoteKey.digits(date.day, 2)
                } else {
                    key += "undated"
                }
            case .placeholder("id"): key += facts.itemID ?? String((facts.sha256 ?? "").prefix(12))
            case .placeholder("sha256"): key += facts.sha256 ?? ""
            case .placeholder: break
            }
        }
        return key
    }

    private static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }

    /// The keys that two or more sources would share: each with the sources, in order.
    public static func collisions(_ keys: [(key: String, source: String)]) -> [(key: String, sources: [String])] {
        var order: [String] = []
        var sources: [String: [String]] = [:]
        for (key, source) in keys {
            if sources[key] == nil { order.append(key) }
            sources[key, default: []].append(source)
        }
        return order.compactMap { key in
            guard let list = sources[key], list.count > 1 else { return nil }
            return (key, list)
        }
    }
}

/// A key template that cannot be used, and why.
public struct RemoteKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the template, and what to do.
    public var message: String
    public var description: String { message }
}
