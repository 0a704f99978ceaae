/// The high-dynamic-range transfer function of a video or image, when it has one.
public enum HDRTransfer: String, Sendable, Hashable, Codable {
    /// Hybrid Log-Gamma (ARIB STD-B67, transfer characteristics 18): iPhone HDR video.
    case hlg
    /// Perceptual Quantizer (SMPTE ST 2084, transfer characteristics 16): HDR10, Dolby Vision.
    case pq

    /// The HDR transfer named by an ITU-T H.273 `TransferCharacteristics` code, if any.
    public init?(transferCharacteristics code: Int) {
        switch code {
        case 18: self = .hlg
        case 16: self = .pq
        default: return nil
        }
    }
}
