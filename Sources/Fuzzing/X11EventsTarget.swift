import CX11
import Geometry
import Input
import X11Window

/// The X event translator fed what the X server and the devices may report (`X11EventScript`):
/// arbitrary device descriptions and events, core and XInput 2, in any order.
///
/// For every input: no crash; every event it reports is sane (`TranslatorPromises`); and a
/// release of button 1 after the last step ends whatever stroke was open, so that every
/// `.pointerDown` has its `.pointerUp`.
public enum X11EventsTarget: FuzzTarget {
    public static let name = "x11-events"

    public static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> FuzzFinding? {
        var script = X11EventScript(bytes)
        let size = Size(width: 400, height: 300)
        // The fake keyboard of X11WindowTests: the keycode is the keysym.
        var translator = X11EventTranslator(window: X11EventScript.window, size: size, wmProtocols: X11EventScript.wmProtocols,
                                            wmDeleteWindow: X11EventScript.wmDeleteWindow, key: { e in (KeySym(e.keycode), "") },
                                            devices: script.devices)
        var promises = TranslatorPromises(size: size)
        var steps = 0
        while let step = script.next() {
            steps += 1
            if let problem = promises.check(step, translator.translate(step)) { return FuzzFinding("step \(steps): \(problem)") }
        }
        var release = XEvent()
        release.type = ButtonRelease
        release.xbutton.button = UInt32(Button1)
        let last = X11EventScript.Step.core(release)
        if let problem = promises.check(last, translator.translate(last)) { return FuzzFinding("the last release: \(problem)") }
        return promises.strokeIsDown ? FuzzFinding("a stroke is still down after button 1 was released") : nil
    }
}

extension X11EventTranslator {
    /// What one step of a script reports.
    mutating func translate(_ step: X11EventScript.Step) -> [InputEvent] {
        var out: [InputEvent] = []
        switch step {
        case .core(let e): translate(e, into: &out)
        case .device(let e): translate(e.event, into: &out)
        case .devices(let list, _): devicesChanged(list, into: &out)
        }
        return out
    }
}
