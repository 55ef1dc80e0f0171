import Compute
import Geometry

/// Undo and redo, one step per stroke or clear, bounded in memory.
///
/// A step keeps only the 64x64 tiles its change touched. Before the change it saves those tiles;
/// undo *swaps* the saved pixels with the canvas, so the same buffer then holds what redo needs:
/// one copy per step, never two. Steps beyond `byteLimit` are dropped oldest first.
final class History {
    static let tileSize = 64

    private struct Step {
        var tiles: [Rect]
        var pixels: [UInt32]
        var bytes: Int { pixels.count * 4 }
    }

    private var undoSteps: [Step] = []
    private var redoSteps: [Step] = []
    private var bytes = 0
    let byteLimit: Int

    init(byteLimit: Int = 256 << 20) { self.byteLimit = byteLimit }


    func removeAll() {
        undoSteps.removeAll()
        redoSteps.removeAll()
        bytes = 0
    }

    /// Saves the tiles of `texture` under `rect`; call just before changing them. With a limit of
    /// 0 nothing is kept (a headless render, which never undoes).
    func record(_ rect: Rect, of texture: Texture<UInt32>) {
        guard byteLimit > 0 else { return }
        let tiles = Self.tiles(covering: rect.intersection(texture.bounds))
        guard !tiles.isEmpty else { return }
        var pixels: [UInt32] = []
        pixels.reserveCapacity(tiles.reduce(0) { $0 + $1.area })
        for t in tiles {
            for y in t.ys { pixels.append(contentsOf: UnsafeBufferPointer(start: texture.row(y) + t.minX, count: t.width)) }
        }
        for s in redoSteps { bytes -= s.bytes }
        redoSteps.removeAll()
        let step = Step(tiles: tiles, pixels: pixels)
        undoSteps.append(step)
        bytes += step.bytes
        while bytes > byteLimit, undoSteps.count > 1 {
            bytes -= undoSteps.removeFirst().bytes
        }
    }

    /// Undoes the newest step; returns the rectangle that changed, or nil when there is none.
    func undo(_ texture: Texture<UInt32>) -> Rect? { move(from: &undoSteps, to: &redoSteps, texture) }

    /// Redoes the newest undone step.
    func redo(_ texture: Texture<UInt32>) -> Rect? { move(from: &redoSteps, to: &undoSteps, texture) }

    private func move(from: inout [Step], to: inout [Step], _ texture: Texture<UInt32>) -> Rect? {
        guard var step = from.popLast() else { return nil }
        var damage = Rect.empty
        step.pixels.withUnsafeMutableBufferPointer { saved in
            var i = 0
            for t in step.tiles {
                for y in t.ys {
                    swapRows(texture.row(y) + t.minX, saved.baseAddress! + i, t.width)
                    i += t.width
                }
                damage = damage.union(t)
            }
        }
        to.append(step)
        return damage
    }

    private func swapRows(_ a: UnsafeMutablePointer<UInt32>, _ b: UnsafeMutablePointer<UInt32>, _ n: Int) {
        for i in 0..<n { let t = a[i]; a[i] = b[i]; b[i] = t }
    }

    /// The tiles of the fixed 64x64 grid that meet `rect`, each cut to `rect`'s tile bounds.
    private static func tiles(covering rect: Rect) -> [Rect] {
        guard !rect.isEmpty else { return [] }
        let s = tileSize
        var out: [Rect] = []
        var ty = rect.minY / s * s
        while ty < rect.maxY {
            var tx = rect.minX / s * s
            while tx < rect.maxX {
                out.append(Rect(x: tx, y: ty, width: s, height: s).intersection(rect))
                tx += s
            }
            ty += s
        }
        return out
    }
}
