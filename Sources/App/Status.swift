import Events
import Geometry
import Paint
import UI

/// What the window says about itself: the one value that both the title and the on-canvas
/// status strip show, so they can never disagree.
public struct Status: Equatable, Sendable {
    public var brush: Brush
    /// Where the pressure comes from and what it is: "pressure 0.50 (simulated)".
    public var pressure: String
    /// Which layer of how many, and how it is shown: "layer 2/3 Sky (multiply, 80 %)".
    public var layer: String
    /// "100 %".
    public var zoom: String
    /// What is asked of the user: a colour being typed, the picker armed.
    public var prompt: String?
    /// Why the journal or the recording is not being saved, while it is not.
    public var warning: String?
    /// What the last action did ("saved …", "pasted 64x48").
    public var message: String?
    /// The session is journaled (the strip says whether the journal is being written).
    public var journaled = false
    /// The document's file name ("untitled" for a new one), `*` first while it has unsaved
    /// changes, as GTK and Qt programs mark them.
    public var document: String
    /// Mirror painting while it is on ("mirror vertical", "rotation 6"); nil while off.
    public var symmetry: String?

    public init(brush: Brush, pressure: String, layer: String, zoom: String, prompt: String? = nil, warning: String? = nil,
                message: String? = nil, journaled: Bool = false, document: String = "untitled", symmetry: String? = nil) {
        self.brush = brush; self.pressure = pressure; self.layer = layer; self.zoom = zoom
        self.prompt = prompt; self.warning = warning; self.message = message; self.journaled = journaled
        self.document = document
        self.symmetry = symmetry
    }

    /// The window's title: the document first (what a task bar shows), then everything, on one line.
    public var title: String {
        var t = "\(document) — Quicksilver — \(brushName) \(brush.color) \(pressure) — \(layer) — \(zoom)"
        if brush.stabilizer > 0 { t += " — stabilizer \(stabilizerThirds)/3" }
        if let symmetry { t += " — \(symmetry)" }
        for part in [prompt, warning, message] { if let part { t += " — \(part)" } }
        return t
    }

    /// The status strip's content: the same facts, shorter.
    public var strip: StatusStrip {
        var fields = [document, brushName, brush.color.description, layer, zoom]
        if brush.stabilizer > 0 { fields.append("stabilizer \(stabilizerThirds)/3") }
        if let symmetry { fields.append(symmetry) }
        if journaled { fields.append(warning == nil ? "journal ok" : "journal NOT SAVED") }
        return StatusStrip(swatch: brush.color, fields: fields, notice: warning ?? prompt ?? message, warning: warning != nil)
    }

    /// The brush as the title and the strip name it: the MyPaint brush in use ("classic/charcoal"),
    /// else the kind and its size ("pen 8").
    public var brushName: String { brush.mypaint?.name ?? "\(brush.tip.kind.rawValue) \(brush.tip.size)" }

    /// How the title and the strip name a symmetry: nil while off.
    public static func describe(_ s: Symmetry) -> String? {
        switch s.mode {
        case .off: nil
        case .rotational: "rotation \(s.lines)"
        case .vertical, .horizontal, .both: "mirror \(s.mode.rawValue)"
        }
    }

    /// The stabilizer's strength in thirds (0: off).
    public var stabilizerThirds: Int { Int((brush.stabilizer * 3).rounded()) }

    /// "layer 2/3", its name where it is not a number ("layer 2/3 Sky"), whether it is a group,
    /// and its mode, opacity and visibility where they are not the defaults.
    static func describeLayer(_ d: Document) -> String {
        let a = d.currentLayer.attributes
        let numbered = a.name.hasPrefix("Layer ") && Int(a.name.dropFirst(6)) != nil
        var notes: [String] = []
        // A group says so, and how it composes (a pass-through group's mode is not used).
        if let group = a.group { notes.append(group == .isolated ? "isolated group" : "pass-through group") }
        if a.mode != .normal, a.group != .passThrough { notes.append(a.mode.name) }
        if a.opacity255 != 255 { notes.append("\(Int((a.opacity * 100).rounded())) %") }
        if !a.visible { notes.append("hidden") }
        return "layer \(d.current + 1)/\(d.layers.count)" + (numbered ? "" : " \(a.name)") + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")
    }
}
