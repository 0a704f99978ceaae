import Foundation

/// A plain web form that takes a file: `multipart/form-data`, one request,
/// for backends with no resumable protocol. The body is streamed from the file.
public struct FormTarget: Sendable, Hashable, Codable {
    /// The form's address: where the POST goes.
    public var url: URL
    /// The form field that carries the file.
    public var field: String
    /// Other fields sent before the file, in order.
    public var fields: [FormField]
    /// Extra request headers (an `Authorization`, say): sent, never stored or printed.
    public var headers: [String: String]
    /// Whether each upload's POST carries its own `Idempotency-Key` (on by default): the same
    /// on every try of the upload, so a server that honours it stores a file whose answer was
    /// lost once. Off for a server that refuses the header.
    public var idempotencyKey: Bool

    /// A form at `url` whose file goes in `field`, after `fields`, with `headers`; each upload
    /// with its own `Idempotency-Key` unless `idempotencyKey` is false.
    public init(
        url: URL, field: String = "file", fields: [FormField] = [], headers: [String: String] = [:],
        idempotencyKey: Bool = true
    ) {
        self.url = url
        self.field = field
        self.fields = fields
        self.headers = headers
        self.idempotencyKey = idempotencyKey
    }

    /// The headers are never stored.
    enum CodingKeys: String, CodingKey { case url, field, fields, idempotencyKey }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            url: try container.decode(URL.self, forKey: .url), field: try container.decode(String.self, forKey: .field),
            fields: try container.decode([FormField].self, forKey: .fields),
            // A journal written before the key was sent has none: on, as for a new upload.
            idempotencyKey: try container.decodeIfPresent(Bool.self, forKey: .idempotencyKey) ?? true)
    }

    /// The key is written only when it is off: a journal's form destinations read as before
    /// (the journal finds earlier uploads by this text), and one written before the key reads on.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(field, forKey: .field)
        try container.encode(fields, forKey: .fields)
        if !idempotencyKey { try container.encode(false, forKey: .idempotencyKey) }
    }
}

/// A text field of a form.
public struct FormField: Sendable, Hashable, Codable {
    /// The field's name.
    public var name: String
    /// The field's value.
    public var value: String

    /// A field with its name and value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
