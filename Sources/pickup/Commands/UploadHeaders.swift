import ArgumentParser
import Foundation
import PickupUpload

/// The request headers `pickup upload` and `pickup uploads resume` send to tus and form
/// servers, and where they come from: `PICKUP_UPLOAD_AUTHORIZATION` (the Authorization),
/// `PICKUP_UPLOAD_HEADERS` (any headers, one `NAME: VALUE` a line), `-H 'NAME: VALUE'` and
/// `-H @FILE` (a file of such lines). The environment and files keep a secret out of the
/// command line, which every local user can read (`/proc/PID/cmdline`). Every header is
/// checked before anything is sent: a mistake names the header and where it came from,
/// never its value.
enum UploadHeaders {
    static let authorizationVariable = "PICKUP_UPLOAD_AUTHORIZATION"
    static let headersVariable = "PICKUP_UPLOAD_HEADERS"

    /// The headers of the environment, then of `flags` (later ones win), each checked.
    static func headers(
        flags: [String] = [], environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ValidationError) -> [String: String] {
        var headers: [String: String] = [:]
        let authorization = environment[authorizationVariable] ?? ""
        if !authorization.isEmpty {
            try add("Authorization", authorization, from: authorizationVariable, to: &headers)
        }
        if let lines = environment[headersVariable] {
            try addLines(lines, from: headersVariable, to: &headers)
        }
        for flag in flags {
            if flag.hasPrefix("@") {
                let file = String(flag.dropFirst())
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                    throw ValidationError("-H @\(file): cannot read that file (it holds 'NAME: VALUE' lines)")
                }
                try addLines(text, from: "-H @\(file)", to: &headers)
            } else {
                try addLine(flag, from: "-H", to: &headers)
            }
        }
        return headers
    }

    /// Lines of `NAME: VALUE`, ended by LF or CR LF; empty lines and `#` comments are skipped.
    static func addLines(
        _ text: String, from source: String, to headers: inout [String: String]
    )
        throws(ValidationError)
    {
        // Split at LF and CR LF ("\r\n" is one Character to Swift, so "\n" alone would not split it);
        // a lone CR stays in its line, where the header check names it (a token file's stray CR).
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") { continue }
            try addLine(String(line), from: source, to: &headers)
        }
    }

    static func addLine(
        _ line: String, from source: String, to headers: inout [String: String]
    )
        throws(ValidationError)
    {
        guard let colon = line.firstIndex(of: ":"), !line[..<colon].trimmingCharacters(in: .whitespaces).isEmpty
        else {
            throw ValidationError(
                "\(source) takes 'NAME: VALUE' (or @FILE of such lines); the header given has no name before a "
                    + "colon (its text is not shown: it may be a secret)")
        }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces)
        try add(
            name, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces), from: source, to: &headers)
    }

    static func add(
        _ name: String, _ value: String, from source: String, to headers: inout [String: String]
    )
        throws(ValidationError)
    {
        if let problem = HeaderCheck.problem(name: name, value: value) {
            throw ValidationError("\(source): \(problem)")
        }
        headers[name] = value
    }
}
