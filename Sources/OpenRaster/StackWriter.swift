import Geometry

/// stack.xml written: `<image version="0.0.5" w h>`, one `<stack>`, the layers top first, each
/// with every attribute ORA 0.0.5 names and then its extra ones; a group as a nested `<stack>`
/// around what it holds, with `isolation` "isolate" or "auto" (as Krita writes them). Values are
/// escaped so that the reader gets them back exactly, tabs and newlines included.
enum StackWriter {
    /// A layer as written: where its (cropped) PNG went and lies.
    struct Layer {
        var layer: ORALayer
        var src: String
        var x: Int, y: Int
    }

    /// `layers` top first.
    static func xml(size: Size, attributes: [ORAAttribute], layers: [Layer]) throws(ORAError) -> [UInt8] {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let image = [ORAAttribute("version", "0.0.5"), ORAAttribute("w", "\(size.width)"), ORAAttribute("h", "\(size.height)")]
        let declared = prefixesDeclared(by: attributes)
        text += "<image" + (try attributeText(image, extra: attributes, declared: declared, of: "<image>")) + ">\n"
        text += " <stack>\n"
        // The nested stacks open, innermost last; an entry no deeper than one closes it.
        var open = 0
        for written in layers {
            let l = written.layer
            let depth = min(max(l.depth, 0), open)
            while open > depth {
                open -= 1
                text += String(repeating: " ", count: open + 2) + "</stack>\n"
            }
            let opacity = ORAAttribute("opacity", "\(l.opacity.isNaN ? 1 : min(max(l.opacity, 0), 1))")
            let visibility = ORAAttribute("visibility", l.visible ? "visible" : "hidden")
            let indent = String(repeating: " ", count: depth + 2), what = "layer \(ORAText.quoted(l.name))"
            let declaredHere = declared.union(prefixesDeclared(by: l.extraAttributes))
            if case .stack(let isolated) = l.kind {
                let own = [ORAAttribute("name", l.name), opacity, visibility, ORAAttribute("composite-op", l.compositeOp),
                           ORAAttribute("isolation", isolated ? "isolate" : "auto")]
                text += indent + "<stack" + (try attributeText(own, extra: l.extraAttributes, declared: declaredHere, of: what)) + ">\n"
                open += 1
            } else {
                let own = [ORAAttribute("name", l.name), ORAAttribute("src", written.src), ORAAttribute("x", "\(written.x)"),
                           ORAAttribute("y", "\(written.y)"), opacity, visibility, ORAAttribute("composite-op", l.compositeOp)]
                text += indent + "<layer" + (try attributeText(own, extra: l.extraAttributes, declared: declaredHere, of: what)) + "/>\n"
            }
        }
        while open > 0 {
            open -= 1
            text += String(repeating: " ", count: open + 2) + "</stack>\n"
        }
        text += " </stack>\n</image>\n"
        return Array(text.utf8)
    }

    /// ` name="value"` for each of `own`, then each of `extra` whose name is not among them (what
    /// the document says itself wins over an extra attribute of the same name, the first of two extra
    /// ones). A name with a namespace prefix must have it `declared` (by an xmlns:prefix attribute
    /// here or on <image>): readers that know namespaces refuse the whole file otherwise.
    private static func attributeText(_ own: [ORAAttribute], extra: [ORAAttribute], declared: Set<Substring>,
                                      of what: String) throws(ORAError) -> String {
        let ownNames = Set(own.map(\.name))
        var seen: Set<String> = []
        var text = ""
        for attribute in own + extra.filter({ !ownNames.contains($0.name) && seen.insert($0.name).inserted }) {
            let parts = attribute.name.split(separator: ":", omittingEmptySubsequences: false)
            guard XMLName.isName(attribute.name), parts.count <= 2, parts.allSatisfy({ !$0.isEmpty }) else {
                throw ORAError(entry: "stack.xml", message: "\(what): attribute name \(ORAText.quoted(attribute.name)) is not an XML name")
            }
            if parts.count == 2, !["xml", "xmlns"].contains(parts[0]), !declared.contains(parts[0]) {
                throw ORAError(entry: "stack.xml", message: "\(what): attribute \(attribute.name) has a namespace prefix declared nowhere")
            }
            text += " \(attribute.name)=\"\(escaped(attribute.value))\""
        }
        return text
    }

    /// The prefixes that xmlns:prefix attributes among `attributes` declare.
    private static func prefixesDeclared(by attributes: [ORAAttribute]) -> Set<Substring> {
        Set(attributes.compactMap { $0.name.hasPrefix("xmlns:") ? $0.name.dropFirst(6) : nil })
    }

    /// The value for a double-quoted attribute. Characters XML cannot hold at all (controls other
    /// than tab, newline and carriage return) become U+FFFD.
    static func escaped(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
