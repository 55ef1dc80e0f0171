import CX11
import Geometry
import Input
import X11Window

/// What `X11EventTranslator`'s doc comment promises, checked step by step against what it
/// reports:
///
/// - samples are at finite positions, at times since the first event (0 up to 2³² ms), and carry
///   a pressure only within a stroke, in 0…1 and never zero (a zero reading keeps the last good one),
///   and a tilt in −1…1 each way;
/// - `.pointerDown` and `.pointerUp` alternate, starting with a down; `.pointerMove` comes only
///   while button 1 or the middle button is down, one for every motion event, and `.hover` for
///   every one with neither down; a second press of
///   button 1 and a release without a press say nothing;
/// - a press that waits for its first pressure waits no longer than a motion 17 ms after it;
/// - a stroke whose device is unplugged ends with a `.pointerUp` at its last sample;
/// - the wheel reports presses only; a resize reports a new size; Shift and Control report the
///   modifiers after the change; each kind of event comes only from its kind of X event.
struct TranslatorPromises {
    /// Where the times of samples end: 2³² milliseconds.
    static let timeLimit = 4_294_967.296
    /// How long a press may wait for its first pressure (the translator's `pressureWaitMS`).
    static let pressureWaitMS: UInt32 = 17

    /// What was open before a step.
    private struct Before {
        var strokeWasOpen: Bool, middleWasDown: Bool
        /// When the press still waiting for its pressure was made.
        var held: UInt32?
    }

    private(set) var strokeIsDown = false
    private var middleIsDown = false
    /// The press that began the open stroke but reported nothing yet: its time.
    private var heldSince: UInt32?
    /// The device of the open stroke, reported or held.
    private var strokeSource: Int32?
    /// The open stroke's last sample reported, and the one before the last `.pointerUp`.
    private var lastSample: PointerSample?, lastBeforeUp: PointerSample?
    private var size: Size
    private var heldKeys: Set<KeySym> = []

    init(size: Size) { self.size = size }

    /// The first promise `out`, what `step` reported, breaks; nil when it keeps them all.
    mutating func check(_ step: X11EventScript.Step, _ out: [InputEvent]) -> String? {
        let before = Before(strokeWasOpen: strokeIsDown || heldSince != nil, middleWasDown: middleIsDown, held: heldSince)
        for e in out {
            if let problem = follow(e, from: step) { return "\(problem), in \(out)" }
        }
        if let problem = checkKeys(step, out) { return problem }
        switch step {
        case .device(let e): return checkPointer(e.kind, e.button, e.source, step.time, out, before)
        case .core(let e) where e.type == ButtonPress || e.type == ButtonRelease:
            return checkPointer(e.type == ButtonPress ? .press : .release, Int(e.xbutton.button), 0, step.time, out, before)
        case .core(let e) where e.type == MotionNotify:
            return checkPointer(.motion, 0, 0, step.time, out, before)
        case .devices(_, let ids) where before.strokeWasOpen && !ids.contains(where: { $0 == strokeSource }):
            guard !strokeIsDown, heldSince == nil, case .pointerUp(let end)? = out.last, end == lastBeforeUp else {
                return "a stroke whose device was unplugged does not end at its last sample: \(out)"
            }
            strokeSource = nil
        default: break
        }
        return nil
    }

    /// A pointer event from `source` (0 for core events) at `time`.
    private mutating func checkPointer(_ kind: X11EventTranslator.DeviceEvent.Kind, _ button: Int, _ source: Int32, _ time: UInt32?,
                                       _ out: [InputEvent], _ before: Before) -> String? {
        switch kind {
        case .press where button == 1:
            if before.strokeWasOpen { return out.isEmpty ? nil : "a second press of button 1 reports \(out)" }
            strokeSource = source
            if !strokeIsDown { heldSince = time }
        case .release where button == 1:
            if !before.strokeWasOpen { return out.isEmpty ? nil : "a release of button 1 without a press reports \(out)" }
            if strokeIsDown || heldSince != nil { return "a release of button 1 leaves the stroke open: \(out)" }
            strokeSource = nil
        case .motion:
            if let held = before.held, let time, time &- held >= Self.pressureWaitMS, heldSince != nil {
                return "a press held longer than \(Self.pressureWaitMS) ms (since \(held), now \(time)): \(out)"
            }
            let open = before.strokeWasOpen || before.middleWasDown
            if !open {
                guard out.count == 1, case .hover = out[0] else { return "a motion with no button down reports \(out), not one hover" }
            }
            if before.held == nil, open {
                guard out.count == 1, case .pointerMove = out[0] else { return "a motion reports \(out), not one move" }
            }
        case .press, .release: break
        }
        return nil
    }

