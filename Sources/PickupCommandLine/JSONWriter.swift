import Pickup

/// Writes JSON objects on one line each (JSON Lines), keys in the order given.
public struct JSONObject {
    private var members: [String] = []

    public init() {}

    /// A string, or `null` when there is none: the key is there either way.
    public mutating func add(_ key: String, _ value: String?) {
        guard let value else {
            members.append(JSONObject.quote(key) + ":null")
            return
        }
        add(key, value)
    }

    public mutating func add(_ key: String, _ value: String) {
        members.append(JSONObject.quote(key) + ":" + JSONObject.quote(value))
    }
    public mutating func add(_ key: String, _ value: Int64) {
        members.append(JSONObject.quote(key) + ":" + String(value))
    }
    public mutating func add(_ key: String, _ value: Bool) {
        members.append(JSONObject.quote(key) + ":" + (value ? "true" : "false"))
    }
    public mutating func add(_ key: String, _ value: Double) {
        members.append(JSONObject.quote(key) + ":" + (value.isFinite ? String(value) : "null"))
    }
    public mutating func add(_ key: String, object: JSONObject) {
        members.append(JSONObject.quote(key) + ":" + object.text)
    }
    public mutating func add(_ key: String, array: [JSONObject]) {
        members.append(JSONObject.quote(key) + ":[" + array.map(\.text).joined(separator: ",") + "]")
    }
    public mutating func add(_ key: String, strings: [String]) {
        members.append(JSONObject.quote(key) + ":[" + strings.map(JSONObject.quote).joined(separator: ",") + "]")
    }

    public mutating func add(_ key: String, _ fact: Fact) {
        switch fact {
        case .string(let value): add(key, value)
        case .int(let value): add(key, value)
        case .double(let value): add(key, value)
        case .bool(let value): add(key, value)
        }
    }

    /// `null`: a key whose value is not known.
    public mutating func addNull(_ key: String) {
        members.append(JSONObject.quote(key) + ":null")
    }

    /// An object, or `null` when there is none: the key is there either way.
    public mutating func add(_ key: String, object: JSONObject?) {
        guard let object else { return addNull(key) }
        add(key, object: object)
    }

    /// Every fact of a file, under the names of `MediaInfo.factNames`: null for what it does not say.
    public mutating func addFacts(of info: MediaInfo) {
        let known = Dictionary(info.facts.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        for name in MediaInfo.factNames {
            if let value = known[name] { add(name, value) } else { addNull(name) }
        }
    }

    /// `{"code", "message", "hint", "offset", "element"}`: the error object every command prints,
    /// with every key (`offset`, the byte where the problem was found, and `element`, the box, tag
    /// or chunk, are null when no file's bytes are at fault).
    public static func error(
        code: String, message: String, hint: String, offset: Int64? = nil, element: String? = nil
    ) -> JSONObject {
        var detail = JSONObject()
        detail.add("code", code)
        detail.add("message", message)
        detail.add("hint", hint)
        if let offset { detail.add("offset", offset) } else { detail.addNull("offset") }
        detail.add("element", element)
        return detail
    }

    /// The error object of a probe's failure: its code (one list for every command: a file cut
    /// short is `truncated` in probe, thumb and export alike), offset and element.
    public static func error(_ error: ProbeError) -> JSONObject {
        JSONObject.error(
            code: error.code.rawValue, message: error.message, hint: error.hint, offset: error.offset,
            element: error.element)
    }

    /// The error object of a thumbnail or export that failed: the probe's, when the probe found
    /// the problem, else the renderer's code.
    public static func error(_ error: RenderError) -> JSONObject {
        if let cause = error.cause { return JSONObject.error(cause) }
        return JSONObject.error(code: error.code.rawValue, message: error.message, hint: error.hint)
    }

    public var text: String { "{" + members.joined(separator: ",") + "}" }

    /// `{"type": "error", "path": path, "status": "failed", "error": {"code", "message", "hint"}}`:
    /// how every command reports a file or an item that failed. One that Ctrl-C stopped before it
    /// was done (code `cancelled`) has status `interrupted`: not a failure, the same command
    /// again does it.
    public static func failure(path: String?, code: String, message: String, hint: String) -> JSONObject {
        failure(path: path, error: error(code: code, message: message, hint: hint), interrupted: code == "cancelled")
    }

    /// An error line with an error object made already (probe's adds the offset and the element);
    /// `interrupted` for one that Ctrl-C stopped.
    public static func failure(path: String?, error: JSONObject, interrupted: Bool = false) -> JSONObject {
        var object = JSONObject()
        object.add("type", "error")
        object.add("path", path)
        object.add("status", interrupted ? "interrupted" : "failed")
        object.add("error", object: error)
        return object
    }

    /// `{"type": "leftAlone", "path": path, "status": "leftAlone", "reason": reason}`: how every
    /// command reports a file it passed over on purpose (a sidecar, a link out of the folder named).
    public static func leftAlone(path: String, reason: String) -> JSONObject {
        var object = JSONObject()
        object.add("type", "leftAlone")
        object.add("path", path)
        object.add("status", "leftAlone")
        object.add("reason", reason)
        return object
    }

    /// A JSON string literal. A path's byte that is not UTF-8 (`SystemPath`) is written as the
    /// text `\xE9`, as tables show it: every JSON parser takes the line (a lone surrogate such
    /// as `\udce9` would be refused by Foundation's and Rust's), and the byte can be read back.
    public static func quote(_ text: String) -> String {
        // Printable ASCII with no quote or backslash (most paths, ids and states) needs no escape.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            if let byte = SystemPath.rawByte(scalar) {
                // The text \xE9, its backslash escaped for JSON.
                out += "\\" + Text.rawByte(byte)
            } else {
                JSONEscape.append(scalar, to: &out)
            }
        }
        return out + "\""
    }
}
