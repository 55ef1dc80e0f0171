import Compute
import Geometry

/// The document's undo history as values and back (`HistoryImage`): what a compacted journal
/// keeps beside its snapshot, so that undo reaches as far back after a compaction as before it.
extension Document {
    /// What `HistoryImage` is made of, taken on the frame loop: the steps as they are (arrays
    /// no one changes: a change of the history makes new ones), the stack's layers and their
    /// tile arrays, and the pixels and attributes of the layers only the history holds (which
    /// an undo could put back and draw on). O(layers + steps), no copy of any tile: 0.05 ms
    /// for 100 MiB of undo in 30 strokes, some 10 ms for 13,000 steps (docs/journal.md).
    func historyCapture() -> HistoryImage.Capture {
        let undo = history.undoSteps, redo = history.redoSteps
        let stack = Set(layers.map(ObjectIdentifier.init))
        var loose: [ObjectIdentifier: HistoryImage.Capture.Loose] = [:]
        // The layers the steps name that the stack does not hold (deleted, merged, or new ones
        // undone). Most steps name the layer the one before named: that is looked up once.
        var last: ObjectIdentifier?
        for steps in [undo, redo] {
            for step in steps {
                for change in step.changes {
                    let named: Layer? = switch change {
                    case .tiles(let layer, _, _), .inserted(let layer, _), .removed(let layer, _), .attributes(let layer, _): layer
                    case .moved, .frame: nil
                    }
                    guard let layer = named, case let key = ObjectIdentifier(layer), key != last else { continue }
                    last = key
                    guard !stack.contains(key), loose[key] == nil else { continue }
                    loose[key] = .init(attributes: layer.attributes, tiles: layer.pixels.tiles)
                }
            }
        }
        return HistoryImage.Capture(undo: undo, redo: redo, stack: layers, stackTiles: layers.map { TileSet($0.pixels) }, loose: loose,
                                    bytes: history.bytes, nextNumber: nextNumber)
    }

    /// Makes `image` the history, the stack being the one it was taken with (its snapshot, just
    /// loaded): the stack's layers get back the tiles they had that hold no pixel (a tile where
    /// the snapshot has pixels stays, whatever the history says), the layers only the history
    /// holds are made, and every step refers to them. Refused, changing nothing, when it does
    /// not fit (see `HistoryImage.check`). The image's tiles become the document's: an image is
    /// loaded once.
    func load(_ image: HistoryImage) throws(HistoryImage.Mismatch) {
        try image.check(stackLayers: layers.count, current: current, storage: storageSize)
        for (layer, set) in zip(layers, image.stackTiles) {
            for key in set.keys where layer.pixels[key] == nil { layer.pixels[key] = Tile() }
        }
        var all = layers
        for entry in image.layers {
            let layer = Layer(attributes: entry.attributes)
            for (key, tile) in entry.tiles { layer.pixels[key] = tile }
            all.append(layer)
        }
        func step(_ s: HistoryImage.Step) -> History.Step {
            History.Step(changes: s.changes.map { change -> History.Change in
                switch change {
                case .tiles(let layer, let keys, let tiles): .tiles(all[layer], keys: keys, tiles: tiles)
                case .inserted(let layer, let at): .inserted(all[layer], at: at)
                case .removed(let layer, let at): .removed(all[layer], at: at)
                case .moved(let from, let to): .moved(from: from, to: to)
                case .attributes(let layer, let old): .attributes(all[layer], old)
                case .frame(let old): .frame(old)
                }
            }, current: s.current)
        }
        history.restore(undo: image.undo.map(step), redo: image.redo.map(step), bytes: image.bytes)
        nextNumber = image.nextNumber
    }
}

extension HistoryImage {
    /// What the frame loop takes of a document's history (`Session.historyCapture()`) for a
    /// `HistoryImage` to be made of it on another thread, while the document goes on changing.
    /// It reads, of the layers it holds, only who they are.
    public struct Capture: @unchecked Sendable {
        struct Loose {
            var attributes: LayerAttributes
            var tiles: [(key: TileKey, tile: Tile)]
        }
        let undo: [History.Step], redo: [History.Step]
        let stack: [Layer]
        let stackTiles: [TileSet]
        let loose: [ObjectIdentifier: Loose]
        let bytes: Int, nextNumber: Int
    }

    /// The history captured, as values: its layers numbered (the stack's by index, then the
    /// others in the order the steps name them), the tiles of each stack layer as a `TileSet`.
    /// Runs anywhere: the journal's queue makes it, off the frame loop.
    public init(_ capture: Capture) {
        var ids: [ObjectIdentifier: Int] = [:]
        for (i, layer) in capture.stack.enumerated() { ids[ObjectIdentifier(layer)] = i }
        var entries: [LayerEntry] = []
        let stackCount = capture.stack.count
        func id(_ layer: Layer) -> Int {
            let key = ObjectIdentifier(layer)
            if let i = ids[key] { return i }
            let i = stackCount + entries.count
            ids[key] = i
            // Every layer a step names and the stack does not hold was captured.
            let loose = capture.loose[key] ?? .init(attributes: LayerAttributes(name: ""), tiles: [])
            entries.append(LayerEntry(attributes: loose.attributes, tiles: loose.tiles))
            return i
        }
        func image(_ step: History.Step) -> Step {
            Step(changes: step.changes.map { change -> Change in
                switch change {
                case .tiles(let layer, let keys, let tiles): .tiles(layer: id(layer), keys: keys, tiles: tiles)
                case .inserted(let layer, let at): .inserted(layer: id(layer), at: at)
                case .removed(let layer, let at): .removed(layer: id(layer), at: at)
                case .moved(let from, let to): .moved(from: from, to: to)
                case .attributes(let layer, let old): .attributes(layer: id(layer), old)
                case .frame(let old): .frame(old)
                }
            }, current: step.current)
        }
        let undo = capture.undo.map(image), redo = capture.redo.map(image)
        self.init(stackTiles: capture.stackTiles, layers: entries, undo: undo, redo: redo,
                  bytes: capture.bytes, nextNumber: capture.nextNumber)
    }

