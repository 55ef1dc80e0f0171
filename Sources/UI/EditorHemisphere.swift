import Compute
import Kernels

/// The shading editor's hemisphere as its panel shows it, each light's part kept: in full once
/// computed; while a light or a bar is dragged, at half the resolution (a quarter of the cost a
/// frame); opened before the full one is ready, at 40 px (a frame's work at any scale). A rough
/// one is shown scaled up. `step` computes what is missing a bounded amount at a time, between
/// frames' drawing, so that no frame computes the whole picture.
final class EditorHemisphere {
    /// The side in pixels.
    let side: Int
    private var full: HemispherePreview?, drag: HemispherePreview?, opening: HemispherePreview?
    private var scaled: TextureStorage<UInt32>?
    /// The last image given was a rough one.
    private(set) var showsRough = false

    /// Light-pixel parts (`HemispherePreview.prepare`) a step computes: about half a millisecond.
    static let budget = 16_000

    init(side: Int) { self.side = side }

    /// The image for `shading`: full once computed, else (and while `dragging`) rough.
    func image(for shading: Shading, dragging: Bool) -> Texture<UInt32> {
        if !dragging, let full, full.rendered == shading || full.remaining(for: shading) == 0 {
            showsRough = false
            full.render(shading)
            return full.image.texture
        }
        showsRough = true
        let rough: HemispherePreview
        // At a drag's release its hemisphere is kept (a light's part at most to bring up to date).
        if let drag, dragging || drag.remaining(for: shading) <= drag.pixelCount {
            rough = drag
        } else if dragging {
            rough = HemispherePreview(size: max(1, side / 2))
            drag = rough
        } else {
            rough = opening ?? HemispherePreview(size: min(side, 40))
            opening = rough
        }
        rough.render(shading)
        let out = scaled ?? TextureStorage<UInt32>(width: side, height: side, filledWith: 0)
        scaled = out
        let src = rough.image.texture
        let columns = (0..<side).map { min($0 * src.width / side, src.width - 1) }
        for y in 0..<side {
            let row = src.row(min(y * src.height / side, src.height - 1)), to = out.texture.row(y)
            for x in 0..<side { to[x] = row[columns[x]] }
        }
        return out.texture
    }

    /// True while `step` has work for `shading`; `shown`: the panel is on screen (a rough image
    /// it shows must be replaced).
    func hasWork(for shading: Shading, shown: Bool) -> Bool {
        full?.rendered != shading || (shown && showsRough) || (drag?.remaining(for: shading) ?? 1) > 0
    }

    /// One step of at most about half a millisecond towards `shading`: the full hemisphere,
    /// `budget` parts at a time, then their sum; once that is ready, true if the panel shows a
    /// rough one (`shown`): it should be drawn again now, with nothing else in its frame; then
    /// the drag's half-resolution one.
    func step(for shading: Shading, shown: Bool) -> Bool {
        guard let full else {
            full = HemispherePreview(size: side)
            return false
        }
        if full.rendered != shading {
            if full.remaining(for: shading) > 0 { slice(full, shading) } else { full.render(shading) }
            return false
        }
        if shown, showsRough {
            showsRough = false
            return true
        }
        guard let drag else {
            drag = HemispherePreview(size: max(1, side / 2))
            return false
        }
        slice(drag, shading)
        return false
    }

    /// Up to `budget` of `preview`'s remaining parts, in equal slices (no sliver of a frame's
    /// work left for the last).
    private func slice(_ preview: HemispherePreview, _ shading: Shading) {
        let left = preview.remaining(for: shading), slices = (left + Self.budget - 1) / Self.budget
        preview.prepare(shading, budget: (left + slices - 1) / max(slices, 1))
    }
}
