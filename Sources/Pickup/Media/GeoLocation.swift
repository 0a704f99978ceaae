/// A place on Earth, as a camera or phone recorded it.
public struct GeoLocation: Sendable, Hashable, Codable {
    /// Decimal degrees, north positive.
    public var latitude: Double
    /// Decimal degrees, east positive.
    public var longitude: Double
    /// Metres above sea level, when the file gives it.
    public var altitude: Double?

    /// A place in degrees (WGS 84) and, when known, an altitude in metres above sea level.
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Whether the coordinates lie on Earth (±90, ±180) and are finite.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
            && (altitude?.isFinite ?? true)
    }

    /// Parses an ISO 6709 string as phones write it: `+35.6586+139.7454+040.000/`.
    ///
    /// Used by QuickTime's `com.apple.quicktime.location.ISO6709` key and the
    /// `©xyz` user-data box of Android and older iPhone movies.
    public init?(iso6709 text: String) {
        var numbers: [Double] = []
        var current = ""
        for character in text {
            if character == "+" || character == "-" {
                if !current.isEmpty {
                    guard let value = Double(current) else { return nil }
                    numbers.append(value)
                }
                current = String(character)
            } else if character.isNumber || character == "." {
                guard !current.isEmpty else { return nil }
                current.append(character)
            } else if character == "/" {
                break
            } else if character == " " || character == "C" || character == "R" {
                // "CRSxxxx" suffixes name a reference system; stop at them.
                break
            } else {
                return nil
            }
        }
        if !current.isEmpty {
            guard let value = Double(current) else { return nil }
            numbers.append(value)
        }
        guard numbers.count >= 2 else { return nil }
        self.init(latitude: numbers[0], longitude: numbers[1], altitude: numbers.count > 2 ? numbers[2] : nil)
        guard isValid else { return nil }
    }
}
