// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Pickup",
    defaultLocalization: "en",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "Pickup", targets: ["Pickup"]),
        .library(name: "PickupImport", targets: ["PickupImport"]),
        .library(name: "PickupUpload", targets: ["PickupUpload"]),
        .library(name: "PickupFFmpeg", targets: ["PickupFFmpeg"]),
        .library(name: "PickupUI", targets: ["PickupUI"]),
        .library(name: "PickupHTTP", targets: ["PickupHTTP"]),
        .executable(name: "pickup", targets: ["pickup"]),
        .executable(name: "pickup-render", targets: ["pickup-render"]),
    ],
    dependencies: [
        // Linux's HTTP client for uploads, http and https (PickupHTTP only: an iOS app that
        // uses Pickup, PickupImport, PickupUpload or PickupUI never resolves it).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        // Both command-line tools' arguments, help, completion scripts (PickupCommandLine only).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation`: the DocC catalogs (a command plugin, linked into nothing).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.3"),
    ],
    targets: [
        // The core: pure Swift + Foundation, no C library, no UI.
        .target(name: "Pickup", resources: [.copy("Resources/PrivacyInfo.xcprivacy")]),
        // C libraries of the system, each behind a module map with pkg-config and apt providers.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibcrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CFFmpeg", pkgConfig: "libavformat",
            providers: [
                .apt([
                    "libavformat-dev", "libavcodec-dev", "libavutil-dev", "libavfilter-dev", "libswscale-dev",
                    "libswresample-dev",
                ])
            ]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        // Durable state and hashing: SQLite (one small wrapper) and SHA-256 through the platform's crypto.
        // Each target that calls an API with a required reason (file timestamps, disk space)
        // ships its privacy manifest, which App Store submission reads.
        .target(
            name: "PickupStore",
            dependencies: [
                "Pickup",
                .target(name: "CSQLite", condition: .when(platforms: [.linux])),
                .target(name: "CLibcrypto", condition: .when(platforms: [.linux])),
            ],
            resources: [.copy("Resources/PrivacyInfo.xcprivacy")]),
        // System calls Swift's Glibc module does not expose (sync_file_range).
        .target(name: "CPickupSystem"),
        // Taking picked files into storage the app owns: atomic copies, a catalog, Live Photo pairs.
        .target(
            name: "PickupImport", dependencies: ["Pickup", "PickupStore", "CPickupSystem"],
            resources: [.copy("Resources/PrivacyInfo.xcprivacy")]),
        // Uploads that survive lost connections and killed processes: tus 1.0, journal in SQLite.
        .target(
            name: "PickupUpload", dependencies: ["Pickup", "PickupStore"],
            resources: [.copy("Resources/PrivacyInfo.xcprivacy")]),
        // The upload transport on AsyncHTTPClient (swift-nio and swift-nio-ssl):
        // streamed bodies, a pooled connection per host, no redirects, bounded answers.
        .target(
            name: "PickupHTTP",
            dependencies: [
                "Pickup", "PickupUpload", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]),
        // Thumbnails, poster frames and export through FFmpeg's libraries and libheif (Linux).
        .target(name: "PickupFFmpeg", dependencies: ["Pickup", "CFFmpeg", "CHeif"]),
        // Apple platforms only: SwiftUI pickers and views, AVFoundation rendering, background uploads.
        // Everything in it sits behind `#if canImport(...)`; on Linux scripts/check-ios.sh compiles
        // it against Apple's real iPhoneOS SDKs (17.4 and 26.2).
        // Its words are in a String Catalog (English and Japanese).
        .target(
            name: "PickupUI", dependencies: ["Pickup", "PickupImport", "PickupUpload"],
            resources: [.process("Resources/Localizable.xcstrings")]),
        // What both command-line tools share: the front door on swift-argument-parser, option
        // groups, the render commands' options, console and JSON output.
        .target(
            name: "PickupCommandLine",
            dependencies: [
                "Pickup", "PickupImport", "PickupStore", "CPickupSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The command-line tool. It does not link FFmpeg (whose libraries alone add some 25 MB and
        // 90 ms to every start): thumbnails and exports run in `pickup-render`, beside it.
        .executableTarget(
            name: "pickup",
            dependencies: ["Pickup", "PickupImport", "PickupUpload", "PickupHTTP", "PickupCommandLine"]),
        // `pickup thumb`, `pickup export` and the thumbnails of `pickup import --thumbnails`.
        .executableTarget(
            name: "pickup-render", dependencies: ["Pickup", "PickupImport", "PickupFFmpeg", "PickupCommandLine"]),
        // Fixtures (made with ffmpeg/exiftool at test time, or built in code) and the corpus.
        .target(name: "PickupTestSupport", dependencies: ["Pickup"], path: "Tests/PickupTestSupport"),
        .testTarget(name: "PickupTests", dependencies: ["Pickup", "PickupTestSupport"]),
        // Stores/: a catalog made by an earlier version, which each version must open.
        .testTarget(
            name: "PickupImportTests", dependencies: ["PickupImport", "PickupStore", "PickupTestSupport"],
            exclude: ["Stores"]),
        // URLSessionTransport (Apple's transport) compiled for Linux, tests only: its source is
        // PickupUpload's own file (a link), built against FoundationNetworking.
        .target(
            name: "URLSessionTransportLinux", dependencies: ["Pickup", "PickupUpload"],
            path: "Tests/URLSessionTransportLinux", swiftSettings: [.define("PICKUP_URLSESSION_TESTS")]),
        // `urlsession-upload URL FILE`: one form POST through URLSessionTransportLinux and nothing
        // else, whose peak memory URLSessionMemoryTests measures (tests only).
        .executableTarget(
            name: "urlsession-upload",
            dependencies: [
                "PickupUpload", .target(name: "URLSessionTransportLinux", condition: .when(platforms: [.linux])),
            ],
            path: "Tests/URLSessionUpload"),
        .testTarget(
            name: "PickupUploadTests",
            dependencies: [
                "PickupUpload", "PickupHTTP", "PickupStore", "PickupTestSupport",
                .target(name: "URLSessionTransportLinux", condition: .when(platforms: [.linux])),
                .target(name: "urlsession-upload", condition: .when(platforms: [.linux])),
            ],
            // Stores/: a journal made by an earlier version, which each version must open.
            exclude: ["Stores"]),
        .testTarget(name: "PickupFFmpegTests", dependencies: ["PickupFFmpeg", "Pickup", "PickupTestSupport"]),
        // End-to-end tests of the built `pickup` tool.
        .testTarget(
            name: "PickupCLITests", dependencies: ["pickup", "pickup-render", "PickupTestSupport"],
            // Each command's whole help text, compared by HelpTests.
            exclude: ["Help"]),
    ],
    swiftLanguageModes: [.v6]
)