    /// Follows one reported event: the alternation of downs and ups, sane samples, and which
    /// step may report it.
    private mutating func follow(_ e: InputEvent, from step: X11EventScript.Step) -> String? {
        let type = step.coreType, isKey = type == KeyPress || type == KeyRelease
        switch e {
        case .pointerDown(let s):
            guard step.isPointer || step.isDevices, !strokeIsDown else { return "a down while a stroke is down, or from no pointer event" }
            strokeIsDown = true
            heldSince = nil
            lastSample = s
            return problem(with: s, inStroke: true)
        case .pointerMove(let s):
            guard step.isPointer || step.isDevices, strokeIsDown || middleIsDown else {
                return "a move with neither button 1 nor the middle button down, or from no pointer event"
            }
            if strokeIsDown { lastSample = s }
            return problem(with: s, inStroke: strokeIsDown)
        case .pointerUp(let s):
            guard step.isPointer || step.isDevices, strokeIsDown else { return "an up without a down, or from no pointer event" }
            strokeIsDown = false
            lastBeforeUp = lastSample
            return problem(with: s, inStroke: true)
        case .hover(let s):
            guard step.isPointer, !strokeIsDown, !middleIsDown else { return "a hover while a button is down, or from no pointer event" }
            return problem(with: s, inStroke: false)
        case .leave:
            return type == LeaveNotify ? nil : "a leave from no crossing event"
        case .button(let b, let isDown, let s):
            guard step.isButton else { return "a button from no button event" }
            if b.isWheel && !isDown { return "a wheel button's release" }
            if b == .middle { middleIsDown = isDown }
            return problem(with: s, inStroke: false)
        case .key(let k), .keyRelease(let k):
            guard isKey else { return "a key from no key event" }
            if !k.x.isFinite || !k.y.isFinite { return "a key \(k)" }
            return problem(time: k.time)
        case .modifiers(_, let time):
            return isKey ? problem(time: time) : "modifiers from no key event"
        case .resize(let newSize, let time):
            guard type == ConfigureNotify, newSize != size else { return "a resize to the same size, or from no configure event" }
            size = newSize
            return problem(time: time)
        case .expose: return type == Expose ? nil : "an expose from no expose event"
        case .close: return type == ClientMessage ? nil : "a close from no client message"
        case .paste: return "a paste"
        }
    }

    /// A key event reports its key (unless NoSymbol), then for Shift and Control the modifiers
    /// after the change: a press holds the modifier, a release keeps it only while the other
    /// key of the pair is held.
    private mutating func checkKeys(_ step: X11EventScript.Step, _ out: [InputEvent]) -> String? {
        guard case .core(let e) = step, e.type == KeyPress || e.type == KeyRelease else { return nil }
        let sym = KeySym(e.xkey.keycode), press = e.type == KeyPress
        let pairs: [(KeySym, KeySym, Modifiers)] = [(KeySym(XK_Shift_L), KeySym(XK_Shift_R), .shift),
                                                    (KeySym(XK_Control_L), KeySym(XK_Control_R), .control)]
        let pair = pairs.first { sym == $0.0 || sym == $0.1 }
        guard out.count == (sym == 0 ? 0 : 1) + (pair == nil ? 0 : 1) else { return "a key event reports \(out)" }
        guard let (left, right, flag) = pair else { return nil }
        if press { heldKeys.insert(sym) } else { heldKeys.remove(sym) }
        let otherHeld = heldKeys.contains(sym == left ? right : left)
        guard case .modifiers(let mods, _)? = out.last, press ? mods.contains(flag) : otherHeld || !mods.contains(flag) else {
            return "the modifiers after a key event: \(out)"
        }
        return nil
    }

    private func problem(with s: PointerSample, inStroke: Bool) -> String? {
        if !s.x.isFinite || !s.y.isFinite { return "a sample at (\(s.x), \(s.y))" }
        if let p = s.pressure, !inStroke || !(p > 0 && p <= 1) { return "a sample with pressure \(p)" }
        if !(-1...1).contains(s.xtilt) || !(-1...1).contains(s.ytilt) { return "a sample with tilt (\(s.xtilt), \(s.ytilt))" }
        return problem(time: s.time)
    }

    private func problem(time: Double) -> String? {
        (0..<Self.timeLimit).contains(time) ? nil : "a time of \(time) s"
    }
}

extension X11EventScript.Step {
    /// The X event type of a core step.
    var coreType: Int32? { if case .core(let e) = self { e.type } else { nil } }

    /// A pointer event: a button pressed or released, or motion.
    var isPointer: Bool {
        if case .device = self { return true }
        return coreType == MotionNotify || isButton
    }

    var isButton: Bool {
        if case .device(let e) = self { return e.kind != .motion }
        return coreType == ButtonPress || coreType == ButtonRelease
    }

    var isDevices: Bool { if case .devices = self { true } else { false } }
}
