import Compute
import Geometry
import Kernels

/// What the compose kernel reads of the document, kept so that a frame costs what the stroke
/// changed whatever the number of layers: the background and the visible layers below the
/// current one flattened into one opaque cache, and the visible layers above it flattened into
/// another where all of them are `normal` (source-over is associative; other modes need the
/// backdrop, so those layers are then read one by one). Both follow the document's damage.
/// Groups are worked out by `StackLayout`; what isolated groups holding the current layer
/// hold is read every frame, not cached.
///
/// Another layer made current changes no pixel shown, but both caches: they are then rebuilt
/// a band of rows a frame (`catchUp`) while nothing is composed, so that a click in the layer
/// panel costs the panel's frame, not a flattening of every layer; a compose before they are
/// done rebuilds first just the stale part it reads (`complete(within:)`: the panel's redraw
/// reads the canvas under the panel).
final class StackView {
    /// The flattened layers below the current one, in tiles: made only where one of them has a
    /// tile (elsewhere the kernel fills with the background), and only where read.
    private var below: TiledTexture?
    private var above = TiledTexture()
    /// What the kernel reads above the current layer: the cache, or the layers one by one, with
    /// where each has pixels (worked out when something above changed, not every frame).
    private var overs: [ComposeKernel.Over] = []
    /// The tiles of each cache that are up to date (whether they hold a tile or not): the
    /// caches are made where they are read, never over the whole (endless) canvas.
    private var belowFresh = Set<TileKey>()
    private var aboveFresh = Set<TileKey>()
    /// Whether the layers above are read through the `above` cache (all `normal`).
    private var aboveCached = false
    /// The background the below cache was built over (the pulse changes it every frame).
    private var builtOver: UInt32?
    /// The stack the caches were built for: which layer is current, and each layer with what
    /// the compose reads of its attributes. Any change rebuilds them whole.
    private var builtFor: [StackEntry] = []
    /// The stack as the kernel reads it, made again when the stack or a layer other than the
    /// current one changed.
    private var layout = StackLayout()
    /// The caches are stale and being rebuilt over the frames (see the type's comment).
    private(set) var isCatchingUp = false
    /// The part of the canvas the window shows: what catching up rebuilds, and what the caches
    /// keep when they grow large.
    var viewed = Rect.empty
    /// Rows of the canvas a frame rebuilds while catching up (in pixels, wherever they are
    /// stale): an eighth of a 1080p canvas.
    static let catchUpRows = 136

    private struct StackEntry: Equatable {
        var layer: ObjectIdentifier
        var current: Bool
        var visible: Bool
        var opacity: UInt32
        var mode: BlendMode
        var group: Isolation?
        var depth: Int

        /// What the picture shows of it: all but whether it is current.
        var look: StackEntry {
            var e = self
            e.current = false
            return e
        }
    }

    /// Takes the document's damage and brings the caches up to date, showing `background`
    /// under the stack. Returns the canvas area whose shown pixels changed, and whether the
    /// whole of it did.
    func update(_ document: Document, background: Color, on compute: ComputeContext) -> (damage: Rect, whole: Bool) {
        let (pixels, restacked) = document.takeDamage()
        var damage = Rect.empty
        let stack = document.layers.enumerated().map { i, l in
            StackEntry(layer: ObjectIdentifier(l), current: i == document.current, visible: l.attributes.visible,
                       opacity: l.attributes.opacity255, mode: l.attributes.mode, group: l.attributes.group, depth: l.attributes.depth)
        }
        // Only which layer is current changed: the picture is as it was.
        let reselected = stack != builtFor && stack.map(\.look) == builtFor.map(\.look)
        // Only one layer's eye, opacity or mode changed: the picture changes where it has pixels.
        let relooked = Self.onlyRelooked(stack, was: builtFor)
        var whole = (restacked || (stack != builtFor && !reselected)) && relooked == nil
        builtFor = stack
        let current = ObjectIdentifier(document.currentLayer)
        if whole || reselected || relooked != nil || pixels.keys.contains(where: { $0 != current }) { layout = StackLayout(document) }
        if whole || reselected {
            belowFresh = []
            aboveFresh = []
        }
        if let k = relooked {
            let r = document.layers[k].bounds
            damage = r
            if k < document.current { Self.stale(r, in: &belowFresh) }
            if k > document.current { Self.stale(r, in: &aboveFresh) }
        }
        if reselected, !whole, pixels.isEmpty { isCatchingUp = true }
        for (id, rect) in pixels {
            damage = damage.union(rect)
            guard let i = document.layers.firstIndex(where: { ObjectIdentifier($0) == id }) else { continue }
            if i < document.current { Self.stale(rect, in: &belowFresh) }
            if i > document.current { Self.stale(rect, in: &aboveFresh) }
        }
        let shown = background.pixel | 0xFF00_0000
        if builtOver != shown {
            builtOver = shown
            belowFresh = []
            whole = true
        }
        if layout.below.isEmpty { below = nil } else if below == nil { below = TiledTexture() }
        aboveCached = !layout.above.isEmpty && layout.above.allSatisfy { $0.mode == .normal }
        overs = aboveCached ? [ComposeKernel.Over(pixels: .tiles(above), opacity: 255, mode: .normal,
                                                  bounds: layout.above.reduce(Rect.empty) { $0.union($1.bounds) })] : layout.above
        if !aboveCached { above = TiledTexture() }
        return (damage, whole)
    }

