import Compute
import Geometry
import Kernels

/// The stack as the compose kernel reads it, groups worked out as Krita 5 composes them:
/// - a pass-through group is no layer of its own: its children blend straight onto what is
///   below it, each with its own mode, their opacity multiplied by the group's (Krita's
///   `mergeOpacity`: ⌊child × group / 255⌋), and hidden with it; its mode is not used;
/// - an isolated group's children are composed onto transparency, and the result blended onto
///   what is below with the group's mode and opacity (`ComposeKernel.Over.Pixels.group`);
/// - a hidden group hides what it holds.
///
/// Around the current layer: what lies below and above it in the stack's own level, and for
/// each isolated group that holds it (outermost first) a `ComposeKernel.Level`, so that the live
/// stroke is composed inside them. A stack without groups has no level: its layers below and
/// above, as they always were.
struct StackLayout {
    /// The stack's own level, below and above the current layer (or its outermost isolated group).
    var below: [ComposeKernel.Over] = []
    var above: [ComposeKernel.Over] = []
    /// The isolated groups that hold the current layer, outermost first.
    var levels: [ComposeKernel.Level] = []
    /// Whether the current layer shows (itself and every group holding it visible; a group
    /// never shows as a layer: what it holds is in `below`).
    var currentShown = false
    var currentOpacity: UInt32 = 255
    var currentMode = BlendMode.normal

    /// An entry and what it holds, bottom first.
    private struct Node {
        var index: Int
        var children: [Node] = []
    }

    init() {}

    init(_ d: Document) {
        let layers = d.layers
        let root = Self.tree(layers)
        // The path from the stack's own level down to the current entry.
        var path: [Node] = []
        func find(_ nodes: [Node]) -> Bool {
            for n in nodes {
                path.append(n)
                if n.index == d.current || find(n.children) { return true }
                path.removeLast()
            }
            return false
        }
        _ = find(root)
        var siblings = root, parentOpacity: UInt32 = 255
        var below: [ComposeKernel.Over] = [], above: [ComposeKernel.Over] = []
        var levels: [ComposeKernel.Level] = []
        // Puts what was gathered in the level being filled (the stack's own, or the innermost group).
        func close() {
            if levels.isEmpty { self.below = below; self.above = above } else {
                levels[levels.count - 1].below = below
                levels[levels.count - 1].above = above
            }
            below = []; above = []
        }
        for node in path {
            let k = siblings.firstIndex { $0.index == node.index } ?? 0
            below += Self.items(siblings[..<k], layers, parentOpacity)
            above = Self.items(siblings[(k + 1)...], layers, parentOpacity) + above
            let a = layers[node.index].attributes
            let opacity = Self.merge(a.opacity255, parentOpacity)
            guard a.visible else { break }
            if node.index == d.current {
                if a.group == nil {
                    currentShown = true
                    currentOpacity = opacity
                    currentMode = a.mode
                } else {
                    // A group chosen: all of it is below the (empty) current layer.
                    below += Self.items([node][...], layers, parentOpacity)
                }
                break
            }
            switch a.group {
            case .passThrough?:
                parentOpacity = opacity
            case .isolated?:
                close()
                levels.append(ComposeKernel.Level(opacity: opacity, mode: a.mode))
                parentOpacity = 255
            case nil:
                break
            }
            siblings = node.children
        }
        close()
        self.levels = levels
    }

    /// Krita's opacity of a child of a pass-through group: ⌊child × group / 255⌋ (the child's own
    /// when the group is opaque).
    static func merge(_ own: UInt32, _ parent: UInt32) -> UInt32 { parent == 255 ? own : own * parent / 255 }

    /// A layer's pixels and where they lie, by its index, where `items` is not to read its tiles.
    typealias Leaf = (Int) -> (pixels: ComposeKernel.Over.Pixels, bounds: Rect)?

    /// What group `index` holds, as the compose reads it inside an isolated group (the group's
    /// own visibility, opacity and mode left out), each layer's pixels from `leaf`.
    static func contents(ofGroup index: Int, in layers: [Layer], leaf: Leaf) -> [ComposeKernel.Over] {
        func find(_ nodes: [Node]) -> Node? {
            for n in nodes {
                if n.index == index { return n }
                if let found = find(n.children) { return found }
            }
            return nil
        }
        guard let node = find(tree(layers)) else { return [] }
        return items(node.children[...], layers, 255, leaf: leaf)
    }

    /// What the compose reads of `nodes` (bottom first): each visible layer, each visible
    /// isolated group as one, the children of each visible pass-through group in its place.
    /// `leaf`: each layer's pixels (nil: its own tiles).
    private static func items(_ nodes: ArraySlice<Node>, _ layers: [Layer], _ parentOpacity: UInt32,
                              leaf: Leaf = { _ in nil }) -> [ComposeKernel.Over] {
        var out: [ComposeKernel.Over] = []
        for node in nodes {
            let layer = layers[node.index], a = layer.attributes
            guard a.visible else { continue }
            let opacity = merge(a.opacity255, parentOpacity)
            switch a.group {
            case nil:
                let (pixels, bounds) = leaf(node.index) ?? (.tiles(layer.pixels), layer.bounds)
                out.append(ComposeKernel.Over(pixels: pixels, opacity: opacity, mode: a.mode, bounds: bounds))
            case .passThrough?:
                out += items(node.children[...], layers, opacity, leaf: leaf)
            case .isolated?:
                let inside = items(node.children[...], layers, 255, leaf: leaf)
                guard !inside.isEmpty else { continue }
                out.append(ComposeKernel.Over(pixels: .group(inside), opacity: opacity, mode: a.mode,
                                              bounds: inside.reduce(Rect.empty) { $0.union($1.bounds) }))
            }
        }
        return out
    }

    /// The entries as a tree, bottom first at each level. Read top first: an entry deeper than
    /// the groups open above it (a damaged stack) is taken as the child of the innermost one.
    private static func tree(_ layers: [Layer]) -> [Node] {
        // Open groups, innermost last, each with its children so far (top first).
        var open: [(node: Node, depth: Int)] = [(Node(index: -1), -1)]
        func closeTo(_ depth: Int) {
            while open.count > 1, open[open.count - 1].depth >= depth {
                var done = open.removeLast().node
                done.children.reverse()
                open[open.count - 1].node.children.append(done)
            }
        }
        for i in layers.indices.reversed() {
            let a = layers[i].attributes
            closeTo(min(a.depth, open.count - 1))
            if a.group != nil {
                open.append((Node(index: i), open.count - 1))
            } else {
                open[open.count - 1].node.children.append(Node(index: i))
            }
        }
        closeTo(0)
        return open[0].node.children.reversed()
    }
}
