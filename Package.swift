// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Pickup",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "Pickup", targets: ["Pickup"]),
        .executable(name: "pickup", targets: ["pickup"]),
    ],
    targets: [
        // The core: pure Swift + Foundation, no C library, no UI.
        .target(name: "Pickup"),
        // The command-line tool.
        .executableTarget(name: "pickup", dependencies: ["Pickup"]),
        // Fixtures (made with ffmpeg/exiftool at test time, or built in code) and the corpus.
        .target(name: "PickupTestSupport", dependencies: ["Pickup"], path: "Tests/PickupTestSupport"),
        .testTarget(name: "PickupTests", dependencies: ["Pickup", "PickupTestSupport"]),
        // End-to-end tests of the built `pickup` tool.
        .testTarget(name: "PickupCLITests", dependencies: ["pickup", "PickupTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