    /// The tiles meeting `rect` are no longer up to date.
    private static func stale(_ rect: Rect, in fresh: inout Set<TileKey>) {
        guard !rect.isEmpty, !fresh.isEmpty else { return }
        if tileCount(rect) > fresh.count {
            fresh = fresh.filter { !$0.rect.intersects(rect) }
        } else {
            for key in TileKey.covering(rect) { fresh.remove(key) }
        }
    }

    /// The index of the one layer (not a group) whose eye, opacity or mode is all that differs
    /// between the two stacks, if that is so.
    private static func onlyRelooked(_ now: [StackEntry], was: [StackEntry]) -> Int? {
        guard now.count == was.count else { return nil }
        var found: Int?
        for i in now.indices where now[i] != was[i] {
            let (n, w) = (now[i], was[i])
            guard found == nil, n.layer == w.layer, n.current == w.current, n.group == nil, w.group == nil, n.depth == w.depth else { return nil }
            found = i
        }
        return found
    }

    /// While catching up, rebuilds the next band of the stale caches within the part of the
    /// canvas in view (a frame that composes nothing calls it).
    func catchUp(_ document: Document, on compute: ComputeContext) {
        guard isCatchingUp else { return }
        // A band of whole tile rows across the view, for each cache.
        let columns = TileKey.covering(Rect(x: viewed.minX, y: 0, width: max(viewed.width, 1), height: 1)).count
        rebuild(document, within: viewed, most: ((Self.catchUpRows + Tile.side - 1) / Tile.side) * columns, on: compute)
        isCatchingUp = !isFresh(within: viewed)
    }

    /// Finishes catching up where the caches are about to be read: within `region` of the
    /// canvas, or all of the part in view (nil). Call before the caches are read.
    func complete(_ document: Document, within region: Rect? = nil, on compute: ComputeContext) {
        rebuild(document, within: region ?? viewed, most: Int.max, on: compute)
        if isCatchingUp { isCatchingUp = !isFresh(within: viewed) }
    }

    /// Whether the given sets hold every tile meeting `rect`.
    private static func isFresh(_ rect: Rect, _ a: Set<TileKey>?, _ b: Set<TileKey>?) -> Bool {
        guard !rect.isEmpty else { return true }
        for ty in (rect.minY >> 6)...((rect.maxY - 1) >> 6) {
            for tx in (rect.minX >> 6)...((rect.maxX - 1) >> 6) {
                let k = TileKey(x: tx, y: ty)
                if a?.contains(k) == false || b?.contains(k) == false { return false }
            }
        }
        return true
    }

    /// Whether both caches are up to date over `region`.
    private func isFresh(within region: Rect) -> Bool {
        TileKey.covering(region.intersection(.plane)).allSatisfy {
            (below == nil || belowFresh.contains($0)) && (!aboveCached || aboveFresh.contains($0))
        }
    }

    /// The compose kernel over `document` as the caches stand, with the live stroke painted into
    /// the current layer.
    func kernel(_ document: Document, stroke: ComposeKernel.Stroke?, invert: Bool, output: Texture<UInt32>,
                transform: ViewTransform) -> ComposeKernel {
        let layer = document.currentLayer
        let background = builtOver ?? 0xFF00_0000
        var k = ComposeKernel(below: below.map { .tiles($0, missing: background) } ?? .color(background),
                              layer: layout.currentShown ? layer.pixels : nil, canvas: .plane, output: output)
        k.layerOpacity = layout.currentOpacity
        k.layerMode = layout.currentMode
        k.levels = layout.levels
        k.stroke = stroke
        k.invert = invert
        k.transform = transform
        k.above = overs
        return k
    }

    /// The compose kernel for canvas outside the document's frame, as the window shows it: the
    /// layers over the desk instead of the background, dimmed. The caches hold the background,
    /// so the layers are read one by one (as one isolated level around the current layer).
    func outsideKernel(_ document: Document, stroke: ComposeKernel.Stroke?, output: Texture<UInt32>,
                       transform: ViewTransform) -> ComposeKernel {
        var k = ComposeKernel(below: .color(ComposeKernel.desk), layer: layout.currentShown ? document.currentLayer.pixels : nil,
                              canvas: .plane, output: output)
        k.layerOpacity = layout.currentOpacity
        k.layerMode = layout.currentMode
        k.levels = [ComposeKernel.Level(below: layout.below, above: layout.above, opacity: 255, mode: .normal)] + layout.levels
        k.stroke = stroke
        // The invert filter is the picture's: the desk around it stays as it is.
        k.transform = transform
        k.frame = .empty
        return k
    }

