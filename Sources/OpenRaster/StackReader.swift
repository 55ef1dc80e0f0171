import Geometry

/// stack.xml read into the image's size and a flat list of layers, top first as the file lists
/// them, each naming the PNG it takes its pixels from. A nested stack is an entry of the list
/// (`kind` a stack, no src) followed by what it holds, one deeper; its offset is added to its
/// layers' (a stack keeps none of its own). The root stack's offset, opacity and visibility
/// apply to every layer.
enum StackReader {
    /// A `<layer>` or nested `<stack>` read, its pixels not yet.
    struct Layer {
        var kind = ORALayer.Kind.layer
        var depth = 0
        var name: String
        /// The archive entry, normalised ("./data/a.png" is "data/a.png").
        var src: String
        var x: Int, y: Int
        var opacity: Double
        var visible: Bool
        var compositeOp: String
        var extraAttributes: [ORAAttribute]
    }

    struct Stack {
        var size: Size
        var attributes: [ORAAttribute]
        /// Top first.
        var layers: [Layer]
        var notes: [String]
    }

    /// Offsets beyond this are refused: sums of them cannot overflow, and it is twice the
    /// plane this program paints on (±1.25·2³⁰ px), so any layer of it can lie anywhere from
    /// any frame.
    static let maxOffset = 1 << 32

    static func read(_ bytes: [UInt8], maxSide: Int, maxLayers: Int = OpenRaster.maxLayers) throws(ORAError) -> Stack {
        let root: XMLReader.Element
        do { root = try XMLReader.parse(bytes) } catch { throw ORAError(entry: "stack.xml:\(error.line)", message: error.message) }
        guard root.name == "image" else { throw problem(root, "the root element is <\(root.name)>, not <image>") }
        let width = try whole(root, "w", in: 1...Int.max, required: true) ?? 0
        let height = try whole(root, "h", in: 1...Int.max, required: true) ?? 0
        guard width <= maxSide, height <= maxSide else {
            throw problem(root, "\(width)x\(height) pixels is larger than the \(maxSide)x\(maxSide) limit")
        }
        var walk = Walk(maxLayers: maxLayers)
        let stacks = root.children.filter { $0.name == "stack" }
        if let first = stacks.first {
            // The root stack's own offset, opacity and visibility apply to every layer, as a nested one's do.
            let place = try placement(first, notes: &walk.notes)
            try walk.stack(first, x: place.x, y: place.y, opacity: place.opacity, visible: place.visible, depth: 0)
        } else {
            walk.notes.append("stack.xml has no <stack>: the image has no layers")
        }
        for other in root.children where other.name != "stack" { walk.skipped[other.name, default: 0] += 1 }
        if stacks.count > 1 { walk.notes.append("\(stacks.count - 1) more <stack> under <image> skipped (only the first is read)") }
        var kept = walk.fitting(root.attributes.filter { !["w", "h", "version"].contains($0.name) })
        // A stack's namespace declarations go up to <image> too, so that the prefixed attributes
        // of its layers are declared when written back wherever they end up.
        for declaration in walk.declarations where !kept.contains(where: { $0.name == declaration.name }) { kept.append(declaration) }
        return Stack(size: Size(width: width, height: height), attributes: kept, layers: walk.layers, notes: walk.summary())
    }

    /// The walk through the stacks, gathering layers and what changed.
    private struct Walk {
        let maxLayers: Int
        var layers: [Layer] = []
        /// Names cut to `DocumentLimits.nameBytes`: how many, and the first (quoted as a note
        /// shows it, and its length in bytes; never the whole name kept).
        var cutNames = 0, firstCutName = "", firstCutBytes = 0
        /// The names of attributes left out for their length, each once, in file order.
        var longAttributes: [String] = []
        var notes: [String] = []
        var skipped: [String: Int] = [:]
        var declarations: [ORAAttribute] = []

