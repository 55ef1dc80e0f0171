import Compute
import Events
import Geometry
import Strokes

/// Playing one event on the session's parts: a sample on the stroke engine, a command on the
/// brush, the document or the view.
extension Session {
    /// What `event` becomes as it is played and recorded, when that is not itself: a layer
    /// key's step becomes what it does now.
    func resolved(_ event: SessionEvent) -> SessionEvent? {
        guard case .command(.layer(let op)) = event, case .step = op else { return nil }
        return resolved(op)
    }

    // Kept out of the loops that play events: inlined there, its reads of the layer stack were
    // hoisted ahead of the test for a step and paid an exclusivity check for every event.
    @inline(never)
    private func resolved(_ step: LayerOp) -> SessionEvent { .command(.layer(document.resolved(step))) }

    func play(_ event: SessionEvent) {
        if case .command = event {} else { strokes.forgetPrediction() }
        switch event {
        case .pointerDown(let s):
            endStroke(at: nil)
            settle()
            strokeOnGroup = document.currentLayer.isGroup
            if strokeOnGroup { break }
            if brush.mypaint != nil {
                damage = damage.union(strokes.beginMyPaint(s, color: brush.color, symmetry: symmetry, view: view.transform, into: document))
            } else {
                damage = damage.union(strokes.begin(s.point, brush: brush, symmetry: symmetry))
            }
        case .pointerMove(let s):
            if strokeOnGroup { break }
            damage = damage.union(strokes.addMyPaint(s, pressure: s.pressure, view: view.transform, into: document) ?? strokes.add(s.point))
        case .pointerUp(let s):
            if strokeOnGroup {
                strokeOnGroup = false
                break
            }
            // A MyPaint brush is fed the up as a sample of pressure 0 at its position.
            damage = damage.union(strokes.addMyPaint(s, pressure: 0, view: view.transform, into: document) ?? .empty)
            endStroke(at: s.point)
        case .command(let command):
            run(command)
        case .resize(let size):
            document.resize(to: size)
            followFrame()
            view.windowIsStale = true
        case .reframe(let rect):
            document.reframe(rect)
            followFrame()
        case .view(let transform):
            view.transform = transform
            view.windowIsStale = true
        }
    }

    func endStroke(at p: StrokePoint?) { damage = damage.union(strokes.end(at: p, into: document, on: compute)) }

    private func run(_ command: Command) {
        switch command {
        case .brush, .shading, .channel:
            brush.apply(command)
        case .mypaint(let choice):
            // Made anew, in its colour (else the brush's); the choice kept with its settings.
            brush.apply(command)
            if case .success(let made) = strokes.choose(choice, color: brush.color, compute: compute) { brush.mypaint = made }
        case .undo, .redo, .clear, .paste, .layer, .frame:
            // Each of these changes the layers or the frame: a live stroke ends first, as one
            // step of its own (a frame fitted to the ink takes in the stroke's).
            endStroke(at: nil)
            settle()
            change(command)
            followFrame()
        case .symmetry(let s):
            symmetry = s
        case .exit, .document:
            break
        case .continued:
            endStroke(at: nil)
            settle()
            _ = view.apply(command)
        case .invert, .pulse:
            _ = view.apply(command)
        }
    }

    /// The commands that change the document (its damage reaches the view at the next compose).
    private func change(_ command: Command) {
        switch command {
        case .undo, .redo:
            let (before, undoing) = (document.frame, command == .undo)
            _ = undoing ? document.undo() : document.redo()
            // Said only where the step moved the frame (nothing else in the window shows it).
            frameChange = document.frame == before ? nil : .stepped(document.frame, undone: undoing)
        case .clear: document.clearCurrentLayer()
        case .paste(let picture): document.paste(picture)
        case .layer(let op): document.apply(op, on: compute)
        case .frame(let op): frameChange = apply(op)
        default: break
        }
    }
}
