/// The `ftyp` box: major and compatible brands, which name the container.
struct FileType {
    var major: FourCC
    var compatible: [FourCC]

    static func parse(_ ftyp: Box, reader: BoxReader) throws(ProbeError) -> FileType {
        var r = try reader.prefix(of: ftyp, count: 256)
        let major = try r.fourCC()
        try r.skip(4)
        var compatible: [FourCC] = []
        while r.remaining >= 4 { compatible.append(try r.fourCC()) }
        return FileType(major: major, compatible: compatible)
    }

    var isHEIF: Bool { ([major] + compatible).contains { FileType.heifBrands.contains($0.description) } }

    static let heifBrands: Set<String> = [
        "mif1", "msf1", "mif2", "heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "avif", "avis",
    ]

    /// The container the brands name, for a movie (`imageCodec` nil) or a still.
    func container(imageCodec: String?) -> Container {
        let brand = major.description
        switch brand {
        case "qt  ": return .mov
        case "M4A ", "M4B ", "M4P ", "F4A ", "F4B ": return .m4a
        case "M4V ", "M4VH", "M4VP", "F4V ": return .m4v
        case "3g2a", "3g2b", "3g2c": return .threeG2
        case "heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs": return .heic
        case "avif", "avis": return .avif
        case "mif1", "msf1", "mif2": return imageCodec == "av1" ? .avif : .heif
        default:
            if brand.hasPrefix("3gp") || brand.hasPrefix("3ge") || brand.hasPrefix("3gg") || brand.hasPrefix("3gs") {
                return .threeGP
            }
            return .mp4
        }
    }
}
