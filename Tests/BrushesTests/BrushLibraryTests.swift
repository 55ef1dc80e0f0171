import Brushes
import Foundation
import Testing

/// The stock brushes (Debian's mypaint-brushes 2.0, which `make test` installs), found where
/// MyPaint looks.
@Suite struct BrushLibraryTests {
    @Test func searchFoldersAsMyPaint() {
        #expect(BrushLibrary.searchFolders(environment: ["HOME": "/home/a"]) ==
                ["/home/a/.local/share/mypaint-data/2.0/brushes", "/usr/local/share/mypaint-data/2.0/brushes",
                 "/usr/share/mypaint-data/2.0/brushes"])
        #expect(BrushLibrary.searchFolders(environment: ["HOME": "/home/a", "XDG_DATA_HOME": "/data", "XDG_DATA_DIRS": "/x:/y:/x"]) ==
                ["/data/mypaint-data/2.0/brushes", "/x/mypaint-data/2.0/brushes", "/y/mypaint-data/2.0/brushes"])
    }

    @Test func everyStockBrushLoads() throws {
        let library = BrushLibrary.installed(environment: ["HOME": "/nonexistent"])
        try #require(library.brushes.count >= 196, "mypaint-brushes 2.0 is not installed (make test-deps installs it)")
        #expect(Set(library.packs).isSuperset(of: ["classic", "deevad", "ramon", "tanda", "kaerhon_v1", "Dieterle", "experimental"]))
        // MyPaint's order.conf puts Dieterle first.
        #expect(library.packs.first == "Dieterle")
        let charcoal = try #require(library.entry(named: "classic/charcoal"))
        #expect(charcoal.pack == "classic")
        #expect(charcoal.icon?.hasSuffix("classic/charcoal_prev.png") == true)
        var failures: [String] = []
        for brush in library.brushes {
            do {
                _ = try BrushEngine(settings: try BrushLibrary.load(brush.path), path: brush.path)
            } catch {
                failures.append(error.description)
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(library.brushes.filter { $0.icon == nil }.map(\.name) == [])
    }

    /// A brush in an earlier folder hides one of the same name in a later one; a file given by
    /// path is read as it is.
    @Test func earlierFoldersWin() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("qs-brushes-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let user = root + "/user/mypaint-data/2.0/brushes", system = root + "/system/mypaint-data/2.0/brushes"
        for folder in [user + "/classic", system + "/classic", system + "/extra"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let brush = #"{"version": 3, "settings": {"opaque": {"base_value": %@, "inputs": {}}}}"#
        try String(format: brush, "0.25").write(toFile: user + "/classic/pen.myb", atomically: true, encoding: .utf8)
        try String(format: brush, "0.75").write(toFile: system + "/classic/pen.myb", atomically: true, encoding: .utf8)
        try String(format: brush, "0.5").write(toFile: system + "/extra/dot.myb", atomically: true, encoding: .utf8)
        try "broken {".write(toFile: system + "/extra/broken.myb", atomically: true, encoding: .utf8)
        let library = BrushLibrary.installed(environment: ["XDG_DATA_HOME": root + "/user", "XDG_DATA_DIRS": root + "/system"])
        #expect(library.brushes.map(\.name) == ["classic/pen", "extra/broken", "extra/dot"])
        #expect(try library.settings(named: "classic/pen").settings.first?.baseValue == 0.25)
        #expect(throws: BrushError(path: system + "/extra/broken.myb", line: 1, message: "unexpected 'b', expected a value")) {
            try library.settings(named: "extra/broken")
        }
        #expect(throws: BrushError.self) { try library.settings(named: "classic/nothing") }
    }
}
