/// The tools' version, and what `--version` prints: Pickup's own version and the versions of
/// FFmpeg and libheif that `pickup-render` renders with.
public enum ToolVersion {
    /// Pickup's version.
    public static let pickup = "0.2.0"

    /// "pickup 0.2.0" and the libraries' lines, asked of `pickup-render --version`.
    public static func full() async -> String {
        let (status, output) = await RenderCommands.run(["--version"])
        let libraries = output.split(separator: "\n").dropFirst().joined(separator: "\n")
        guard status == ExitStatus.success, !libraries.isEmpty else {
            return "pickup \(pickup)\n(pickup-render is not beside pickup: FFmpeg's and libheif's versions are unknown)"
        }
        return "pickup \(pickup)\n" + libraries
    }
}
