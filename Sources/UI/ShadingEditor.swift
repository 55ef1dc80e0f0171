import Compute
import Foundation
import Kernels

/// MercurialPaint's shading editor as a panel: the hemisphere rendered live from the lights, each
/// light a handle on it (dragged to move the light round the sphere, at the same distance), a
/// hue and a brightness bar per light, and the shininess bar (drawn on a square-root scale, so
/// the usual small values get room). Laid out at a UI scale in its own coordinates.
public struct ShadingEditor: Equatable, Sendable {
    public var shading: Shading
    public let scale: Double

    public init(shading: Shading, scale: Double) { self.shading = shading; self.scale = scale }

    /// What lies under a point of the editor.
    public enum Hit: Equatable, Sendable {
        /// Light `index`'s handle on the hemisphere.
        case light(Int)
        case hue(light: Int, Double)
        case brightness(light: Int, Double)
        case shininess(Double)
        /// The panel's background: nothing happens.
        case panel
    }

    // Layout at scale 1.
    static let panel = (width: 312.0, height: 236.0)
    static let sphere = (x: 8.0, y: 20.0, side: 160.0)
    static let bars = (x: 192.0, y: 20.0, width: 112.0, height: 12.0, row: 40.0)
    static let shine = (x: 8.0, y: 200.0, width: 296.0, height: 12.0)
    static let handleRadius = 7.0

    public var width: Int { Int((Self.panel.width * scale).rounded(.up)) }
    public var height: Int { Int((Self.panel.height * scale).rounded(.up)) }

    /// Where the hemisphere and its handles lie (the handles reach a little past its edge).
    var sphereArea: Box { sphereBox.inset(by: -(Self.handleRadius + 2) * scale) }

    /// True when `other` differs from this editor only in where its lights are: only the
    /// hemisphere and its handles change.
    func differsOnlyInPositions(from other: ShadingEditor) -> Bool {
        scale == other.scale && shading.shininess == other.shading.shininess
            && zip(shading.lights, other.shading.lights).allSatisfy { $0.hue == $1.hue && $0.brightness == $1.brightness }
    }

    private var sphereBox: Box {
        let s = Self.sphere
        return Box(x: s.x * scale, y: s.y * scale, width: s.side * scale, height: s.side * scale)
    }
    private func hueBox(_ i: Int) -> Box {
        let b = Self.bars
        return Box(x: b.x * scale, y: (b.y + Double(i) * b.row) * scale, width: b.width * scale, height: b.height * scale)
    }
    private func brightnessBox(_ i: Int) -> Box {
        var b = hueBox(i)
        b.y += 16 * scale
        return b
    }
    private var shineBox: Box {
        let s = Self.shine
        return Box(x: s.x * scale, y: s.y * scale, width: s.width * scale, height: s.height * scale)
    }

    /// Where light `i`'s handle is on the hemisphere: the point whose normal faces it; `front`
    /// is false for a light behind the sphere.
    func handle(_ i: Int) -> (x: Double, y: Double, front: Bool) {
        let p = shading.lights[i].position
        let n = (p * p).sum().squareRoot()
        let d = n > 0 ? p / n : SIMD3(0, 0, 1)
        let b = sphereBox
        return (b.x + (d.x + 1) / 2 * b.width, b.y + (1 - d.y) / 2 * b.height, d.z >= 0)
    }

    /// What is at (x, y) (editor coordinates); nil outside the panel.
    public func hit(_ x: Double, _ y: Double) -> Hit? {
        guard x >= 0, y >= 0, x < Double(width), y < Double(height) else { return nil }
        let grab = (Self.handleRadius + 3) * scale
        // The nearest handle within reach, front ones first (they are drawn on top).
        let near = shading.lights.indices.map { ($0, handle($0)) }
            .filter { (x - $0.1.x) * (x - $0.1.x) + (y - $0.1.y) * (y - $0.1.y) <= grab * grab }
            .sorted { ($0.1.front ? 0 : 1, $0.0) < ($1.1.front ? 0 : 1, $1.0) }
        if let (i, _) = near.first { return .light(i) }
        for i in shading.lights.indices {
            if hueBox(i).inset(by: -2 * scale).contains(x, y) { return .hue(light: i, fraction(x, in: hueBox(i))) }
            if brightnessBox(i).inset(by: -2 * scale).contains(x, y) { return .brightness(light: i, fraction(x, in: brightnessBox(i))) }
        }
        if shineBox.inset(by: -2 * scale).contains(x, y) { return .shininess(shininess(x)) }
        return .panel
    }

    /// The value a bar of light `i` or the shininess bar gives at x (for a drag that began on it).
    public func value(of hit: Hit, atX x: Double) -> Hit {
        switch hit {
        case .hue(let i, _): .hue(light: i, fraction(x, in: hueBox(i)))
        case .brightness(let i, _): .brightness(light: i, fraction(x, in: brightnessBox(i)))
        case .shininess: .shininess(shininess(x))
        case .light, .panel: hit
        }
    }

    private func fraction(_ x: Double, in box: Box) -> Double {
        (min(max((x - box.x) / box.width, 0), 1) * 1000).rounded() / 1000
    }

    private func shininess(_ x: Double) -> Double {
        let f = fraction(x, in: shineBox)
        return (f * f * 10_000).rounded() / 10_000
    }

