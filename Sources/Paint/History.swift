import Compute
import Geometry

/// Undo and redo, one step per user action (a stroke, a clear, a paste, a layer operation),
/// bounded in memory.
///
/// A step keeps the changes it made, each in the form that undoes it: the tiles a layer had
/// before (the layer got fresh copies to draw into, so the old tiles are never written again),
/// a layer inserted or removed, a move, old attributes. Undoing a change *swaps* it with the
/// document, so the same step then holds what redo needs: one copy per step, never two. Steps
/// beyond `byteLimit` are dropped oldest first; with a limit of 0 nothing is kept and undo does
/// nothing (and drawing needs no copies).
final class History {
    enum Change {
        /// `tiles[k]` was the layer's tile at `keys[k]` (nil: none).
        case tiles(Layer, keys: [TileKey], tiles: [Tile?])
        /// The layer was inserted at `at` (undo removes it).
        case inserted(Layer, at: Int)
        /// The layer was removed from `at` (undo puts it back).
        case removed(Layer, at: Int)
        /// The layer at `from` was moved to `to`.
        case moved(from: Int, to: Int)
        /// The layer's attributes were these.
        case attributes(Layer, LayerAttributes)
        /// The frame was this.
        case frame(Rect)

        /// Memory the change holds.
        var bytes: Int {
            switch self {
            case .tiles(_, _, let tiles): tiles.reduce(0) { $0 + ($1 == nil ? 0 : Tile.bytes) }
            case .inserted(let layer, _), .removed(let layer, _): layer.pixels.count * Tile.bytes
            case .moved, .attributes, .frame: 0
            }
        }
    }

    struct Step {
        var changes: [Change]
        /// The current layer to go back to.
        var current: Int
        var bytes: Int { changes.reduce(0) { $0 + $1.bytes } }
    }

    private(set) var undoSteps: [Step] = []
    private(set) var redoSteps: [Step] = []
    /// The memory the steps were counted at when they were added or moved (a running total:
    /// what a compacted journal keeps, so a replay drops the same steps as the window did).
    private(set) var bytes = 0
    let byteLimit: Int

    init(byteLimit: Int = 256 << 20) { self.byteLimit = byteLimit }

    /// Whether steps are kept at all.
    var keeps: Bool { byteLimit > 0 }

    /// Replaces every step (a compacted journal's history, loaded before any event), with the
    /// running total they were counted at.
    func restore(undo: [Step], redo: [Step], bytes: Int) {
        undoSteps = undo
        redoSteps = redo
        self.bytes = bytes
    }

    /// Adds a step (forgetting what could be redone), then drops the oldest beyond the limit.
    func record(_ step: Step) {
        guard keeps, !step.changes.isEmpty else { return }
        for s in redoSteps { bytes -= s.bytes }
        redoSteps.removeAll()
        undoSteps.append(step)
        bytes += step.bytes
        while bytes > byteLimit, undoSteps.count > 1 {
            bytes -= undoSteps.removeFirst().bytes
        }
    }

    /// Undoes the newest step through `revert` (which applies one change's inverse and returns
    /// the change that applies it again); false when there is none.
    func undo(_ revert: (Change) -> Change, current: inout Int) -> Bool {
        move(from: &undoSteps, to: &redoSteps, current: &current) { $0.reversed().map(revert).reversed() }
    }

    /// Redoes the newest undone step.
    func redo(_ revert: (Change) -> Change, current: inout Int) -> Bool {
        move(from: &redoSteps, to: &undoSteps, current: &current) { $0.map(revert) }
    }

    /// Steps keep their changes in the order they were made: undone last first, redone first first.
    private func move(from: inout [Step], to: inout [Step], current: inout Int, _ apply: ([Change]) -> [Change]) -> Bool {
        guard let step = from.popLast() else { return false }
        bytes -= step.bytes
        let again = Step(changes: apply(step.changes), current: current)
        current = step.current
        bytes += again.bytes
        to.append(again)
        return true
    }
}