    /// The range a history's running total and next layer number are kept in: far beyond any
    /// real one, and far enough from overflow for the arithmetic done on them.
    static let counts = -(1 << 52)...(1 << 52)

    /// `check(stackLayers:current:storage:)` against the document a session of `size` starts
    /// from once `snapshot` (if any) is loaded into it, as `Session.load(_:)` loads it: what a
    /// player asks before the session is made (`Playback`, on its parsing thread).
    public func check(size: Size, snapshot: DocumentImage?) throws(Mismatch) {
        let layers = max(snapshot?.layers.count ?? 1, 1)
        let current = min(max(snapshot?.current ?? 0, 0), layers - 1)
        var storage = size
        for s in [snapshot?.size, snapshot?.frame.size].compactMap({ $0 }) {
            storage = Size(width: max(storage.width, s.width), height: max(storage.height, s.height))
        }
        try check(stackLayers: layers, current: current, storage: storage)
    }

    /// Checks that the history fits a stack of `stackLayers` layers, the current one `current`,
    /// stored at `storage`: every layer it names exists, every tile lies on the plane a
    /// document reaches (`Rect.plane`; layers have no edges), every attribute is valid, and every step, undone from the newest
    /// back and redone from the newest undone on, finds the stack as it expects (the layer where
    /// it was inserted, no copy of one it puts back, places that exist, a current layer), so no
    /// undo or redo played later can fail. Refuses a damaged or foreign history.
    public func check(stackLayers: Int, current: Int, storage: Size) throws(Mismatch) {
        // Layers have no edges: a tile may lie anywhere on the plane a document reaches.
        let plane = Rect.plane
        struct Grid { let plane: Rect; func contains(_ k: TileKey) -> Bool { k.rect.intersection(plane) == k.rect } }
        let grid = Grid(plane: plane)
        let layerCount = stackLayers + layers.count
        guard stackTiles.count == stackLayers else {
            throw Mismatch("it was taken with \(stackTiles.count) layers, the snapshot has \(stackLayers)")
        }
        guard stackTiles.allSatisfy({ $0.keys.allSatisfy(grid.contains) }) else { throw Mismatch("its tiles are not the canvas's") }
        guard Self.counts.contains(bytes), (1...(1 << 52)).contains(nextNumber) else { throw Mismatch("its counts are out of range") }
        for (k, entry) in layers.enumerated() {
            try Self.check(entry.attributes)
            guard entry.tiles.allSatisfy({ grid.contains($0.key) }) else { throw Mismatch("a tile of its layer \(stackLayers + k) is off the canvas") }
            guard Set(entry.tiles.map(\.key)).count == entry.tiles.count else { throw Mismatch("its layer \(stackLayers + k) holds a tile twice") }
        }
        for step in undo + redo {
            for change in step.changes {
                switch change {
                case .tiles(let layer, let keys, let tiles):
                    guard (0..<layerCount).contains(layer), keys.count == tiles.count, keys.allSatisfy(grid.contains) else {
                        throw Mismatch("a step changes tiles that are not there")
                    }
                case .inserted(let layer, _), .removed(let layer, _):
                    guard (0..<layerCount).contains(layer) else { throw Mismatch("a step names layer \(layer), of \(layerCount)") }
                case .attributes(let layer, let a):
                    guard (0..<layerCount).contains(layer) else { throw Mismatch("a step names layer \(layer), of \(layerCount)") }
                    try Self.check(a)
                case .moved: break
                case .frame(let r):
                    guard DocumentLimits.frameSides.contains(r.width), DocumentLimits.frameSides.contains(r.height),
                          r.intersection(.plane) == r else { throw Mismatch("a step puts the frame off the canvas") }
                }
            }
        }
        // The stack as layer numbers, undone step by step, then redone from where it is.
        for (steps, undoing) in [(undo, true), (redo, false)] {
            var stack = Array(0..<stackLayers)
            for step in steps.reversed() {
                for change in undoing ? step.changes.reversed() : step.changes { try Self.revert(change, &stack) }
                guard !stack.isEmpty, stack.indices.contains(step.current) else {
                    throw Mismatch("a step goes back to layer \(step.current + 1) of \(stack.count)")
                }
            }
        }
    }

    /// What `Document.revert` does to the stack, checked.
    private static func revert(_ change: Change, _ stack: inout [Int]) throws(Mismatch) {
        switch change {
        case .tiles, .attributes, .frame: break
        case .inserted(let layer, let at):
            guard stack.indices.contains(at), stack[at] == layer else { throw Mismatch("a step removes a layer that is not where it was inserted") }
            stack.remove(at: at)
        case .removed(let layer, let at):
            guard (0...stack.count).contains(at), !stack.contains(layer) else { throw Mismatch("a step puts back a layer that is there") }
            stack.insert(layer, at: at)
        case .moved(let from, let to):
            guard stack.indices.contains(from), stack.indices.contains(to) else { throw Mismatch("a step moves a layer that is not there") }
            stack.insert(stack.remove(at: to), at: from)
        }
    }

    private static func check(_ a: LayerAttributes) throws(Mismatch) {
        guard a.opacity.isFinite, (0...1).contains(a.opacity) else { throw Mismatch("a layer's opacity is out of range") }
    }
}