    /// The shading with light `i` moved so that its handle is at (x, y) (clamped to the
    /// hemisphere's rim), at the same distance and on the same side (front or back).
    public func moving(light i: Int, toX x: Double, y: Double) -> Shading {
        let b = sphereBox
        var u = (x - b.x) / b.width * 2 - 1, v = 1 - (y - b.y) / b.height * 2
        let r = (u * u + v * v).squareRoot()
        if r > 0.999 { u *= 0.999 / r; v *= 0.999 / r }
        let old = shading.lights[i]
        let distance = max((old.position * old.position).sum().squareRoot(), 1)
        let z = (1 - u * u - v * v).squareRoot() * (old.z < 0 ? -1 : 1)
        func coordinate(_ c: Double) -> Double { min(max((c * distance * 100).rounded() / 100, -1000), 1000) }
        return replacing(light: i) { Shading.Light(hue: $0.hue, brightness: $0.brightness, x: coordinate(u), y: coordinate(v), z: coordinate(z)) }
    }

    /// The shading with one bar's value set (a `.hue`, `.brightness` or `.shininess` hit).
    public func setting(_ hit: Hit) -> Shading {
        switch hit {
        case .hue(let i, let h): replacing(light: i) { Shading.Light(hue: h, brightness: $0.brightness, x: $0.x, y: $0.y, z: $0.z) }
        case .brightness(let i, let v): replacing(light: i) { Shading.Light(hue: $0.hue, brightness: v, x: $0.x, y: $0.y, z: $0.z) }
        case .shininess(let s): Shading(shininess: s, lights: shading.lights) ?? shading
        case .light, .panel: shading
        }
    }

    private func replacing(light i: Int, _ change: (Shading.Light) -> Shading.Light?) -> Shading {
        guard shading.lights.indices.contains(i), let new = change(shading.lights[i]) else { return shading }
        var lights = shading.lights
        lights[i] = new
        return Shading(shininess: shading.shininess, lights: lights) ?? shading
    }

    /// Draws it with its top-left at (0, 0); `sphere` is the hemisphere for `shading` at the
    /// sphere's size in pixels.
    /// Draws what every editor of this scale shows, whatever the lights: the panel, the labels,
    /// the hue bars and the shininess bar (drawn once and kept).
    func drawBase(_ p: Painter, font: UIFont) {
        let u = scale
        p.fill(Box(x: 0, y: 0, width: Double(width), height: Double(height)), Theme.panel)
        font.draw("Shading", x: 8 * u, y: 4 * u, scale: u, Theme.text, on: p)
        for i in 0..<Shading.lightCount {
            let hb = hueBox(i)
            font.draw("\(i + 1)", centredAt: (Self.bars.x - 11.5) * u, hb.y + 14 * u, scale: u, Theme.text, on: p)
            p.gradient(hb, alongX: { HSV.color(h: $0, s: 1, v: 1) })
        }
        p.gradient(shineBox, alongX: { HSV.color(h: 0, s: 0, v: 0.2 + 0.8 * $0) })
        font.draw("Drag the lights · l closes", x: 8 * u, y: (Self.panel.height - 17) * u, scale: u, Theme.dim, on: p)
    }

    /// Draws the rest over `drawBase`'s pixels; `sphere` is the hemisphere for `shading` at the
    /// sphere's size in pixels.
    func draw(_ p: Painter, sphere: Texture<UInt32>, font: UIFont) {
        let u = scale
        let b = sphereBox
        p.blit(sphere, x: Int(b.x.rounded()), y: Int(b.y.rounded()))
        for i in shading.lights.indices.sorted(by: { handle($0).front == handle($1).front ? $0 > $1 : handle($0).front == false }) {
            let h = handle(i), light = shading.lights[i]
            let r = Self.handleRadius * u
            p.ring(cx: h.x, cy: h.y, inner: 0, outer: r + 1.5 * u, Theme.dark)
            p.ring(cx: h.x, cy: h.y, inner: h.front ? 0 : r - 2 * u, outer: r, HSV.color(h: light.hue, s: 1, v: max(light.brightness, 0.25)))
            font.draw("\(i + 1)", centredAt: h.x, h.y, scale: u, h.front ? Color.black : Theme.text, on: p)
        }
        for (i, light) in shading.lights.enumerated() {
            let vb = brightnessBox(i)
            p.gradient(vb, alongX: { HSV.color(h: light.hue, s: 1, v: $0) })
            marker(p, hueBox(i), light.hue)
            marker(p, vb, light.brightness)
        }
        font.draw("Shininess \(String(format: "%.3f", shading.shininess))", x: shineBox.x, y: shineBox.y - 15 * u, scale: u, Theme.text, on: p)
        marker(p, shineBox, shading.shininess.squareRoot())
    }

    private func marker(_ p: Painter, _ box: Box, _ f: Double) {
        let x = box.x + f * box.width
        p.fill(Box(x: x - 2 * scale, y: box.y - 2 * scale, width: 4 * scale, height: box.height + 4 * scale), Theme.dark)
        p.fill(Box(x: x - 1 * scale, y: box.y - 1 * scale, width: 2 * scale, height: box.height + 2 * scale), Theme.light)
    }
}
