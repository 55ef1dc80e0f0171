extension Rect {
    /// `pieces` without the empty ones, any two merged into their bounds where those cover at
    /// most a quarter more than the two do (touching or overlapping pieces, a piece beside
    /// another): what a frame composes, where each rectangle costs its area and a little more.
    public static func mergedPieces(_ pieces: [Rect]) -> [Rect] {
        var out = pieces.filter { !$0.isEmpty }
        var merging = true
        while merging {
            merging = false
            search: for i in out.indices {
                for j in out.indices where j > i {
                    let bounds = out[i].union(out[j])
                    guard bounds.area * 4 <= (out[i].area + out[j].area) * 5 else { continue }
                    out[i] = bounds
                    out.remove(at: j)
                    merging = true
                    break search
                }
            }
        }
        return out
    }
}

extension Rect {
    /// What of it lies outside `other`: up to four pieces (above, below, left, right of it).
    public func subtracting(_ other: Rect) -> [Rect] {
        let cut = intersection(other)
        guard !cut.isEmpty else { return isEmpty ? [] : [self] }
        return [Rect(minX: minX, minY: minY, maxX: maxX, maxY: cut.minY),
                Rect(minX: minX, minY: cut.maxY, maxX: maxX, maxY: maxY),
                Rect(minX: minX, minY: cut.minY, maxX: cut.minX, maxY: cut.maxY),
                Rect(minX: cut.maxX, minY: cut.minY, maxX: maxX, maxY: cut.maxY)].filter { !$0.isEmpty }
    }
}
