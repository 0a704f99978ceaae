import Foundation
import PickupUpload

/// A web form that takes files, in memory, reached as an `HTTPTransport`: the fast tier beside
/// FormUploadTests (a real server). It takes a `multipart/form-data` POST at `url` and parses
/// its body as RFC 7578 (https://www.rfc-editor.org/rfc/rfc7578) says, keeping each
/// submission's text fields and file parts; it answers 201 Created with a `Location`.
/// Scripted faults, by request number (from 1): `cutting` fails as a dropped connection before
/// the server takes any byte; `failing` answers with that status in place of the server's own.
actor InMemoryFormServer: InMemoryServer {
    /// A part of a submission that carries a file (`filename` in its Content-Disposition).
    struct FilePart: Sendable, Hashable {
        var field: String
        var filename: String
        var type: String
        var bytes: Data
    }

    /// What one POST brought.
    struct Submission: Sendable {
        var fields: [FormField]
        var files: [FilePart]
        var headers: [String: String]
    }

    let url: URL
    private var count = 0
    private let cuts: Set<Int>
    private let failures: [Int: Int]
    /// The submissions taken, in order.
    private(set) var submissions: [Submission] = []
    /// The method and path of every request, in order.
    private(set) var log: [String] = []

    init(url: URL, cutting cuts: Set<Int> = [], failing failures: [Int: Int] = [:]) {
        self.url = url
        self.cuts = cuts
        self.failures = failures
    }

    func answer(_ request: HTTPRequest, body: Data) throws(UploadError) -> HTTPResponse {
        count += 1
        log.append(request.method + " " + request.url.path)
        if cuts.contains(count) { throw UploadError(.network, "the connection was cut (scripted)") }
        if let status = failures[count] { return HTTPResponse(status: status, headers: [:], body: Data()) }
        guard request.url.path == url.path else { return HTTPResponse(status: 404, headers: [:], body: Data()) }
        guard request.method == "POST" else { return HTTPResponse(status: 405, headers: [:], body: Data()) }
        // RFC 7578 4.1: the media type is multipart/form-data with a required `boundary` parameter.
        guard let type = request.value("Content-Type"),
            FormParsing.value(type).lowercased() == "multipart/form-data",
            let boundary = FormParsing.parameters(type)["boundary"], !boundary.isEmpty
        else { return HTTPResponse(status: 415, headers: [:], body: Data()) }
        guard let parts = FormParsing.parts(of: body, boundary: boundary) else {
            return HTTPResponse(status: 400, headers: [:], body: Data())
        }
        var submission = Submission(fields: [], files: [], headers: [:])
        for (name, value) in request.headers { submission.headers[name.lowercased()] = value }
        for part in parts {
            // RFC 7578 4.2: each part has a Content-Disposition of type form-data with a `name`;
            // a file's also has a `filename`. 4.4: a part's Content-Type defaults to text/plain.
            guard let disposition = part.headers["content-disposition"],
                FormParsing.value(disposition).lowercased() == "form-data",
                let name = FormParsing.parameters(disposition)["name"]
            else { return HTTPResponse(status: 400, headers: [:], body: Data()) }
            if let filename = FormParsing.parameters(disposition)["filename"] {
                submission.files.append(
                    FilePart(
                        field: name, filename: filename, type: part.headers["content-type"] ?? "text/plain",
                        bytes: part.content))
            } else {
                submission.fields.append(FormField(name: name, value: String(decoding: part.content, as: UTF8.self)))
            }
        }
        submissions.append(submission)
        return HTTPResponse(
            status: 201, headers: ["location": "/uploads/\(submissions.count)"], body: Data("stored".utf8))
    }
}

/// The parsing `InMemoryFormServer` does, after RFC 7578 and RFC 2046 5.1 (multipart bodies).
enum FormParsing {
    /// A body's parts: each one's headers (names lowercased) and content. RFC 2046 5.1.1: each part
    /// follows a line "--boundary", the body ends with "--boundary--", and the CRLF before each
    /// delimiter belongs to the delimiter. Nil when the body is not such a thing.
    static func parts(of body: Data, boundary: String) -> [(headers: [String: String], content: Data)]? {
        let body = Data(body)
        let delimiter = Data(("--" + boundary).utf8)
        let crlf = Data("\r\n".utf8)
        guard let first = body.range(of: delimiter) else { return nil }
        var parts: [(headers: [String: String], content: Data)] = []
        var position = first.upperBound
        while true {
            let rest = body[position...]
            if rest.starts(with: Data("--".utf8)) { return parts }
            guard rest.starts(with: crlf) else { return nil }
            position += crlf.count
            guard let next = body.range(of: crlf + delimiter, in: position..<body.endIndex),
                let split = body.range(of: crlf + crlf, in: position..<next.lowerBound)
            else { return nil }
            var headers: [String: String] = [:]
            for line in String(decoding: body[position..<split.lowerBound], as: UTF8.self).components(
                separatedBy: "\r\n")
            {
                guard let colon = line.firstIndex(of: ":") else { return nil }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
            parts.append((headers, Data(body[split.upperBound..<next.lowerBound])))
            position = next.upperBound
        }
    }

    /// A header's value before its parameters: "form-data" of `form-data; name="a"`.
    static func value(_ header: String) -> String {
        String(header.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces)
    }

    /// A header's parameters by lowercased name, quoted values unquoted (a `;` inside quotes is
    /// text). RFC 7578 2 and 4.2 leave names to the HTML form encoding, which writes `"`, CR and
    /// LF in them as %22, %0D and %0A: decoded here.
    static func parameters(_ header: String) -> [String: String] {
        var pieces: [String] = []
        var piece = ""
        var quoted = false
        for char in header {
            if char == "\"" { quoted.toggle() }
            if char == ";" && !quoted {
                pieces.append(piece)
                piece = ""
            } else {
                piece.append(char)
            }
        }
        pieces.append(piece)
        var parameters: [String: String] = [:]
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let name = piece[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var value = piece[piece.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            parameters[name] = value.replacingOccurrences(of: "%22", with: "\"").replacingOccurrences(
                of: "%0D", with: "\r"
            )
            .replacingOccurrences(of: "%0A", with: "\n")
        }
        return parameters
    }
}
