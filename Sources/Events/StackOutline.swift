/// The groups of a stack of layers, from each entry's depth and whether it is a group: the
/// stack is a flat list, bottom first, and a group owns the entries directly below it that are
/// deeper than it (PSD's section markers work so). An entry with what it owns is a *block*, the
/// entries `blockStart(i)...i`. The document moves blocks by these; the layer panel works out
/// what a drag asks with them.
public struct StackOutline: Sendable, Equatable {
    /// Bottom first.
    public var depths: [Int]
    public var groups: [Bool]

    public init(depths: [Int], groups: [Bool]) { self.depths = depths; self.groups = groups }

    /// Whether any entry is a group or in one.
    public var hasGroups: Bool { groups.contains(true) || depths.contains { $0 != 0 } }

    /// The lowest entry of the block whose top is `i`: `i` itself unless `i` is a group with children.
    public func blockStart(_ i: Int) -> Int {
        var j = i
        while j > 0, depths[j - 1] > depths[i] { j -= 1 }
        return j
    }

    /// The group that holds entry `i`, if any.
    public func parent(of i: Int) -> Int? {
        guard depths[i] > 0 else { return nil }
        var j = i + 1
        while j < depths.count, depths[j] >= depths[i] { j += 1 }
        return j < depths.count && groups[j] ? j : nil
    }

    /// The top of the block just above block `i` in the same group, if any.
    public func siblingAbove(_ i: Int) -> Int? {
        var j = i + 1
        while j < depths.count, depths[j] > depths[i] { j += 1 }
        return j < depths.count && depths[j] == depths[i] ? j : nil
    }

    /// The top of the block just below block `i` in the same group, if any.
    public func siblingBelow(_ i: Int) -> Int? {
        let start = blockStart(i)
        return start > 0 && depths[start - 1] == depths[i] ? start - 1 : nil
    }

    /// What a drag of block `from` dropped on entry `to` asks, as layer operations: within its
    /// group, a move past the blocks between (onto a group: into it, as its bottom child);
    /// onto an entry outside its group, out of the group (one level a drag). Nothing onto itself.
    public func drop(_ from: Int, on to: Int) -> [LayerOp] {
        guard depths.indices.contains(from), depths.indices.contains(to), !(blockStart(from)...from).contains(to) else { return [] }
        guard hasGroups else { return [.move(to - from)] }
        // The block of `from`'s group that holds the target.
        var target = to
        while parent(of: target) != parent(of: from) {
            guard let up = parent(of: target) else { return parent(of: from) == nil ? [] : [.out] }
            target = up
        }
        var steps = 0, edge = from
        while edge != target {
            guard let next = target > from ? siblingAbove(edge) : siblingBelow(edge) else { return [] }
            edge = next
            steps += 1
        }
        guard to == target, groups[target] else { return [.move(target > from ? steps : -steps)] }
        // Onto a group: next to it, under it, then in.
        let move = target > from ? steps - 1 : -steps
        return (move == 0 ? [] : [.move(move)]) + [.into]
    }
}
