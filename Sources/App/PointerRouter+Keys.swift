import Events
import Geometry
import Input
import Kernels
import Strokes
import UI

/// The keys: a name or a colour being typed takes them first; otherwise `KeyMap` says what a
/// key does.
extension PointerRouter {
    // MARK: - Keys

    mutating func key(_ key: KeyPress, _ c: Context) -> [RouterAction] {
        if case .typingName(var entry) = mode {
            let outcome = entry.key(key, files: c.names.files)
            switch outcome {
            case .typed: mode = .typingName(entry)
            case .cancelled: mode = .idle
            case .accepted(let text):
                mode = .idle
                switch entry.purpose {
                case .rename: return [.statusChanged, .session(.command(.layer(.set(name: text))), at: key.time)]
                case .open: return [.statusChanged, .app(.open(text))]
                case .save, .saveAs: return [.statusChanged, .app(.save(to: text))]
                }
            }
            // Ctrl+Q still quits while a name is typed.
            return KeyMap.action(for: key) == .quit ? [.app(.quit)] : [.statusChanged]
        }
        if case .typingColor(var entry) = mode {
            let outcome = entry.key(key)
            switch outcome {
            case .typed:
                mode = .typingColor(entry)
                return [.statusChanged]
            case .cancelled:
                mode = .idle
                return [.statusChanged]
            case .accepted(let color):
                mode = .idle
                return [.statusChanged, .session(.command(.brush(color: color)), at: key.time)]
            case .passed: break
            }
        } else if mode == .idle || mode == .pickArmed {
            var entry = ColorEntry()
            if entry.key(key) == .typed {
                let disarms = mode == .pickArmed
                mode = .typingColor(entry)
                return [.statusChanged] + (disarms ? [.crosshair(false)] : [])
            }
        }
        if let id = c.pager, let turn = Self.pageTurn(key) { return [.widget(id, .page(turn), x: key.x, y: key.y)] }
        if key.key == .escape {
            if mode == .pickArmed {
                mode = .idle
                return [.statusChanged, .crosshair(false)]
            }
            return [.closePopUp]
        }
        if key.key == Key.space { spaceHeld = true }
        guard let action = KeyMap.action(for: key) else { return [] }
        let t = key.time
        switch action {
        case .command(let command): return [.session(.command(command), at: t)]
        case .sizeStep(let step):
            let size = c.brush.tip.size, sizes = BrushTip.sizes
            return [.session(.command(.brush(size: step < 0 ? max(sizes.lowerBound, size / 2) : min(sizes.upperBound, size * 2))), at: t)]
        case .nextStabilizer: return [.session(.command(.brush(stabilizer: c.brush.nextStabilizer)), at: t)]
        case .zoom(let steps): return [.session(.view(zoomed(c.view, by: steps, key.x, key.y)), at: t)]
        case .resetView: return [.session(.view(.showing(corner: c.frame)), at: t)]
        case .turn(let degrees):
            let (cx, cy) = centre(c)
            let kept = turnPivot.flatMap { $0.view == c.view ? (x: $0.x, y: $0.y) : nil }
            let pivot = kept ?? c.view.canvasPoint(x: cx, y: cy)
            let view = c.view.turned(by: degrees, around: cx, cy, pivot: pivot)
            turnPivot = TurnPivot(view: view, x: pivot.x, y: pivot.y)
            return [.session(.view(view), at: t)]
        case .mirrorView: return [.session(.view(c.view.mirrored(about: c.window.width / 2)), at: t)]
        case .pickColor:
            guard mode == .idle else { return [] }
            mode = .pickArmed
            return [.statusChanged, .crosshair(true), .hideOutline]
        case .toggleTools: return [.toggleTools]
        case .shadingEditor: return [.toggleWidget(.shadingEditor, x: key.x, y: key.y)]
        case .help: return [.toggleWidget(.help, x: key.x, y: key.y)]
        case .layerPanel: return [.toggleWidget(.layers, x: key.x, y: key.y)]
        case .brushChooser: return [.toggleWidget(.brushChooser, x: key.x, y: key.y)]
        case .renameLayer:
            guard mode == .idle else { return [] }
            mode = .typingName(NameEntry(.rename, suggestion: c.layerName))
            return [.statusChanged, .hideOutline]
        case .screenshot: return [.app(.screenshot)]
        case .save, .saveAs, .open:
            if action == .save, let path = c.names.path { return [.app(.save(to: path))] }
            guard mode == .idle else { return [] }
            let purpose: NameEntry.Purpose = action == .open ? .open : action == .save ? .save : .saveAs
            switch c.chooser {
            case .absent: return askInStrip(purpose, suggestion: c.names.suggestion(for: purpose))
            case .ready: return [.app(.choose(purpose))]
            case .open: return [.say("the file chooser is open")]
            }
        case .copy: return [.app(.copy)]
        case .paste:
            let at = c.view.canvasPoint(x: key.x, y: key.y)
            return [.app(.paste(x: at.x, y: at.y))]
        case .quit: return [.app(.quit)]
        case .symmetry(let what): return [.session(.command(.symmetry(symmetry(what, key, c))), at: t)]
        }
    }

