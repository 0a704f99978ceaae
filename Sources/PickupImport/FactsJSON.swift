import Pickup

/// An item's facts (`MediaInfo`) as the JSON the catalog keeps, written directly: the same
/// keys and values `JSONEncoder` writes for `MediaInfo`'s `Codable` (read back by
/// `JSONDecoder`), at a fraction of the cost. Importing a camera roll encodes the facts of
/// each item, and `JSONEncoder` (a tree of values, then the text) was 5% of the import's CPU.
///
/// Nil where `JSONEncoder` would refuse the value (a duration, frame rate or location that is
/// not a finite number): the caller then asks `JSONEncoder`, which says so its own way.
/// `FactsJSONTests` holds the two to the same result on every fixture, and fails when
/// `MediaInfo` gains a property this does not write.
enum FactsJSON {
    /// The properties written, in `MediaInfo`'s order (for the test that keeps this whole).
    static let keys = [
        "kind", "container", "fileSize", "videoCodec", "audioCodec", "imageCodec", "width", "height",
        "orientation", "exifOrientation", "duration", "frameRate", "bitDepth", "hdr", "audioChannels",
        "audioSampleRate", "creationDate", "location", "make", "model", "software", "contentIdentifier",
        "capture", "animated", "frameCount", "alpha", "preview",
    ]

    /// `info` as JSON, or nil when a number in it is not finite.
    static func encode(_ info: MediaInfo) -> String? {
        var object = JSONObjectText()
        object.add("kind", info.kind.rawValue)
        object.add("container", info.container.rawValue)
        object.add("fileSize", info.fileSize)
        object.add("videoCodec", info.videoCodec)
        object.add("audioCodec", info.audioCodec)
        object.add("imageCodec", info.imageCodec)
        object.add("width", info.width)
        object.add("height", info.height)
        var orientation = JSONObjectText()
        orientation.add("rotation", info.orientation.rotation.rawValue)
        orientation.add("mirrored", info.orientation.mirrored)
        object.add("orientation", object: orientation)
        object.add("exifOrientation", info.exifOrientation)
        guard object.add("duration", info.duration), object.add("frameRate", info.frameRate) else { return nil }
        object.add("bitDepth", info.bitDepth)
        object.add("hdr", info.hdr?.rawValue)
        object.add("audioChannels", info.audioChannels)
        object.add("audioSampleRate", info.audioSampleRate)
        if let date = info.creationDate { object.add("creationDate", object: dateObject(date)) }
        if let location = info.location {
            var place = JSONObjectText()
            guard place.add("latitude", location.latitude), place.add("longitude", location.longitude),
                place.add("altitude", location.altitude)
            else { return nil }
            object.add("location", object: place)
        }
        object.add("make", info.make)
        object.add("model", info.model)
        object.add("software", info.software)
        object.add("contentIdentifier", info.contentIdentifier)
        var capture = JSONObjectText()
        capture.add("userComment", info.capture.userComment)
        capture.add("customRendered", info.capture.customRendered)
        capture.add("burstIdentifier", info.capture.burstIdentifier)
        capture.add("hasDepth", info.capture.hasDepth)
        capture.add("hasAppleScreenshotChunk", info.capture.hasAppleScreenshotChunk)
        object.add("capture", object: capture)
        object.add("animated", info.animated)
        object.add("frameCount", info.frameCount)
        object.add("alpha", info.alpha)
        if let preview = info.preview {
            var range = JSONObjectText()
            range.add("offset", preview.offset)
            range.add("length", preview.length)
            object.add("preview", object: range)
        }
        return object.closed
    }

    /// A date as `Codable` writes it; its zone as Swift writes an enum with associated values
    /// (`{"offset":{"seconds":3600}}`, `{"utc":{}}`).
    private static func dateObject(_ date: MediaDate) -> JSONObjectText {
        var object = JSONObjectText()
        object.add("year", date.year)
        object.add("month", date.month)
        object.add("day", date.day)
        object.add("hour", date.hour)
        object.add("minute", date.minute)
        object.add("second", date.second)
        var zone = JSONObjectText()
        switch date.zone {
        case .offset(let seconds):
            var offset = JSONObjectText()
            offset.add("seconds", seconds)
            zone.add("offset", object: offset)
        case .utc: zone.add("utc", object: JSONObjectText())
        case .unspecified: zone.add("unspecified", object: JSONObjectText())
        }
        object.add("zone", object: zone)
        return object
    }
}

/// One JSON object's text, written a member at a time; a nil value writes no member (as
/// `encodeIfPresent` does).
struct JSONObjectText {
    private var text = "{"
    private var empty = true

    /// The object's text, closed.
    var closed: String { text + "}" }

    private mutating func key(_ name: String) {
        text += empty ? "\"" : ",\""
        text += name
        text += "\":"
        empty = false
    }

    mutating func add(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        JSONObjectText.appendQuoted(value, to: &text)
    }

    mutating func add(_ name: String, _ value: Int?) {
        guard let value else { return }
        key(name)
        text += String(value)
    }

    mutating func add(_ name: String, _ value: Int64) {
        key(name)
        text += String(value)
    }

    mutating func add(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    /// False (and nothing written) for a number JSON cannot hold: infinite, or not a number.
    mutating func add(_ name: String, _ value: Double?) -> Bool {
        guard let value else { return true }
        guard value.isFinite else { return false }
        key(name)
        // Swift's shortest text that reads back as the same Double ("29.97", "30.0", "1e-05"):
        // every one of them is a JSON number.
        text += value.description
        return true
    }

    mutating func add(_ name: String, object: JSONObjectText) {
        key(name)
        text += object.closed
    }

    /// `value` in quotes, with what JSON requires escaped: quotes, backslashes, control characters.
    static func appendQuoted(_ value: String, to text: inout String) {
        text += "\""
        var plain = true
        for unit in value.utf8 where unit < 0x20 || unit == 0x22 || unit == 0x5C {
            plain = false
            break
        }
        if plain {
            text += value
        } else {
            for scalar in value.unicodeScalars { JSONEscape.append(scalar, to: &text) }
        }
        text += "\""
    }
}
