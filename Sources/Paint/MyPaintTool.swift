import Brushes
import Compute
import Dabs
import Events
import Geometry
import Kernels

/// A MyPaint brush painting on the document: libmypaint's dynamics (`BrushPlayer`, made anew
/// when the brush's event is played) and Quicksilver's dab surface (`TiledDabSurface`, 15-bit
/// working tiles for a stroke, rounded once into the layer's 8-bit tiles when it ends).
///
/// Each pointer sample is one `stroke_to` in its own atomic section, its dtime the difference
/// between its time and the previous sample's (docs/journal.md, "MyPaint brushes"); an `up` is
/// a sample of pressure 0 at its position. Every stroke the brush ends (pressure back to 0, or
/// the pointer up) becomes the layer's as one undo step. Between frames the open stroke is
/// shown (`show`) by putting its tiles, rounded as they would be, into the layer; the undo step
/// and the strokes after it start from the tiles before, so a window shows exactly the pixels a
/// replay draws.
final class MyPaintTool {
    /// The brush as chosen, its settings filled in.
    let choice: MyPaintChoice
    private let surface: TiledDabSurface
    private let player: BrushPlayer
    private var color: Color
    /// The layer the open stroke paints on.
    private var layer: Layer?
    /// What the stroke changed since it was last shown.
    private var unshown = Rect.empty

    /// Makes the brush of `choice` (whose settings are given) in `color`.
    init(_ choice: MyPaintChoice, settings: BrushSettings, color: Color, compute: ComputeContext) throws(BrushError) {
        self.choice = choice
        self.color = color
        surface = TiledDabSurface(compute: compute)
        player = try BrushPlayer(settings: settings, color: color, surface: surface, path: choice.name)
    }

    /// A stroke starts on `layer`, in `color` (set through the brush's HSV base values when the
    /// brush's colour changed since), each dab drawn again under `symmetry`'s copies.
    func begin(on layer: Layer, color: Color, symmetry: Symmetry = .off) {
        player.bridge.symmetry = symmetry
        if color != self.color {
            player.engine.setColor(color)
            self.color = color
        }
        self.layer = layer
        surface.paint(over: layer.pixels)
        unshown = .empty
    }

    /// Plays one sample (an up with `pressure` 0), seen through `view` (its zoom and turn are
    /// the brush's view inputs); returns what became the layer's (a stroke that ended).
    func play(_ s: StrokeSample, pressure: Double, view: ViewTransform, into document: Document) -> Rect {
        guard layer != nil else { return .empty }
        player.viewZoom = Float(view.zoom)
        // libmypaint takes radians; a mirrored view turns the other way as the canvas sees it.
        player.viewRotation = Float((view.mirror ? -view.angle : view.angle) * .pi / 180)
        let ended = player.strokesEnded
        unshown = unshown.union(player.play(BrushEvent(t: s.t, x: s.x, y: s.y, pressure: pressure, xtilt: s.xtilt, ytilt: s.ytilt)))
        return player.strokesEnded == ended ? .empty : commit(into: document)
    }

    /// The stroke ends (the pointer is up, or something else must change the layers): what it
    /// painted becomes the layer's. Returns the rectangle that changed.
    func end(into document: Document) -> Rect {
        let ended = player.strokesEnded
        player.finish()
        let d = player.strokesEnded == ended ? .empty : commit(into: document)
        // A stroke that painted nothing leaves the layer as it was (a tile shown is put back).
        if let layer, !unshown.isEmpty {
            layer.pixels = surface.pixels
            document.damaged(layer, unshown)
        }
        layer = nil
        unshown = .empty
        return d
    }

    /// The open stroke's tiles put into the layer as they would be if it ended now; returns the
    /// rectangle shown anew.
    func show(in document: Document) -> Rect {
        guard let layer, !unshown.isEmpty else { return .empty }
        for key in TileKey.covering(unshown) {
            if let tile = surface.strokeTile(key) { layer.pixels[key] = tile }
        }
        let d = unshown
        document.damaged(layer, d)
        unshown = .empty
        return d
    }

    /// The stroke the surface ended, as the layer's pixels and one undo step.
    private func commit(into document: Document) -> Rect {
        guard let layer else { return .empty }
        let changed = surface.lastStroke
        layer.pixels = surface.pixels
        var d = unshown
        for c in changed { d = d.union(c.key.rect) }
        unshown = .empty
        surface.paint(over: layer.pixels)
        guard !changed.isEmpty else { return d }
        document.damaged(layer, d)
        document.record([.tiles(layer, keys: changed.map(\.key), tiles: changed.map(\.before))])
        return d
    }
}