        /// The children of `element`, `depth` stacks deep; the root stack's `opacity` and
        /// `visible` apply to every layer (a nested stack's are its own, as a group's).
        mutating func stack(_ element: XMLReader.Element, x: Int, y: Int, opacity: Double, visible: Bool, depth: Int) throws(ORAError) {
            declarations += element.attributes.filter { $0.name.hasPrefix("xmlns:") }
            for child in element.children {
                switch child.name {
                case "layer", "stack":
                    guard layers.count < maxLayers else {
                        throw StackReader.problem(child, "more layers than the \(DocumentLimits.maxLayers) a document may hold")
                    }
                    var layer = try StackReader.layer(child, notes: &notes)
                    layer.depth = depth
                    layer.name = fitting(name: layer.name)
                    layer.extraAttributes = fitting(layer.extraAttributes)
                    layer.opacity *= opacity
                    layer.visible = layer.visible && visible
                    if child.name == "stack" {
                        guard depth < DocumentLimits.maxDepth else {
                            throw StackReader.problem(child, "groups nested deeper than the \(DocumentLimits.maxDepth) a document may hold")
                        }
                        layers.append(layer)
                        // What it holds, with its offset; its opacity and visibility are the group's.
                        try stack(child, x: x + layer.x, y: y + layer.y, opacity: 1, visible: true, depth: depth + 1)
                    } else {
                        layer.x += x; layer.y += y
                        layers.append(layer)
                    }
                default:
                    skipped[child.name, default: 0] += 1
                }
            }
        }

        /// `name`, cut to `DocumentLimits.nameBytes` of whole characters when longer (counted).
        /// Takes time in the characters kept, not in the name's length (a 15 MiB name costs one
        /// pass to count its bytes).
        mutating func fitting(name: String) -> String {
            guard name.utf8.count > DocumentLimits.nameBytes else { return name }
            if cutNames == 0 { (firstCutName, firstCutBytes) = (ORAText.quoted(name), name.utf8.count) }
            cutNames += 1
            var end = name.startIndex, bytes = 0
            while end < name.endIndex {
                let next = name.index(after: end)
                let size = name.utf8.distance(from: end, to: next)
                guard bytes + size <= DocumentLimits.nameBytes else { break }
                bytes += size
                end = next
            }
            return String(name[..<end])
        }

        /// `attributes` without those longer than `DocumentLimits.attributeBytes` (noted).
        mutating func fitting(_ attributes: [ORAAttribute]) -> [ORAAttribute] {
            attributes.filter { attribute in
                guard attribute.value.utf8.count > DocumentLimits.attributeBytes else { return true }
                if !longAttributes.contains(attribute.name) { longAttributes.append(attribute.name) }
                return false
            }
        }

        func summary() -> [String] {
            var all: [String] = []
            all += notes
            if cutNames > 0 {
                all.append("\(cutNames == 1 ? "a layer name" : "\(cutNames) layer names") longer than \(DocumentLimits.nameBytes) bytes cut to "
                           + "\(cutNames == 1 ? "its" : "their") first \(DocumentLimits.nameBytes) (\(firstCutName), \(firstCutBytes) bytes)")
            }
            if !longAttributes.isEmpty {
                all.append("left out, longer than \(DocumentLimits.attributeBytes) bytes: "
                           + longAttributes.prefix(8).map { ORAText.oneLine($0, cut: 64) }.joined(separator: ", ")
                           + (longAttributes.count > 8 ? " and \(longAttributes.count - 8) more" : ""))
            }
            for (name, count) in skipped.sorted(by: { $0.key < $1.key }) {
                all.append("skipped \(count) <\(ORAText.oneLine(name, cut: 64))> element\(count == 1 ? "" : "s") (not raster layers)")
            }
            return all
        }
    }

