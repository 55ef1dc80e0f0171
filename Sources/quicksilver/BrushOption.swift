import Events
import Files
import Paint

/// `--brush NAME|FILE.myb`: the MyPaint brush a window starts with, as the brush event it
/// journals: an installed brush by name ("classic/charcoal"), or a .myb file (named by its file
/// name), its settings embedded either way, so the journal never depends on installed files.
enum BrushOption {
    /// The largest .myb file read (the stock ones are under 20 KB).
    static let maxFileBytes = 4 << 20

    /// The brush event `argument` names, or why there is none, in one line.
    static func choice(_ argument: String, brushes: InstalledBrushes) -> Result<MyPaintChoice, InstalledBrushes.Refusal> {
        var choice = MyPaintChoice(name: argument)
        if argument.hasSuffix(".myb") {
            let bytes: [UInt8]
            do { bytes = try FileBytes.read(argument, limit: maxFileBytes) } catch {
                return .failure(InstalledBrushes.Refusal(message: "cannot read it: \(error.reason)"))
            }
            let file = argument.split(separator: "/").last.map(String.init) ?? argument
            choice = MyPaintChoice(name: String(file.dropLast(4)), settings: String(decoding: bytes, as: UTF8.self))
        }
        return brushes.complete(choice)
    }
}