    /// Rebuilds up to `most` stale tiles of each cache within `region`; then, when a cache
    /// holds far more than the part in view, forgets the rest.
    private func rebuild(_ d: Document, within region: Rect, most: Int, on compute: ComputeContext) {
        let area = region.intersection(.plane)
        // Nothing stale where a frame reads (most frames): no work, and nothing listed.
        guard !Self.isFresh(area, below != nil ? belowFresh : nil, aboveCached ? aboveFresh : nil) else { return }
        let keys = TileKey.covering(area)
        if below != nil, var cache = below {
            below = nil
            var left = most
            Self.rebuild(keys, of: layout.below, into: &cache, fresh: &belowFresh, startingWith: builtOver ?? 0xFF00_0000, most: &left, on: compute)
            below = cache
        }
        if aboveCached {
            var cache = TiledTexture()
            swap(&cache, &above)
            var left = most
            Self.rebuild(keys, of: layout.above, into: &cache, fresh: &aboveFresh, startingWith: 0, most: &left, on: compute)
            swap(&cache, &above)
            overs[0].pixels = .tiles(above)
        }
        let keep = 4 * max(Self.tileCount(viewed.intersection(.plane)), 256)
        if belowFresh.count > keep || aboveFresh.count > keep { forget(outside: viewed.union(region)) }
    }

    /// How many tiles meet `rect` (counted, not listed: this is asked every compose).
    private static func tileCount(_ rect: Rect) -> Int {
        rect.isEmpty ? 0 : (((rect.maxX - 1) >> 6) - (rect.minX >> 6) + 1) * (((rect.maxY - 1) >> 6) - (rect.minY >> 6) + 1)
    }

    /// Drops what the caches hold outside `region`.
    private func forget(outside region: Rect) {
        belowFresh = belowFresh.filter { $0.rect.intersects(region) }
        aboveFresh = aboveFresh.filter { $0.rect.intersects(region) }
        for key in below?.keys ?? [] where !key.rect.intersects(region) { below?[key] = nil }
        for key in above.keys where !key.rect.intersects(region) { above[key] = nil }
    }

    /// The stale ones of `keys` (up to `most`) flattened again: `start`, then each layer
    /// blended on, bottom first; a tile none of the layers reaches is left out (the kernel
    /// reads `start` there). A threadgroup a tile.
    private static func rebuild(_ keys: [TileKey], of layers: [ComposeKernel.Over], into cache: inout TiledTexture,
                                fresh: inout Set<TileKey>, startingWith start: UInt32, most: inout Int, on compute: ComputeContext) {
        var made: [(TileKey, Tile)] = []
        for key in keys where most > 0 && !fresh.contains(key) {
            most -= 1
            fresh.insert(key)
            guard layers.contains(where: { $0.reaches(key) }) else {
                cache[key] = nil
                continue
            }
            let tile = cache[key] ?? Tile.unset()
            cache[key] = tile
            made.append((key, tile))
        }
        guard !made.isEmpty else { return }
        let side = Tile.side, tiles = made
        compute.dispatchThreadgroups(Size(width: tiles.count, height: 1), threadsPerThreadgroup: Size(width: side, height: side),
                                     grid: Rect(x: 0, y: 0, width: tiles.count * side, height: side),
                                     workingThreads: tiles.count * side * side * layers.count) { group in
            let (key, tile) = tiles[group.positionInGrid.x]
            let corner = key.rect
            for ty in 0..<side { tile.texture.row(ty).update(repeating: start, count: side) }
            layers.withUnsafeBufferPointer { layers in
                for o in layers {
                    guard case .tiles(let t) = o.pixels else {
                        for ty in 0..<side { ComposeKernel.blend(o, row: corner.minY + ty, xs: corner.xs, onto: tile.texture.row(ty) - corner.minX) }
                        continue
                    }
                    // A layer's own tile, found once: its rows blended straight.
                    guard let from = t[key] else { continue }
                    for ty in 0..<side {
                        LayerBlend.blendRow(from.texture.row(ty), onto: tile.texture.row(ty), count: side, opacity: o.opacity, mode: o.mode)
                    }
                }
            }
        }
    }
}

extension ComposeKernel.Over {
    /// Whether it may have pixels in tile `key`.
    func reaches(_ key: TileKey) -> Bool {
        guard bounds.intersects(key.rect) else { return false }
        switch pixels {
        case .tiles(let t): return t[key] != nil
        case .texture: return true
        case .group(let inside): return inside.contains { $0.reaches(key) }
        }
    }
}
