// swift-tools-version: 6.0
// Quicksilver: a fast paint window for X11. Read the modules in the order of one frame:
// Compute (the "GPU") → Strokes (pointer samples → dabs) → Kernels (pixels) → Paint (the session)
// → X11Window / PNGFile (present, export) → quicksilver (the command line).
import PackageDescription

let package = Package(
    name: "Quicksilver",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "quicksilver", targets: ["quicksilver"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CX11", pkgConfig: "x11 xext", providers: [.apt(["libx11-dev", "libxext-dev"])]),
        .systemLibrary(name: "CMalloc"),
        .target(name: "Compute"),
        .target(name: "Strokes", dependencies: ["Compute"]),
        .target(name: "Kernels", dependencies: ["Compute"]),
        .target(name: "Paint", dependencies: ["Compute", "Strokes", "Kernels"]),
        .target(name: "PNGFile", dependencies: ["CPNG"]),
        .target(name: "Journal", dependencies: ["Compute", "Paint", "PNGFile"]),
        .target(name: "X11Window", dependencies: ["CX11", "Paint"]),
        .target(name: "Fuzzing", dependencies: ["Compute", "Paint"]),
        .executableTarget(name: "replay-fuzz", dependencies: ["Fuzzing"]),
        .executableTarget(
            name: "quicksilver",
            dependencies: [
                "Paint", "PNGFile", "Journal", "X11Window", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ComputeTests", dependencies: ["Compute"]),
        .testTarget(name: "StrokesTests", dependencies: ["Strokes", "Compute"]),
        .testTarget(name: "KernelsTests", dependencies: ["Kernels", "Compute"]),
        .testTarget(name: "PaintTests", dependencies: ["Paint", "PNGFile", "Journal", "Fuzzing", "Strokes"]),
        .testTarget(name: "EndToEndTests", dependencies: ["PNGFile"], exclude: ["Support"]),
        // Tests/Soak (make soak) and Tests/Fixtures (corpus, goldens) hold no Swift target.
    ],
    swiftLanguageModes: [.v6]
)
