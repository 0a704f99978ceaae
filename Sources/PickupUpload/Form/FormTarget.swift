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

    /// A form at `url` whose file goes in `field`, after `fields`, with `headers`.
    public init(url: URL, field: String = "file", fields: [FormField] = [], headers: [String: String] = [:]) {
        self.url = url
        self.field = field
        self.fields = fields
        self.headers = headers
    }

    /// The headers are never stored.
    enum CodingKeys: String, CodingKey { case url, field, fields }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            url: try container.decode(URL.self, forKey: .url), field: try container.decode(String.self, forKey: .field),
            fields: try container.decode([FormField].self, forKey: .fields))
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
