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
        .systemLibrary(name: "CLinux"),
        .target(name: "Geometry"),
        .target(name: "Compute", dependencies: ["Geometry"]),
        .target(name: "Strokes", dependencies: ["Geometry"]),
        .target(name: "Kernels", dependencies: ["Geometry", "Compute"]),
        .target(name: "Clock", dependencies: ["CLinux"]),
        .target(name: "Paint", dependencies: ["Geometry", "Compute", "Clock", "Strokes", "Kernels"]),
        .target(name: "Files"),
        .target(name: "PNGFile", dependencies: ["CPNG", "Files"]),
        .target(name: "Journal", dependencies: ["Geometry", "Compute", "Clock", "Paint", "Files", "PNGFile"]),
        .target(name: "X11Window", dependencies: ["CX11", "Geometry", "Compute", "Clock", "Paint"]),
        .target(name: "Fuzzing", dependencies: ["Geometry", "Compute", "Clock", "Paint"]),
        .executableTarget(name: "replay-fuzz", dependencies: ["Fuzzing"]),
        .executableTarget(
            name: "quicksilver",
            dependencies: [
                "Geometry", "Compute", "Clock", "Strokes", "Kernels", "Paint", "Files", "PNGFile", "Journal", "X11Window", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ComputeTests", dependencies: ["Geometry", "Compute"]),
        .testTarget(name: "StrokesTests", dependencies: ["Geometry", "Strokes"]),
        .testTarget(name: "KernelsTests", dependencies: ["Geometry", "Kernels", "Compute"]),
        .testTarget(name: "PaintTests", dependencies: ["Geometry", "Compute", "Clock", "Kernels", "Paint", "Files", "PNGFile", "Journal", "Fuzzing", "Strokes"]),
        .testTarget(name: "ClockTests", dependencies: ["Clock"]),
        .testTarget(name: "EndToEndTests", dependencies: ["PNGFile"], exclude: ["Support"]),
        // Tests/Soak (make soak) and Tests/Fixtures (corpus, goldens) hold no Swift target.
    ],
    swiftLanguageModes: [.v6]
)
