import Brushes
import Events
import Paint
import UI

/// The MyPaint brushes the window offers: every installed one, pack by pack, for the brush
/// chooser; the favourites the palette's ring shows (the brushes last chosen, remembered between
/// sessions in `RecentBrushesFile`, then the stock `defaults`); and what completes a choice with
/// its brush's settings, so the journal embeds them as it does for `--brush`.
public final class BrushShelf {
    /// The ring's brushes when none has been chosen yet, among the stock ones (Debian's
    /// `mypaint-brushes`): a sketching pencil, inks, a charcoal, paint brushes, a marker, a
    /// watercolour, an airbrush and a smudger, from MyPaint's classic pack and David Revoy's.
    public static let defaults = ["classic/pencil", "deevad/2B_pencil", "classic/pen", "classic/charcoal", "classic/brush",
                                  "deevad/basic_digital_brush", "classic/marker_fat", "deevad/watercolor_glazing", "deevad/airbrush",
                                  "classic/smudge"]

    public let library: BrushLibrary
    public let icons: BrushIconCache
    private let installed: InstalledBrushes
    private let file: RecentBrushesFile?
    private let console: Console
    /// The brushes chosen, the latest first (as remembered, installed or not).
    public private(set) var recent: [String]

    /// The brushes in `library`, the recent ones read from `file` (nil: none remembered); a
    /// damaged file is said on `console` in one line.
    public init(library: BrushLibrary, file: RecentBrushesFile?, console: Console = .standard) {
        self.library = library
        self.file = file
        self.console = console
        installed = InstalledBrushes(library: library)
        icons = BrushIconCache(files: Dictionary(library.brushes.compactMap { e in e.icon.map { (e.name, $0) } }, uniquingKeysWith: { a, _ in a }))
        let (names, problem) = file?.load() ?? ([], nil)
        if let problem { console.err(problem) }
        recent = names
    }

    /// The ring: the installed brushes among the recent ones, then among the defaults, then the
    /// library's first, up to `BrushRing.count`; none when no brush is installed.
    public var favourites: [String] {
        var ring: [String] = []
        for name in recent + Self.defaults + library.brushes.map(\.name) where ring.count < BrushRing.count {
            if !ring.contains(name), library.entry(named: name) != nil { ring.append(name) }
        }
        return ring
    }

    /// The packs and their brushes, in the library's order, for the chooser.
    public var groups: [BrushChooser.Group] {
        library.packs.map { pack in BrushChooser.Group(pack: pack.isEmpty ? "other" : pack, brushes: library.brushes.filter { $0.pack == pack }.map(\.name)) }
    }

    /// `choice` with its brush's settings (read from its .myb), or why it cannot be had.
    public func complete(_ choice: MyPaintChoice) -> Result<MyPaintChoice, InstalledBrushes.Refusal> { installed.complete(choice) }

    /// `name` was chosen: it becomes the most recent, and the file remembers it (a file that
    /// cannot be written is said in one line; the window goes on).
    public func used(_ name: String) {
        recent = [name] + recent.filter { $0 != name }.prefix(RecentBrushesFile.maxCount - 1)
        do { try file?.save(recent) } catch { console.err("quicksilver: cannot remember the brushes chosen: \(error)") }
    }
}
