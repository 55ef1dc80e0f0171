// swift-tools-version: 6.0
// Quicksilver: a fast paint window for X11. Read the modules in the order of one frame:
// Clock (when frames happen) → Input (what the window reports) → App (pressure, keys, recording)
// → Events (what a session plays) → Strokes (samples → dabs) → Kernels (pixels, on Compute, the
// "GPU") → Paint (the session) → X11Window (present) → quicksilver (the command line). Beside
// them: Geometry, ReplayFormat, Journal, Files, PNGFile and OpenRaster (.ora files), Portal (the
// desktop's file chooser, over D-Bus), and MyPaint's brushes: Dabs (the dab surface: a brush's
// dabs laid on a layer's tiles by the Kernels' dab kernel) and Brushes (libmypaint's dynamics
// driving it, .myb files, the installed brushes). Not in the
// product: quicksilver-bench (the benchmarks, `make bench`), brush-render (a brush painting a
// recording, libmypaint's peer) and Measures (their yardsticks, which the tests use too).
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
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        // Libraries opened at their first call (CLazy.h): Xlib with MIT-SHM, XInput 2 and Present
        // (libx11-dev, libxext-dev, libxi-dev, libxpresent-dev) for the window, libzip (libzip-dev)
        // for OpenRaster files.
        .target(name: "CLazy"),
        .target(name: "CX11", dependencies: ["CLazy"]),
        .target(name: "CZip", dependencies: ["CLazy"]),
        // The text stack: fontconfig finds fonts, FreeType draws glyphs, HarfBuzz shapes runs.
        .systemLibrary(name: "CText", pkgConfig: "harfbuzz freetype2 fontconfig",
                      providers: [.apt(["libharfbuzz-dev", "libfreetype-dev", "libfontconfig-dev"])]),
        // libmypaint: the MyPaint brushes' dynamics (the Brushes module).
        .systemLibrary(name: "CMyPaint", pkgConfig: "libmypaint", providers: [.apt(["libmypaint-dev"])]),
        // libdbus: the session bus, where the desktop's file chooser is asked (the Portal module).
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CLinux"),
        // The vector loops Swift cannot spell: a 16-bit high multiply, the fused compose (AVX2) and
        // a turned view's bilinear rows (AVX-512 or AVX2), chosen at run time by the processor.
        .target(name: "CVector"),
        .target(name: "Geometry"),
        .target(name: "Compute", dependencies: ["Geometry"]),
        .target(name: "Clock", dependencies: ["CLinux"]),
        .target(name: "Input", dependencies: ["Geometry"]),
        .target(name: "Strokes", dependencies: ["Geometry"]),
        .target(name: "Kernels", dependencies: ["CVector", "Geometry", "Compute"]),
        .target(name: "Dabs", dependencies: ["Geometry", "Compute", "Kernels"]),
        .target(name: "Brushes", dependencies: ["CMyPaint", "CMalloc", "Geometry", "Compute", "Kernels", "Dabs", "Files"]),
        .target(name: "Events", dependencies: ["Geometry", "Input", "Strokes", "Kernels"]),
        .target(name: "ReplayFormat", dependencies: ["Geometry", "Input", "Strokes", "Kernels", "Events"]),
        .target(name: "Paint", dependencies: ["Geometry", "Compute", "Clock", "Strokes", "Kernels", "Events", "ReplayFormat", "Dabs", "Brushes"]),
        // fontconfig, FreeType and HarfBuzz, and libdbus, opened at their first call too (CLazy.h;
        // their headers need pkg-config's paths, so they stay system libraries, and these stand in).
        .target(name: "LazyText", dependencies: ["CLazy", "CText"]),
        .target(name: "LazyDBus", dependencies: ["CLazy", "CDBus"]),
        .target(name: "Text", dependencies: ["CText", "LazyText"]),
        .target(name: "Files"),
        .target(name: "PNGFile", dependencies: ["CPNG", "CDeflate", "Files"]),
        .target(name: "OpenRaster", dependencies: ["CZip", "Geometry", "Files", "PNGFile"]),
        .target(name: "Journal", dependencies: ["CDeflate", "Geometry", "Compute", "Kernels", "Events", "ReplayFormat", "Paint", "Files", "PNGFile", "OpenRaster"]),
        .target(name: "Portal", dependencies: ["CDBus", "LazyDBus"]),
        .target(name: "App", dependencies: ["Geometry", "Compute", "Clock", "Input", "Strokes", "Kernels", "Events",
                                            "ReplayFormat", "Paint", "Brushes", "Files", "PNGFile", "Journal", "UI", "Portal"]),
        .target(name: "X11Window", dependencies: ["CX11", "Geometry", "Compute", "Clock", "Input"]),
        .target(name: "UI", dependencies: ["Geometry", "Compute", "Kernels", "Strokes", "Events", "Text"]),
        // The libFuzzer targets' bodies, and an executable for each (`make fuzz` builds them with libFuzzer).
        .target(name: "Fuzzing", dependencies: ["CDeflate", "CX11", "Geometry", "Compute", "Clock", "Input", "Events", "ReplayFormat", "Paint",
                                                "PNGFile", "X11Window", "Files", "OpenRaster", "Journal"]),
        .executableTarget(name: "fuzz-replay", dependencies: ["Fuzzing"]),
        .executableTarget(name: "fuzz-replay-fast-path", dependencies: ["Fuzzing"]),
        .executableTarget(name: "fuzz-png", dependencies: ["Fuzzing"]),
        .executableTarget(name: "fuzz-x11-events", dependencies: ["Fuzzing"]),
        .executableTarget(name: "fuzz-ora", dependencies: ["Fuzzing"]),
        // The benchmarks, a program of their own that `make bench` runs and `make install` leaves out;
        // Measures, the geometry yardsticks it and the Strokes and Paint tests share (not in quicksilver).
        .target(name: "Measures", dependencies: ["Geometry", "Strokes"]),
        .executableTarget(
            name: "quicksilver-bench",
            dependencies: [
                "Geometry", "Compute", "Clock", "Input", "Strokes", "Kernels", "Events", "ReplayFormat", "Paint",
                "Files", "PNGFile", "Journal", "App", "UI", "X11Window", "Measures", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A brush painting a recording, as a process of its own: the peer of libmypaint's
        // (Tests/Bench/mypaint-render.c) in `make bench` and docs/brushes.md's table.
        .executableTarget(name: "brush-render", dependencies: ["Geometry", "Compute", "Kernels", "Dabs", "Brushes", "Files", "PNGFile", "Measures"]),
        .executableTarget(
            name: "quicksilver",
            dependencies: [
                "Geometry", "Compute", "Clock", "Input", "Strokes", "Kernels", "Events", "ReplayFormat", "Paint",
                "Brushes", "Files", "PNGFile", "Journal", "App", "UI", "X11Window", "Portal", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ComputeTests", dependencies: ["Geometry", "Compute"]),
        .testTarget(name: "ClockTests", dependencies: ["Clock"]),
        .testTarget(name: "DabsTests", dependencies: ["Geometry", "Compute", "Kernels", "Dabs", "PNGFile"]),
        .testTarget(name: "BrushesTests", dependencies: ["Geometry", "Compute", "Kernels", "Dabs", "Brushes", "PNGFile", "Measures"]),
        .testTarget(name: "StrokesTests", dependencies: ["Geometry", "Strokes", "Measures"]),
        .testTarget(name: "KernelsTests", dependencies: ["Geometry", "Kernels", "Compute", "PNGFile"]),
        .target(name: "TestSupport", dependencies: ["Geometry", "Compute", "Clock", "ReplayFormat", "Paint", "PNGFile", "Journal"],
                path: "Tests/TestSupport"),
        .testTarget(name: "ReplayFormatTests", dependencies: ["Geometry", "Compute", "Input", "Strokes", "Kernels", "Events", "ReplayFormat",
                                                            "Paint", "Fuzzing", "TestSupport"]),
        .testTarget(name: "PaintTests", dependencies: ["Geometry", "Compute", "Clock", "Input", "Strokes", "Kernels", "Events",
                                                      "ReplayFormat", "Paint", "PNGFile", "Journal", "TestSupport", "Measures"]),
        .testTarget(name: "JournalTests", dependencies: ["Geometry", "Compute", "Clock", "Input", "Strokes", "Kernels", "Events",
                                                        "ReplayFormat", "Paint", "Files", "PNGFile", "OpenRaster", "Journal", "TestSupport"]),
        .testTarget(name: "PNGFileTests", dependencies: ["CDeflate", "Files", "PNGFile", "TestSupport"]),
        .testTarget(name: "FilesTests", dependencies: ["Files", "TestSupport"]),
        .testTarget(name: "OpenRasterTests", dependencies: ["Geometry", "Files", "PNGFile", "OpenRaster", "TestSupport"], exclude: ["Support"]),
        .testTarget(name: "AppTests", dependencies: ["Geometry", "Compute", "Clock", "Input", "Events", "ReplayFormat", "Paint", "Brushes", "Portal",
                                                    "Files", "PNGFile", "Journal", "App", "Strokes", "Kernels", "UI", "TestSupport"]),
        .testTarget(name: "UITests", dependencies: ["Geometry", "Compute", "Kernels", "Strokes", "Events", "PNGFile", "UI", "TestSupport"]),
        .testTarget(name: "TextTests", dependencies: ["Text", "PNGFile", "TestSupport"]),
        .testTarget(name: "PortalTests", dependencies: ["Portal", "TestSupport"]),
        .testTarget(name: "X11WindowTests", dependencies: ["CX11", "Geometry", "Input", "X11Window"]),
        // Depends on the executables so that `swift test` builds the binaries it runs.
        .testTarget(name: "EndToEndTests", dependencies: ["PNGFile", "quicksilver", "quicksilver-bench", "TestSupport"], exclude: ["Support"]),
        // Tests/Soak (make soak) and Tests/Fixtures (fuzz seeds and dictionaries, goldens) hold no Swift target.
    ],
    swiftLanguageModes: [.v6]
)
