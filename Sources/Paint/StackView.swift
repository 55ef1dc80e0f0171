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
    private var below: TextureStorage<UInt32>?
    private var above: TextureStorage<UInt32>?
    /// What the kernel reads above the current layer: the cache, or the layers one by one, with
    /// where each has pixels (worked out when something above changed, not every frame).
    private var overs: [ComposeKernel.Over] = []
    /// Where each cache must be rebuilt before it is read.
    private var belowStale = StaleArea()
    private var aboveStale = StaleArea()
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
        let all = Rect(size: document.storageSize)
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
            belowStale.set(all)
            aboveStale.set(all)
        }
        if let k = relooked {
            let r = document.layers[k].bounds.intersection(all)
            damage = r
            if k < document.current { belowStale.add(r) }
            if k > document.current { aboveStale.add(r) }
        }
        if reselected, !whole, pixels.isEmpty { isCatchingUp = true }
        for (id, rect) in pixels {
            damage = damage.union(rect)
            guard let i = document.layers.firstIndex(where: { ObjectIdentifier($0) == id }) else { continue }
            if i < document.current { belowStale.add(rect) }
            if i > document.current { aboveStale.add(rect) }
        }
        let shown = background.pixel | 0xFF00_0000
        if builtOver != shown {
            builtOver = shown
            belowStale.set(all)
            whole = true
        }
        if !isCatchingUp {
            rebuildBelow(document, on: compute)
            rebuildAbove(document, on: compute)
        }
        return (damage, whole)
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

    /// While catching up, rebuilds the next band of the stale caches (a frame that composes
    /// nothing calls it).
    func catchUp(_ document: Document, on compute: ComputeContext) {
        guard isCatchingUp else { return }
        rebuildBelow(document, .pixels(Self.catchUpRows * document.storageSize.width), on: compute)
        rebuildAbove(document, .pixels(Self.catchUpRows * document.storageSize.width), on: compute)
        isCatchingUp = !belowStale.isEmpty || !aboveStale.isEmpty
    }

    /// Finishes catching up where the caches are about to be read: within `region` of the
    /// canvas, or all of them (nil). Call before the caches are read.
    func complete(_ document: Document, within region: Rect? = nil, on compute: ComputeContext) {
        guard isCatchingUp else { return }
        guard let region else {
            isCatchingUp = false
            rebuildBelow(document, on: compute)
            rebuildAbove(document, on: compute)
            return
        }
        rebuildBelow(document, .within(region), on: compute)
        rebuildAbove(document, .within(region), on: compute)
        isCatchingUp = !belowStale.isEmpty || !aboveStale.isEmpty
    }

    /// The compose kernel over `document` as the caches stand, with the live stroke painted into
    /// the current layer.
    func kernel(_ document: Document, stroke: ComposeKernel.Stroke?, invert: Bool, output: Texture<UInt32>,
                transform: ViewTransform) -> ComposeKernel {
        let layer = document.currentLayer
        var k = ComposeKernel(below: below.map { .texture($0.texture) } ?? .color(builtOver ?? 0xFF00_0000),
                              layer: layout.currentShown ? layer.pixels : nil, canvas: document.bounds, output: output)
        k.layerOpacity = layout.currentOpacity
        k.layerMode = layout.currentMode
        k.levels = layout.levels
        k.stroke = stroke
        k.invert = invert
        k.transform = transform
        k.above = overs
        return k
    }

    /// Which stale parts a rebuild takes: all, the first so many pixels, or what lies within a
    /// region.
    private enum Part {
        case all, pixels(Int), within(Rect)

        func take(from stale: inout StaleArea) -> [Rect] {
            switch self {
            case .all:
                defer { stale.set(.empty) }
                return stale.rects
            case .pixels(let n): return stale.take(pixels: n)
            case .within(let region): return stale.take(within: region)
            }
        }
    }

    /// The background and the layers below, flattened (the stale `part`); none when no layer
    /// is below (the kernel then fills with the colour).
    private func rebuildBelow(_ d: Document, _ part: Part = .all, on compute: ComputeContext) {
        let layers = layout.below
        guard !layers.isEmpty else {
            below = nil
            belowStale.set(.empty)
            return
        }
        if below?.texture.size != d.storageSize {
            below = TextureStorage(width: d.storageSize.width, height: d.storageSize.height, filledWith: 0)
            belowStale.set(Rect(size: d.storageSize))
        }
        guard let target = below?.texture, !belowStale.isEmpty else { return }
        for r in part.take(from: &belowStale) {
            Self.flatten(layers, in: r, onto: target, startingWith: builtOver ?? 0xFF00_0000, on: compute)
        }
    }

    /// The layers above, flattened while all are `normal` (the stale `part`), else listed one
    /// by one.
    private func rebuildAbove(_ d: Document, _ part: Part = .all, on compute: ComputeContext) {
        guard !aboveStale.isEmpty else { return }
        let layers = layout.above
        guard !layers.isEmpty, layers.allSatisfy({ $0.mode == .normal }) else {
            above = nil
            overs = layers
            aboveStale.set(.empty)
            return
        }
        if above?.texture.size != d.storageSize {
            above = TextureStorage(width: d.storageSize.width, height: d.storageSize.height, filledWith: 0)
            aboveStale.set(Rect(size: d.storageSize))
        }
        guard let target = above?.texture else { return }
        for r in part.take(from: &aboveStale) { Self.flatten(layers, in: r, onto: target, startingWith: 0, on: compute) }
        overs = [ComposeKernel.Over(pixels: .texture(target), opacity: 255, mode: .normal, bounds: layers.reduce(Rect.empty) { $0.union($1.bounds) })]
    }

    /// `start` filled over `region`, then each layer blended on, bottom first.
    private static func flatten(_ layers: [ComposeKernel.Over], in region: Rect, onto target: Texture<UInt32>, startingWith start: UInt32,
                                on compute: ComputeContext) {
        let region = region.intersection(target.bounds)
        compute.dispatchRows(over: region) { group in
            let g = group.threadPositions
            for y in g.ys { (target.row(y) + g.minX).update(repeating: start, count: g.width) }
            // A layer at a time over the group's rows: each pixel still gets the layers bottom
            // first, and a layer is taken (retained) once a group, not once a row.
            layers.withUnsafeBufferPointer { layers in
                for i in layers.indices {
                    for y in g.ys { ComposeKernel.blend(layers[i], row: y, xs: g.xs, onto: target.row(y)) }
                }
            }
        }
    }
}
