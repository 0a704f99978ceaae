/// The start that `mvhd`, `tkhd` and `mdhd` share (ISO/IEC 14496-12, 8.2.2, 8.3.2 and 8.4.2):
/// version and flags; the creation and modification times; a 32-bit field (the time scale, or
/// `tkhd`'s track id); then, after `tkhd`'s 4 reserved bytes, the duration. Times and duration are
/// 64-bit in version 1, 32-bit in version 0.
struct TimedHeader {
    var version: UInt8
    /// Seconds since 1904-01-01 UTC; 0 when not set.
    var created: UInt64
    /// The time scale (`mvhd`, `mdhd`) or the track id (`tkhd`).
    var field: UInt32

    /// Reads the header's start from `reader`, leaving it where `tkhd`'s reserved bytes or the
    /// duration begin.
    init(_ reader: inout ByteReader) throws(ProbeError) {
        version = try reader.u8()
        try reader.skip(3)
        if version == 1 {
            created = try reader.u64()
            try reader.skip(8)
        } else {
            created = UInt64(try reader.u32())
            try reader.skip(4)
        }
        field = try reader.u32()
    }

    /// The duration that follows, in the header's time scale: 0 for version 0's "unknown" (all ones).
    func duration(_ reader: inout ByteReader) throws(ProbeError) -> UInt64 {
        if version == 1 { return try reader.u64() }
        let value = try reader.u32()
        return value == .max ? 0 : UInt64(value)
    }
}
