import Compute
import Geometry
import Kernels

/// What is drawn: a stack of layers over a background, the current layer, and the history of
/// changes. Pixels change only through here (a stroke's bake, a paste, a clear, a merge, undo),
/// each change recorded as one undo step and reported as damage for the view to redraw.
///
/// See `Layer` for the pixel model. The stack always holds at least one layer.
public final class Document {
    public let background: Color
    /// Bottom first.
    public internal(set) var layers: [Layer]
    /// The index of the layer that is painted on.
    public internal(set) var current = 0
    /// The largest frame size the document has had: what the mercurial brush's dense buffers
    /// hold (the layers themselves have no edges).
    public private(set) var storageSize: Size
    /// The frame: the rectangle of the endless canvas that exports, `render`, the clipboard and
    /// the thumbnails show, anywhere on the plane (at 0,0 until moved). Paint outside it is kept.
    public private(set) var frame: Rect
    /// Attributes of an opened file's image this program does not use, kept for saving.
    public internal(set) var extraAttributes: [ExtraAttribute] = []
    let history: History
    /// New layers are numbered from here ("Layer 2", …).
    var nextNumber = 2

    /// Layers whose pixels changed (and where) since the view last looked; `restacked` when
    /// layers were added, removed, moved or changed attributes other than a name (a layer
    /// made current, or renamed, changes no pixel shown).
    var damage: [ObjectIdentifier: Rect] = [:]
    var restacked = true

    public init(size: Size, background: Color, historyBytes: Int) {
        self.background = Color(r: background.r, g: background.g, b: background.b)
        storageSize = size
        frame = Rect(size: size)
        history = History(byteLimit: historyBytes)
        layers = [Layer(attributes: LayerAttributes(name: "Layer 1"))]
    }

    public var currentLayer: Layer { layers[current] }

    /// Takes the damage reported since the last call.
    func takeDamage() -> (pixels: [ObjectIdentifier: Rect], restacked: Bool) {
        defer { damage = [:]; restacked = false }
        return (damage, restacked)
    }

    func damaged(_ layer: Layer, _ rect: Rect) {
        guard !rect.isEmpty else { return }
        layer.revision &+= 1
        damage[ObjectIdentifier(layer), default: .empty] = damage[ObjectIdentifier(layer), default: .empty].union(rect)
    }

    // MARK: - Pixels

    /// Starts a change to `layer`'s pixels within `rect`: the tiles there that `needed` says will
    /// be written (all, by default) are given to the undo step and replaced by copies (or, where
    /// there were none, by new transparent tiles unless `onlyExisting`), which the caller then
    /// writes. Returns the change for the step, and the tiles to write, by key.
    func beginPixels(of layer: Layer, in rect: Rect, onlyExisting: Bool = false,
                     where needed: (Rect) -> Bool = { _ in true }) -> (change: History.Change?, tiles: [TileKey]) {
        let (change, tiles) = begin(layer, rect, onlyExisting: onlyExisting, copying: true, where: needed)
        return (change, tiles.map(\.key))
    }

    /// As `beginPixels`, for a caller that writes every pixel of each tile it is given from the
    /// tile it is given to read: a replaced tile is then not copied first, and the caller reads
    /// the old one and writes the new one in one pass. Where nothing is kept for undo, or
    /// there was no tile, the tile read is the one written.
    /// `among`, when given, are the only tiles that may be written (a stroke's own, in order):
    /// a long diagonal stroke's bounds hold millions of tiles it never crosses.
    func rewritePixels(of layer: Layer, in rect: Rect, onlyExisting: Bool, among: [TileKey]? = nil,
                       where needed: (Rect) -> Bool) -> (change: History.Change?, tiles: [(key: TileKey, source: Tile)]) {
        begin(layer, rect, onlyExisting: onlyExisting, copying: false, among: among, where: needed)
    }

