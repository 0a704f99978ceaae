/// The clockwise turn that makes a stored picture stand upright.
///
/// Read from a QuickTime/MP4 track matrix, an EXIF orientation (JPEG, PNG,
/// WebP) or a HEIF `irot` property. Mirroring is kept apart, in
/// ``Orientation/mirrored``.
public enum Rotation: Int, Sendable, Hashable, Codable, CaseIterable {
    /// Stored upright.
    case none = 0
    /// Turn a quarter clockwise to stand upright.
    case clockwise90 = 90
    /// Turn half a turn.
    case upsideDown = 180
    /// Turn three quarters clockwise (a quarter counterclockwise).
    case clockwise270 = 270

    /// Degrees clockwise: 0, 90, 180 or 270.
    public var degrees: Int { rawValue }

    /// Whether this turn swaps width and height.
    public var swapsDimensions: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The rotation nearest to a clockwise angle in degrees (any value, negative too).
    public init(nearestDegrees degrees: Double) {
        let quarter = Int((degrees / 90).rounded())
        let normalized = ((quarter % 4) + 4) % 4
        self = Rotation(rawValue: normalized * 90) ?? .none
    }

    /// This turn followed by another.
    public func adding(_ other: Rotation) -> Rotation {
        Rotation(rawValue: (rawValue + other.rawValue) % 360) ?? .none
    }
}

/// How a stored picture must be turned, and possibly mirrored, to stand upright.
public struct Orientation: Sendable, Hashable, Codable {
    /// The clockwise turn, applied after the mirroring.
    public var rotation: Rotation
    /// Whether the picture is flipped left to right before the turn.
    public var mirrored: Bool

    /// An orientation from a turn and whether the picture is mirrored first.
    public init(rotation: Rotation = .none, mirrored: Bool = false) {
        self.rotation = rotation
        self.mirrored = mirrored
    }

    /// Stored upright and not mirrored.
    public static let upright = Orientation()

    /// The orientation an EXIF/TIFF `Orientation` tag (1...8) describes,
    /// or `nil` for a value outside that range.
    public init?(exifValue: Int) {
        switch exifValue {
        case 1: self.init()
        case 2: self.init(rotation: .none, mirrored: true)
        case 3: self.init(rotation: .upsideDown)
        case 4: self.init(rotation: .upsideDown, mirrored: true)
        case 5: self.init(rotation: .clockwise270, mirrored: true)
        case 6: self.init(rotation: .clockwise90)
        case 7: self.init(rotation: .clockwise90, mirrored: true)
        case 8: self.init(rotation: .clockwise270)
        default: return nil
        }
    }
}
