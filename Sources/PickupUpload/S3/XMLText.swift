import Foundation

/// Reads the few XML answers S3 gives (machine-written, flat): the text of an
/// element, or the blocks of a repeated one. Entities are decoded.
enum XMLText {
    /// The text inside each `<tag>…</tag>`, in order: one pass over the bytes, so a page of
    /// thousands of elements costs its length, not its length squared.
    static func blocks(_ tag: String, in text: String) -> [String] {
        let bytes = Array(text.utf8)
        let open = Array("<\(tag)>".utf8)
        let close = Array("</\(tag)>".utf8)
        var result: [String] = []
        var index = 0
        while let start = find(open, in: bytes, from: index) {
            let inner = start + open.count
            guard let end = find(close, in: bytes, from: inner) else { break }
            result.append(String(decoding: bytes[inner..<end], as: UTF8.self))
            index = end + close.count
        }
        return result
    }

    /// Where `pattern` first occurs in `bytes` at or after `from`.
    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard let first = pattern.first, pattern.count <= bytes.count else { return nil }
        var index = from
        let last = bytes.count - pattern.count
        while index <= last {
            guard let hit = bytes[index...last].firstIndex(of: first) else { return nil }
            if bytes[hit..<(hit + pattern.count)].elementsEqual(pattern) { return hit }
            index = hit + 1
        }
        return nil
    }

    static func first(_ tag: String, in text: String) -> String? {
        blocks(tag, in: text).first.map(unescape)
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&#34;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// An S3 error's `<Code>`, when it is one (letters, digits, dots): a server that echoes a
    /// request there (its Authorization, a token, a signature) gets nothing shown; the
    /// `<Message>` is never shown, for the same reason.
    static func s3ErrorCode(in body: String) -> String? {
        guard let code = XMLText.first("Code", in: body) else { return nil }
        let plain =
            !code.isEmpty && code.count <= 64
            && code.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") }
        return plain ? code : "an error whose code is not a plain name"
    }
}
