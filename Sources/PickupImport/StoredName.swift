/// A readable, safe file name for a stored copy: the original's name with
/// control characters (newlines...) replaced, no path separators, and at most
/// 200 bytes of UTF-8 with the extension kept; numbered variants for collisions.
struct StoredName {
    let stem: String
    let fileExtension: String

    static let maxBytes = 200

    init(_ original: String) {
        var cleaned = ImportNaming.namePart(original)
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }  // never hidden, never "." or ".."
        if cleaned.isEmpty { cleaned = "item" }
        var stem = cleaned
        var fileExtension = ""
        if let dot = cleaned.lastIndex(of: "."), dot != cleaned.startIndex {
            let candidate = String(cleaned[cleaned.index(after: dot)...])
            if candidate.utf8.count <= 16, !candidate.isEmpty {
                fileExtension = "." + candidate
                stem = String(cleaned[..<dot])
            }
        }
        // Room for the extension and a " 9999" variant.
        self.stem = StoredName.truncate(stem, toBytes: StoredName.maxBytes - fileExtension.utf8.count - 6)
        self.fileExtension = fileExtension
    }

    /// `name.ext`, then `name 2.ext`, `name 3.ext`...
    func variant(_ number: Int) -> String {
        number <= 1 ? stem + fileExtension : stem + " \(number)" + fileExtension
    }

    /// The longest prefix of whole characters within `limit` bytes of UTF-8.
    static func truncate(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        var bytes = 0
        for character in text {
            let size = character.utf8.count
            if bytes + size > limit { break }
            result.append(character)
            bytes += size
        }
        return result.isEmpty ? "item" : result
    }
}

/// The naming rules of stored copies, for apps that show or predict them.
public enum ImportNaming {
    /// The name a file called `original` is stored under when that name is free.
    public static func storedName(for original: String) -> String { StoredName(original).variant(1) }

    /// Text fit to be part of a file's name: control characters (newlines...) and path
    /// separators become `_`. Stored copies are named so, and so are the files `pickup thumb`
    /// and `pickup export` write.
    public static func namePart(_ text: String) -> String {
        var cleaned = ""
        for scalar in text.unicodeScalars {
            let unsafe = scalar.value < 0x20 || scalar.value == 0x7F || scalar == "/" || scalar == "\\"
            cleaned.unicodeScalars.append(unsafe ? "_" : scalar)
        }
        return cleaned
    }

    /// The longest prefix of `text`'s whole characters within `limit` bytes of UTF-8 (the text
    /// itself when it fits): file systems refuse names over 255 bytes, so names made from
    /// other names are shortened before anything is written under them.
    public static func shortened(_ text: String, toBytes limit: Int) -> String {
        StoredName.truncate(text, toBytes: limit)
    }
}