    private func begin(_ layer: Layer, _ rect: Rect, onlyExisting: Bool, copying: Bool, among: [TileKey]? = nil,
                       where needed: (Rect) -> Bool) -> (change: History.Change?, tiles: [(key: TileKey, source: Tile)]) {
        var tiles: [(key: TileKey, source: Tile)] = [], saved: [Tile?] = []
        let rect = rect.intersection(.plane)
        let keys = if let among {
            among.filter { $0.rect.intersects(rect) && (!onlyExisting || layer.pixels[$0] != nil) }
        } else {
            onlyExisting ? layer.pixels.keys(in: rect) : TileKey.covering(rect)
        }
        for key in keys where needed(key.rect.intersection(rect)) {
            let old = layer.pixels[key]
            if old == nil, onlyExisting { continue }
            saved.append(old)
            let new = switch (old, history.keeps) {
            case (let old?, true): copying ? Tile(copying: old) : Tile.unset()
            case (let old?, false): old
            case (nil, _): Tile()
            }
            layer.pixels[key] = new
            tiles.append((key, old ?? new))
        }
        damaged(layer, rect)
        return (history.keeps && !tiles.isEmpty ? .tiles(layer, keys: tiles.map(\.key), tiles: saved) : nil, tiles)
    }

    /// Records one undo step of `changes` (nil ones skipped), made with `current` selected.
    func record(_ changes: [History.Change?], current before: Int? = nil) {
        history.record(History.Step(changes: changes.compactMap { $0 }, current: before ?? current))
    }

    /// Every pixel of the current layer made transparent, as one undo step.
    func clearCurrentLayer() {
        let layer = currentLayer
        let held = layer.pixels.tiles
        damaged(layer, layer.bounds)
        layer.pixels = TiledTexture()
        record([.tiles(layer, keys: held.map(\.key), tiles: held.map(\.tile))])
    }

    /// Makes the frame `size` pixels, its corner kept (a replay's `resize`), or puts it at
    /// `rect` outright (`reframe`); not an undo step. The mercurial buffers' size only ever
    /// grows: returns true when it grew.
    @discardableResult
    func resize(to size: Size) -> Bool { reframe(Rect(x: frame.minX, y: frame.minY, width: size.width, height: size.height)) }

    @discardableResult
    func reframe(_ rect: Rect) -> Bool {
        frame = rect
        restacked = true
        let size = rect.size
        guard size.width > storageSize.width || size.height > storageSize.height else { return false }
        storageSize = Size(width: max(size.width, storageSize.width), height: max(size.height, storageSize.height))
        return true
    }

    // MARK: - Undo

    func undo() -> Bool { history.undo(revert, current: &current) }
    func redo() -> Bool { history.redo(revert, current: &current) }

    /// Applies the inverse of `change`; returns the change that applies it again.
    private func revert(_ change: History.Change) -> History.Change {
        switch change {
        case .tiles(let layer, let keys, let tiles):
            let now = keys.map { layer.pixels[$0] }
            for (key, t) in zip(keys, tiles) {
                layer.pixels[key] = t
                damaged(layer, key.rect)
            }
            return .tiles(layer, keys: keys, tiles: now)
        case .inserted(let layer, let at):
            layers.remove(at: at)
            restacked = true
            return .removed(layer, at: at)
        case .removed(let layer, let at):
            layers.insert(layer, at: at)
            restacked = true
            return .inserted(layer, at: at)
        case .moved(let from, let to):
            layers.insert(layers.remove(at: to), at: from)
            restacked = true
            return .moved(from: to, to: from)
        case .attributes(let layer, let old):
            let now = layer.attributes
            layer.attributes = old
            restacked = true
            return .attributes(layer, now)
        case .frame(let old):
            let now = frame
            reframe(old)
            return .frame(now)
        }
    }
}

extension Document {
    /// Puts the frame at `rect`, as one undo step (the step's current layer is today's: a move
    /// of the frame changes no layer).
    func moveFrame(to rect: Rect) {
        let old = frame
        reframe(rect)
        record([.frame(old)])
    }
}
