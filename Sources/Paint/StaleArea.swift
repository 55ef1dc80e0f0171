import Geometry

/// Where a cache must be rebuilt before it is read: a few rectangles, taken some rows at a time
/// while catching up, or just the part a compose is about to read.
struct StaleArea {
    private(set) var rects: [Rect] = []
    /// More than this many rectangles become their bounding box (rebuilding a little more than
    /// stale costs less than tracking many small pieces).
    static let most = 16

    var isEmpty: Bool { rects.isEmpty }

    /// All of `rect` is stale, and nothing else.
    mutating func set(_ rect: Rect) { rects = rect.isEmpty ? [] : [rect] }

    mutating func add(_ rect: Rect) {
        guard !rect.isEmpty, !rects.contains(where: { $0.intersection(rect) == rect }) else { return }
        rects.append(rect)
        if rects.count > Self.most { rects = [rects.reduce(Rect.empty) { $0.union($1) }] }
    }

    /// Takes up to `pixels` stale pixels, rectangle by rectangle, the last one cut between rows
    /// (at least a row of it).
    mutating func take(pixels: Int) -> [Rect] {
        var taken: [Rect] = [], left = pixels
        while left > 0, let first = rects.first {
            let rows = max(1, left / max(1, first.width))
            guard rows < first.height else {
                taken.append(rects.removeFirst())
                left -= first.area
                continue
            }
            rects[0] = Rect(minX: first.minX, minY: first.minY + rows, maxX: first.maxX, maxY: first.maxY)
            taken.append(Rect(x: first.minX, y: first.minY, width: first.width, height: rows))
            break
        }
        return taken
    }

    /// Takes what is stale within `region`, keeping the rest.
    mutating func take(within region: Rect) -> [Rect] {
        var taken: [Rect] = [], kept: [Rect] = []
        for r in rects {
            let inside = r.intersection(region)
            if inside.isEmpty {
                kept.append(r)
                continue
            }
            taken.append(inside)
            kept += Self.subtract(inside, from: r)
        }
        rects = kept
        return taken
    }

    /// `r` less `hole` (which lies within it): the rows above and below the hole, and the parts
    /// left and right of it beside it.
    static func subtract(_ hole: Rect, from r: Rect) -> [Rect] {
        [Rect(minX: r.minX, minY: r.minY, maxX: r.maxX, maxY: hole.minY),
         Rect(minX: r.minX, minY: hole.maxY, maxX: r.maxX, maxY: r.maxY),
         Rect(minX: r.minX, minY: hole.minY, maxX: hole.minX, maxY: hole.maxY),
         Rect(minX: hole.maxX, minY: hole.minY, maxX: r.maxX, maxY: hole.maxY)].filter { !$0.isEmpty }
    }
}
