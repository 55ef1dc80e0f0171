import App
import Clock
import Compute
import Events
import Files
import Foundation
import Geometry
import Input
import Journal
import Kernels
import Paint
import PNGFile
import Portal
import ReplayFormat
import Strokes
import Testing
import TestSupport

@Suite struct ColorTests {
    /// A key press typing `text`: the key of its character unless another is named.
    private func typed(_ text: String, _ key: Key? = nil, mods: Modifiers = []) -> KeyPress {
        KeyPress(key ?? text.first.map { .char($0) } ?? .other(0), mods: mods, time: 0, text: text)
    }

    @Test func typingAColour() {
        var entry = ColorEntry()
        #expect(entry.key(typed("1")) == .passed, "a digit alone is the palette")
        #expect(entry.key(typed("#", "3", mods: .shift)) == .typed)
        for c in "12aB9f" { #expect(entry.key(typed(String(c))) == .typed) }
        #expect(entry.prompt == "colour #12ab9f_ (Return sets it, Escape cancels)")
        #expect(entry.key(typed("g")) == .typed, "refused, still typing")
        #expect(entry.prompt == "colour #12ab9f_ ('g' is not a hex digit)")
        #expect(entry.key(typed("", .shift)) == .typed && entry.refused == nil, "a modifier types nothing")
        #expect(entry.key(typed("\r", .enter)) == .accepted(Color(r: 0x12, g: 0xab, b: 0x9f)))
        #expect(!entry.isTyping)
    }

    @Test func eightDigitsCarryAlphaAndOtherCountsAreRefused() {
        var entry = ColorEntry()
        _ = entry.key(typed("#"))
        for c in "ff000080" { _ = entry.key(typed(String(c))) }
        #expect(entry.key(typed("0")) == .typed && entry.digits == "ff000080", "a ninth digit is refused")
        #expect(entry.key(typed("\r", .enter)) == .accepted(Color(r: 255, g: 0, b: 0, a: 0x80)))
        _ = entry.key(typed("#"))
        for c in "1234" { _ = entry.key(typed(String(c))) }
        #expect(entry.key(typed("\r", .enter)) == .typed && entry.prompt?.contains("needs 6 or 8 digits") == true)
        _ = entry.key(typed("\u{8}", .backspace))
        #expect(entry.digits == "123")
        #expect(entry.key(typed("\u{1b}", .escape)) == .cancelled && !entry.isTyping)
    }

    @Test func theTypedColourIsABrushColourAndDigitsDoNotReachThePalette() throws {
        let h = try Harness()
        h.input(Array("#008 0ff".filter { $0 != " " }).map { (c: Character) in .key(KeyPress(.char(c == "#" ? "3" : c), mods: c == "#" ? .shift : [], time: 0, text: String(c))) })
        h.draw(frame: 1)
        #expect(h.app.status?.prompt == "colour #0080ff_ (Return sets it, Escape cancels)")
        h.input([.key(KeyPress(.enter, time: 0, text: "\r"))])
        h.draw(frame: 2)
        h.app.finish(h.loop)
        #expect(h.session.brush.color == Color(r: 0, g: 0x80, b: 0xff))
        #expect(try h.recorded().map(\.event) == [.command(.brush(color: Color(r: 0, g: 0x80, b: 0xff)))], "one colour, no palette change")
    }

    @Test func thePickerTakesTheColourUnderTheNextClickAndDrawsNothing() throws {
        let h = try Harness()
        // A red line at y = 60, then the picker over it.
        h.input([.key(KeyPress("3", time: 0, text: "3")), .pointerDown(sample(20, 60, t: 0)), .pointerUp(sample(180, 60, t: 0.01)),
                 .key(KeyPress("1", time: 0, text: "1")), .key(KeyPress("c", time: 0, text: "c"))])
        h.draw(frame: 1)
        #expect(h.window.crosshair && h.app.status?.prompt?.hasPrefix("pick a colour") == true)
        let before = h.session.layerPixels
        // The click, and a key right after it: the key waits for the pick, so order is kept.
        h.input([.pointerDown(sample(100, 60, t: 0.1)), .pointerMove(sample(150, 70, t: 0.11)), .pointerUp(sample(150, 70, t: 0.12)),
                 .key(KeyPress("]", time: 0.13, text: "]"))])
        h.draw(frame: 2)
        h.draw(frame: 3)
        #expect(!h.window.crosshair)
        #expect(h.session.brush.color == Color(r: 0xe5, g: 0x39, b: 0x35) && h.session.brush.tip.size == 16)
        #expect(h.session.layerPixels == before, "the pick drew nothing")
        h.app.finish(h.loop)
        let commands = try h.recorded().compactMap { e -> Command? in if case .command(let c) = e.event { c } else { nil } }
        #expect(commands.suffix(2) == [.brush(color: Color(r: 0xe5, g: 0x39, b: 0x35)), .brush(size: 16)])
        // Escape disarms.
        let g = try Harness()
        g.input([.key(KeyPress("c", time: 0, text: "c"))])
        #expect(g.window.crosshair, "armed")
        g.input([.key(KeyPress(.escape, time: 0, text: "\u{1b}"))])
        #expect(!g.window.crosshair)
    }
}