    /// The modes Shift+Y steps through, in order: a rotation's with its number of copies.
    public static let symmetryModes: [(mode: Symmetry.Mode, lines: Int)] = [
        (.vertical, 2), (.horizontal, 2), (.both, 2), (.rotational, 3), (.rotational, 4), (.rotational, 6), (.rotational, 8),
    ]

    /// A canvas point put on the nearest pixel edge or centre: axes through one make the pixel
    /// pen's copies exact mirrors.
    static func snapped(_ p: (x: Double, y: Double)) -> (Double, Double) { ((p.x * 2).rounded() / 2, (p.y * 2).rounded() / 2) }

    /// The symmetry with its centre dragged to the canvas point under `s`.
    func symmetry(movedTo s: PointerSample, _ c: Context) -> Symmetry {
        var moved = c.symmetry
        (moved.x, moved.y) = Self.snapped(c.view.canvasPoint(x: s.x, y: s.y))
        return moved
    }

    /// The symmetry a symmetry key makes of the one the queued events leave.
    mutating func symmetry(_ what: SymmetryKey, _ key: KeyPress, _ c: Context) -> Symmetry {
        var s = c.symmetry
        // Never placed: its axes through the frame's middle.
        if s == .off { (s.x, s.y) = (Double(c.frame.minX + c.frame.maxX) / 2, Double(c.frame.minY + c.frame.maxY) / 2) }
        switch what {
        case .toggle:
            if s.isOn {
                symmetryTurnedOff = s
                s.mode = .off
            } else {
                s.mode = symmetryTurnedOff?.mode ?? .vertical
                s.lines = symmetryTurnedOff?.lines ?? s.lines
            }
        case .nextMode:
            let i = s.isOn ? Self.symmetryModes.firstIndex { $0.mode == s.mode && ($0.mode != .rotational || $0.lines == s.lines) } : nil
            let next = Self.symmetryModes[i.map { ($0 + 1) % Self.symmetryModes.count } ?? 0]
            (s.mode, s.lines) = next
        case .toPointer:
            (s.x, s.y) = Self.snapped(c.view.canvasPoint(x: key.x, y: key.y))
            if !s.isOn { (s.mode, s.lines) = (symmetryTurnedOff?.mode ?? .vertical, symmetryTurnedOff?.lines ?? s.lines) }
        }
        return s
    }

    /// The page a key turns to in a widget with pages: Page Down, Down and Right the next, Page Up,
    /// Up and Left the one before, Home the first, End the last; with Control held, none (Ctrl+Page
    /// Up still moves the layer).
    static func pageTurn(_ key: KeyPress) -> PageTurn? {
        guard !key.mods.contains(.control) else { return nil }
        switch key.key {
        case .pageDown, .down, .right: return .next
        case .pageUp, .up, .left: return .previous
        case .home: return .first
        case .end: return .last
        default: return nil
        }
    }

    /// Asks for a file's name in the status strip, `suggestion` typed in: for the key, or when
    /// the desktop's chooser cannot answer. Only with nothing else under way.
    public mutating func askInStrip(_ purpose: NameEntry.Purpose, suggestion: String) -> [RouterAction] {
        guard mode == .idle else { return [.say("the file's name is asked again by Ctrl+S, Ctrl+Shift+S or Ctrl+O")] }
        mode = .typingName(NameEntry(purpose, suggestion: suggestion))
        return [.statusChanged, .hideOutline]
    }
}

extension PointerRouter {
    /// A turning key's pivot (`turnPivot`): the canvas point, and the view the turn made.
    struct TurnPivot: Equatable, Sendable {
        var view: ViewTransform
        var x: Double, y: Double
    }
}
