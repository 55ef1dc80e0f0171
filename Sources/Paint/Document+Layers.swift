import Compute
import Events
import Geometry
import Kernels

/// The layer operations: each one undoable step (choosing the current layer is not a step, as
/// in Krita and MyPaint), each a no-op where it cannot apply (the last layer is never deleted).
/// Those on groups are in `Document+Groups`.
extension Document {
    /// A new transparent layer just above the current one (in the same group), numbered, made
    /// current; none past `DocumentLimits.maxLayers`.
    func newLayer(named name: String? = nil) {
        guard layers.count < DocumentLimits.maxLayers else { return }
        let layer = Layer(attributes: LayerAttributes(name: name ?? "Layer \(nextLayerNumber())", depth: currentLayer.attributes.depth))
        let before = current
        layers.insert(layer, at: current + 1)
        current += 1
        restacked = true
        record([.inserted(layer, at: current)], current: before)
    }

    /// Removes the current layer, or the current group with what it holds (never the last
    /// layer with pixels); the entry below becomes current.
    func deleteLayer() {
        let before = current, start = blockStart(current)
        guard layers.count > before - start + 1,
              layers[..<start].contains(where: { !$0.isGroup }) || layers[(before + 1)...].contains(where: { !$0.isGroup }) else { return }
        // Top first, so that undo puts them back bottom first.
        let changes = (start...before).reversed().map { i in History.Change.removed(layers.remove(at: i), at: i) }
        current = max(0, start - 1)
        restacked = true
        record(changes, current: before)
    }

    /// Makes layer `index` (0 the bottom) current.
    func select(_ index: Int) {
        let i = min(max(index, 0), layers.count - 1)
        guard i != current else { return }
        // Not a restack: the picture is as it was (the stack view sees the current layer move).
        current = i
    }


    /// Changes the current layer's attributes.
    func setAttributes(_ change: (inout LayerAttributes) -> Void) {
        let layer = currentLayer
        var new = layer.attributes
        change(&new)
        guard new != layer.attributes else { return }
        let old = layer.attributes
        layer.attributes = new
        // A new name alone changes no pixel shown.
        var renamed = old
        renamed.name = new.name
        if renamed != new { restacked = true }
        record([.attributes(layer, old)])
    }

    /// Blends the current layer onto the one below with its mode and opacity (a hidden one is
    /// dropped), keeping the lower layer's attributes; the lower layer becomes current.
    func mergeDown(on compute: ComputeContext) {
        guard current > 0 else { return }
        let upper = currentLayer, lower = layers[current - 1], before = current
        // Only a layer onto a layer of the same group.
        guard !upper.isGroup, !lower.isGroup, upper.attributes.depth == lower.attributes.depth else { return }
        var change: History.Change?
        if upper.attributes.visible {
            let opacity = upper.attributes.opacity255, mode = upper.attributes.mode
            let area = upper.bounds
            let (c, _) = beginPixels(of: lower, in: area) { !upper.pixels.keys(in: $0).isEmpty }
            change = c
            let (src, dst) = (upper.pixels, lower.pixels)
            compute.dispatchRows(over: area) { group in
                let row = UnsafeMutablePointer<UInt32>.allocate(capacity: area.width)
                defer { row.deallocate() }
                for y in group.threadPositions.ys {
                    src.copy(row: y, xs: area.xs, into: row - area.minX)
                    dst.segments(row: y, xs: area.xs) { xs, p in
                        guard let p else { return }
                        LayerBlend.blendRow(row + (xs.lowerBound - area.minX), onto: p, count: xs.count, opacity: opacity, mode: mode)
                    }
                }
            }
        }
        layers.remove(at: current)
        current -= 1
        restacked = true
        record([change, .removed(upper, at: before)], current: before)
    }

    /// `op` as the absolute operation it is now (a key's step resolved against the stack).
    func resolved(_ op: LayerOp) -> LayerOp {
        guard case .step(let step) = op else { return op }
        let a = currentLayer.attributes
        switch step {
        case .select(let by): return .select(min(max(current + by, 0), layers.count - 1))
        case .opacity(let by): return .set(opacity: min(max((a.opacity * 10).rounded() + Double(by), 0), 10) / 10)
        case .mode(let by):
            let modes = BlendMode.allCases, i = modes.firstIndex(of: a.mode) ?? 0
            return .set(mode: modes[(i + by % modes.count + modes.count) % modes.count])
        case .visibility: return .set(visible: !a.visible)
        case .isolation: return .set(isolated: a.group.map { $0 != .isolated } ?? false)  // on a layer: nothing, but a line a replay reads
        }
    }

    /// Plays one layer operation (resolved: see `resolved`).
    func apply(_ op: LayerOp, on compute: ComputeContext) {
        switch op {
        case .step: apply(resolved(op), on: compute)
        case .new(let name): newLayer(named: name)
        case .delete: deleteLayer()
        case .select(let i): select(i)
        case .move(let step): moveBlock(by: step)
        case .mergeDown: mergeDown(on: compute)
        case .group(let name): group(named: name)
        case .ungroup: ungroup()
        case .into: moveIntoGroupAbove()
        case .out: moveOutOfGroup()
        case .set(let visible, let opacity, let mode, let name, let isolated):
            setAttributes { a in
                if let visible { a.visible = visible }
                if let opacity { a.opacity = min(max(opacity, 0), 1) }
                if let mode { a.mode = mode }
                if let name { a.name = name }
                // Only a group is isolated or not.
                if let isolated, a.group != nil { a.group = isolated ? .isolated : .passThrough }
            }
        }
    }

    /// A picture (straight alpha) source-over onto the current layer, its top-left corner at its
    /// (x, y), as one undo step.
    func paste(_ picture: PastedImage) {
        let covered = picture.bounds.intersection(frame)
        guard !covered.isEmpty, picture.pixels.count == picture.size.area, !currentLayer.isGroup else { return }
        let layer = currentLayer
        let (change, _) = beginPixels(of: layer, in: covered)
        for y in covered.ys {
            let from = (y - picture.y) * picture.size.width - picture.x
            layer.pixels.segments(row: y, xs: covered.xs) { xs, p in
                guard let p else { return }
                let row = p - xs.lowerBound
                for x in xs {
                    let s = picture.pixels[from + x]
                    row[x] = Blend.over(row[x], r: (s >> 16) & 0xff, g: (s >> 8) & 0xff, b: s & 0xff, alpha: s >> 24)
                }
            }
        }
        record([change])
    }

    private func nextLayerNumber() -> Int {
        // After the numbers opened files and earlier layers used.
        let used = layers.compactMap { l -> Int? in
            guard l.name.hasPrefix("Layer ") else { return nil }
            return Int(l.name.dropFirst(6))
        }
        nextNumber = max(nextNumber, (used.max() ?? 0) + 1)
        defer { nextNumber += 1 }
        return nextNumber
    }
}
