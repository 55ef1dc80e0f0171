import Compute
import Events
import Geometry
import Kernels

/// Groups in the flat stack. A group is an entry without pixels that owns the entries directly
/// below it that are deeper than it (`LayerAttributes.depth`), so the stack stays the bottom-first
/// list `select` and the journal count in. An entry with the ones it owns is a *block*: the
/// entries `blockStart(i)...i`. Every operation keeps a block together and is one undo step
/// made of the changes the flat stack already had (moves, insertions, removals, attributes).
extension Document {
    /// The stack's groups, as depths (see `StackOutline`).
    public var outline: StackOutline { StackOutline(depths: layers.map(\.attributes.depth), groups: layers.map(\.isGroup)) }

    /// The lowest entry of the block whose top is `i`.
    public func blockStart(_ i: Int) -> Int { outline.blockStart(i) }

    /// The group that holds entry `i`, if any.
    public func parent(of i: Int) -> Int? { outline.parent(of: i) }

    /// What group `index` holds, composed as an isolated group composes it (the group's own
    /// visibility, opacity and mode left out): its visible layers and groups, bottom first, for
    /// `ComposeKernel.blend` onto transparency. `pixels` gives a layer's picture, by index, and
    /// where in it the layer may have paint, where it is not its own tiles (a smaller picture of
    /// it: the layer panel's group thumbnails).
    public func contents(ofGroup index: Int,
                         pixels: (Int) -> (pixels: ComposeKernel.Over.Pixels, bounds: Rect)? = { _ in nil }) -> [ComposeKernel.Over] {
        StackLayout.contents(ofGroup: index, in: layers, leaf: pixels)
    }

    /// Wraps the current block in a new group (pass-through, as Krita makes them), named
    /// "Group N" unless a name is given; the current entry stays current.
    func group(named name: String?) {
        guard layers.count < DocumentLimits.maxLayers else { return }
        let top = current, start = blockStart(top)
        guard fitsOneDeeper(start...top) else { return }
        let group = Layer(attributes: LayerAttributes(name: name ?? nextGroupName(), group: .passThrough,
                                                      depth: layers[top].attributes.depth))
        var changes = deepen(start...top, by: 1)
        layers.insert(group, at: top + 1)
        changes.append(.inserted(group, at: top + 1))
        restacked = true
        record(changes)
    }

    /// Takes the current group away, its children staying where they are, one level up; the
    /// top child (or the entry below, for an empty group) becomes current. Never the stack's
    /// only entry (a file may hold nothing but an empty group).
    func ungroup() {
        let top = current
        guard layers[top].isGroup, layers.count > 1 else { return }
        let start = blockStart(top)
        var changes = deepen(start..<top, by: -1)
        let group = layers.remove(at: top)
        changes.append(.removed(group, at: top))
        current = max(0, top - 1)
        restacked = true
        record(changes, current: top)
    }

    /// Moves the current block into the group just above it (as its bottom child).
    func moveIntoGroupAbove() {
        let top = current
        guard let above = outline.siblingAbove(top), layers[above].isGroup, fitsOneDeeper(blockStart(top)...top) else { return }
        restacked = true
        record(deepen(blockStart(top)...top, by: 1))
    }

    /// Moves the current block out of its group, to just below the group.
    func moveOutOfGroup() {
        let top = current
        guard let parent = parent(of: top) else { return }
        let start = blockStart(top), groupStart = blockStart(parent)
        var changes = moveBlock(start...top, toStart: groupStart)
        let newStart = groupStart, newTop = groupStart + (top - start)
        changes += deepen(newStart...newTop, by: -1)
        current = newTop
        restacked = true
        record(changes, current: top)
    }

    /// The current block moved past `step` blocks of its group up (+) or down (−); nothing when
    /// there are not that many.
    func moveBlock(by step: Int) {
        let top = current, o = outline, start = o.blockStart(top)
        var newStart = start
        if step > 0 {
            var edge = top
            for _ in 0..<step {
                guard let next = o.siblingAbove(edge) else { return }
                edge = next
            }
            newStart = edge - (top - start)
        } else if step < 0 {
            var edge = top
            for _ in 0..<(-step) {
                guard let next = o.siblingBelow(edge) else { return }
                edge = next
            }
            newStart = o.blockStart(edge)
        }
        guard newStart != start else { return }
        let changes = moveBlock(start...top, toStart: newStart)
        current = newStart + (top - start)
        restacked = true
        record(changes, current: top)
    }

    /// Moves the entries `block` so that they start at `toStart`, one entry at a time (what
    /// `History` undoes); one move for a single entry, as a layer's move always was.
    private func moveBlock(_ block: ClosedRange<Int>, toStart t: Int) -> [History.Change] {
        let s = block.lowerBound, e = block.upperBound + 1
        if block.count == 1 {
            guard t != s else { return [] }
            layers.insert(layers.remove(at: s), at: t)
            return [.moved(from: s, to: t)]
        }
        var changes: [History.Change] = []
        if t > s {
            for j in 0..<(t - s) {
                layers.insert(layers.remove(at: e + j), at: s + j)
                changes.append(.moved(from: e + j, to: s + j))
            }
        } else {
            for j in 0..<(s - t) {
                layers.insert(layers.remove(at: s - 1 - j), at: e - 1 - j)
                changes.append(.moved(from: s - 1 - j, to: e - 1 - j))
            }
        }
        return changes
    }

    /// Whether every entry of `block` may go one level deeper (`DocumentLimits.maxDepth`).
    private func fitsOneDeeper(_ block: ClosedRange<Int>) -> Bool {
        block.allSatisfy { layers[$0].attributes.depth < DocumentLimits.maxDepth }
    }

    /// Each entry of `range` one level deeper (+1) or shallower (−1); the changes that undo it.
    private func deepen<R: Sequence<Int>>(_ range: R, by step: Int) -> [History.Change] {
        range.map { i in
            let layer = layers[i], old = layer.attributes
            layer.attributes.depth = max(0, old.depth + step)
            return .attributes(layer, old)
        }
    }

    /// "Group N", the next number no group's name uses.
    private func nextGroupName() -> String {
        let used = layers.compactMap { l -> Int? in
            guard l.isGroup, l.name.hasPrefix("Group ") else { return nil }
            return Int(l.name.dropFirst(6))
        }
        return "Group \((used.max() ?? 0) + 1)"
    }
}