    /// A `<layer>`, or a nested `<stack>`'s own attributes (its src empty).
    private static func layer(_ element: XMLReader.Element, notes: inout [String]) throws(ORAError) -> Layer {
        let isStack = element.name == "stack"
        let known = ["name", "src", "x", "y", "opacity", "visibility", "composite-op"] + (isStack ? ["isolation"] : [])
        let name = element.attribute("name") ?? ""
        var src = ""
        if !isStack {
            guard let rawSource = element.attribute("src") else { throw problem(element, "<layer> \(quoted(name))has no src") }
            src = try entryName(rawSource, element)
        }
        let place = try placement(element, notes: &notes)
        var layer = Layer(name: name, src: src, x: place.x, y: place.y, opacity: place.opacity, visible: place.visible,
                          compositeOp: element.attribute("composite-op") ?? ORALayer.defaultCompositeOp,
                          extraAttributes: element.attributes.filter { !known.contains($0.name) })
        // As Krita reads it: only "isolate" isolates.
        if isStack { layer.kind = .stack(isolated: element.attribute("isolation") == "isolate") }
        return layer
    }

    /// x, y, opacity and visibility, of a layer or a stack, with their defaults (0, 0, 1, visible).
    private static func placement(_ element: XMLReader.Element, notes: inout [String]) throws(ORAError)
        -> (x: Int, y: Int, opacity: Double, visible: Bool) {
        let what = "<\(element.name)> \(quoted(element.attribute("name") ?? ""))"
        let x = try whole(element, "x", in: -maxOffset...maxOffset) ?? 0
        let y = try whole(element, "y", in: -maxOffset...maxOffset) ?? 0
        var opacity = 1.0
        if let text = element.attribute("opacity") {
            guard let value = Double(text.trimmingXMLSpace), value.isFinite else {
                throw problem(element, "\(what)opacity \(ORAText.quoted(text)) is not a number")
            }
            opacity = min(max(value, 0), 1)
            if opacity != value { notes.append("\(what)opacity \(ORAText.oneLine(text, cut: 40)) read as \(opacity)") }
        }
        var visible = true
        if let text = element.attribute("visibility"), text != "visible" {
            visible = text != "hidden"
            if visible { notes.append("\(what)visibility \(ORAText.quoted(text)) read as visible") }
        }
        return (x, y, opacity, visible)
    }

    /// A src as an archive entry's name: relative, "." parts dropped and each ".." taking the
    /// part before it away ("data/../data/a.png" is "data/a.png"). A leading "/" or "\\", a
    /// drive or a URL scheme ("C:", "file:"), or a ".." with nothing before it to take away,
    /// leads out of the archive.
    private static func entryName(_ src: String, _ element: XMLReader.Element) throws(ORAError) -> String {
        let escapes = problem(element, "src \(ORAText.quoted(src)) leads out of the archive")
        guard !src.hasPrefix("/"), !src.hasPrefix("\\") else { throw escapes }
        var parts: [Substring] = []
        for part in src.split(separator: "/") where part != "." {
            guard !(parts.isEmpty && part.contains(":")) else { throw escapes }
            if part == ".." {
                guard parts.popLast() != nil else { throw escapes }
            } else {
                parts.append(part)
            }
        }
        guard !parts.isEmpty else { throw problem(element, "src \(ORAText.quoted(src)) names no file") }
        return parts.joined(separator: "/")
    }

    /// An integer attribute ("12", or "12.0" as some writers put it), nil when absent and not required.
    private static func whole(_ element: XMLReader.Element, _ name: String, in range: ClosedRange<Int>,
                              required: Bool = false) throws(ORAError) -> Int? {
        guard let text = element.attribute(name) else {
            if required { throw problem(element, "<\(element.name)> has no \(name)") }
            return nil
        }
        let trimmed = text.trimmingXMLSpace
        let value = Int(trimmed) ?? Double(trimmed).flatMap { $0.rounded() == $0 && abs($0) <= 1e15 ? Int($0) : nil }
        guard let value else { throw problem(element, "<\(element.name)> \(name) \(ORAText.quoted(text)) is not a whole number") }
        guard range.contains(value) else { throw problem(element, "<\(element.name)> \(name) \(value) is out of range") }
        return value
    }

    private static func quoted(_ name: String) -> String { name.isEmpty ? "" : ORAText.quoted(name) + " " }

    private static func problem(_ element: XMLReader.Element, _ message: String) -> ORAError {
        ORAError(entry: "stack.xml:\(element.line)", message: message)
    }
}

private extension String {
    /// Without the spaces, tabs and newlines XML allows around a value.
    var trimmingXMLSpace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
