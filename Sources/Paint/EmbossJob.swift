import Compute
import Dispatch
import Geometry
import Kernels

/// The emboss of one finished mercurial stroke, computed on a background thread so drawing
/// never waits for it. The session shows the live look until it is done, then bakes it in.
final class EmbossJob: @unchecked Sendable {
    /// Canvas area of the patch.
    let bounds: Rect
    let color: Color
    /// The stroke's coverage over `bounds` (with the emboss margin), 255 inside.
    private let mask: TextureStorage<UInt8>
    /// The shaded patch, valid once `wait()` returned or `isDone`.
    private let shaded: TextureStorage<UInt32>
    private let margin: Int
    private let group = DispatchGroup()
    /// The emboss made for `shading` when the one kept was for another, written in the background.
    private var made: Emboss?

    /// Copies `bounds` of `coverage` and starts shading it in the background, lit by `shading`,
    /// tinted by `color`, rounded over `radius` px: with `kept` if it was made for that shading,
    /// else with an emboss made there too (its hemisphere image costs milliseconds, kept from
    /// the frame loop).
    init(coverage: Texture<UInt8>, origin: (x: Int, y: Int) = (0, 0), bounds: Rect, color: Color, radius: Float, shading: Shading, kept: Emboss?) {
        margin = Emboss.margin(radius: radius)
        self.bounds = bounds
        self.color = color
        mask = TextureStorage(width: bounds.width + 2 * margin, height: bounds.height + 2 * margin, filledWith: 0)
        shaded = TextureStorage(width: mask.width, height: mask.height, filledWith: 0)
        for y in bounds.ys {
            (mask.texture.row(y - bounds.minY + margin) + margin).update(from: coverage.row(y - origin.y) + bounds.minX - origin.x, count: bounds.width)
        }
        let (mask, shaded) = (self.mask, self.shaded)
        let reused = kept.flatMap { $0.shading == shading ? $0 : nil }
        DispatchQueue.global().async(group: group) { [self] in
            let emboss = reused ?? Emboss(shading: shading)
            if reused == nil { made = emboss }
            // One thread: the other core stays with the frame loop.
            emboss.shade(mask.texture, into: shaded.texture, radius: radius, tint: color, on: ComputeContext(threads: 1))
        }
    }

    /// The emboss the job made for its shading, for the next stroke to reuse; nil when it used
    /// the one it was given. Waits for the job.
    var madeEmboss: Emboss? {
        wait()
        return made
    }

    var isDone: Bool { group.wait(timeout: .now()) == .success }

    func wait() { group.wait() }

    /// True when the stroke covered any pixel of `rect` (canvas coordinates).
    func covers(_ rect: Rect) -> Bool {
        let r = rect.intersection(bounds)
        return r.ys.contains { y in
            let m = mask.texture.row(y - bounds.minY + margin) + margin - bounds.minX
            return r.xs.contains { m[$0] != 0 }
        }
    }

    /// Writes the metal, opaque, into `layer` where the stroke covered it (its tiles there exist).
    func bake(into layer: TiledTexture) {
        wait()
        for y in bounds.ys {
            let m = mask.texture.row(y - bounds.minY + margin) + margin - bounds.minX
            let s = shaded.texture.row(y - bounds.minY + margin) + margin - bounds.minX
            layer.segments(row: y, xs: bounds.xs) { xs, p in
                guard let p else { return }
                let row = p - xs.lowerBound
                for x in xs where m[x] != 0 { row[x] = s[x] | 0xFF00_0000 }
            }
        }
    }
}
