import Events
import Kernels
import ReplayFormat
import Testing

private let header = #"{"quicksilver": 1, "width": 64, "height": 48}"#

/// A light's JSON with `fields` replacing (or, given nil, leaving out) the defaults'.
private func light(_ fields: [String: String?] = [:]) -> String {
    let defaults = [("hue", "0.1"), ("brightness", "1"), ("x", "0"), ("y", "25"), ("z", "0")]
    var parts = defaults.compactMap { key, value in (fields[key] ?? value).map { #""\#(key)": \#($0)"# } }
    parts += fields.filter { key, _ in !defaults.contains { $0.0 == key } }.compactMap { key, value in value.map { #""\#(key)": \#($0)"# } }
    return "{" + parts.joined(separator: ", ") + "}"
}

/// A shading line with `lights` (four default ones unless given) and `fields`.
private func shading(lights: String? = "[" + Array(repeating: light(), count: 4).joined(separator: ", ") + "]",
                     _ fields: String = #""shininess": 0.02"#) -> String {
    let parts = [fields] + (lights.map { [#""lights": \#($0)"#] } ?? [])
    return #"{"t": 0, "type": "shading", "# + parts.filter { !$0.isEmpty }.joined(separator: ", ") + "}"
}

/// Four lights, the third one `third`.
private func withThird(_ third: String) -> String { "[" + [light(), light(), third, light()].joined(separator: ", ") + "]" }

@Suite struct ShadingEventTests {
    /// MercurialPaint's lighting, as docs/replay-format.md shows it.
    static let documented = #"{"t": 2, "type": "shading", "shininess": 0.02, "lights": [{"hue": 0.1, "brightness": 1, "x": 0, "y": 25, "z": 0}, {"hue": 0.48, "brightness": 1, "x": 25, "y": -35, "z": 0}, {"hue": 0.85, "brightness": 1, "x": -35, "y": -20, "z": -10}, {"hue": 0.18, "brightness": 1, "x": -35, "y": 10, "z": 35}]}"#

    @Test func theDocumentedLineIsMercurialPaintsAndWritesBackTheSame() throws {
        let text = header + "\n" + Self.documented + "\n"
        let r = try ReplayParser.parse(text)
        #expect(r.events == [Replay.TimedEvent(t: 2, event: .command(.shading(.mercurialPaint)))])
        #expect(r.text == text)
    }

    @Test func awkwardNumbersReadBackAsTheSameDoubles() throws {
        let values: [(hue: Double, brightness: Double, x: Double, y: Double, z: Double)] = [
            (0.1 + 0.2, 1e-7, -1000, 1000, 5e-324),
            (1, 0, 999.9999999999999, -0.3, 1.0 / 3),
            (0, 0.5, 123456.789e-3, -2.5e-8, 7),
            (2.0 / 3, 0.999, 0.1, -0.1, 12.34),
        ]
        let lights = values.compactMap { Shading.Light(hue: $0.hue, brightness: $0.brightness, x: $0.x, y: $0.y, z: $0.z) }
        let written = try #require(Shading(shininess: 0.7 * 0.3, lights: lights))
        let event = Replay.TimedEvent(t: 0.25, event: .command(.shading(written)))
        let r = try ReplayParser.parse(header + "\n" + Replay.line(for: event) + "\n")
        guard case .command(.shading(let read)) = r.events.first?.event else { Issue.record("not a shading: \(r.events)"); return }
        #expect(read.shininess.bitPattern == written.shininess.bitPattern)
        for (a, b) in zip(read.lights, written.lights) {
            #expect([a.hue, a.brightness, a.x, a.y, a.z].map(\.bitPattern) == [b.hue, b.brightness, b.x, b.y, b.z].map(\.bitPattern))
        }
    }

    /// Each bad line, as line 2, and the whole message it must get.
    static let errors: [(String, String)] = [
        (shading(""), #""shading" needs "shininess""#),
        (shading(#""shininess": 1.5"#), #""shininess" must be in 0…1, got 1.5"#),
        (shading(#""shininess": -0.5"#), #""shininess" must be in 0…1, got -0.5"#),
        (shading(#""shininess": "high""#), #""shininess" must be a number, got a string"#),
        (shading(#""shininess": 1e999"#), #""shininess" must be a finite number"#),
        (shading(lights: nil), #""shading" needs "lights", an array of four lights"#),
        (shading(lights: light()), #""lights" must be an array of four lights, got an object"#),
        (shading(lights: "[" + Array(repeating: light(), count: 3).joined(separator: ", ") + "]"), #""lights" must hold exactly 4 lights, got 3"#),
        (shading(lights: "[" + Array(repeating: light(), count: 5).joined(separator: ", ") + "]"), #""lights" must hold exactly 4 lights, got 5"#),
        (shading(lights: "[]"), #""lights" must hold exactly 4 lights, got 0"#),
        (shading(lights: withThird("7")), "the third light must be an object, got a number"),
        (shading(lights: withThird(light(["hue": nil]))), #"the third light needs "hue""#),
        (shading(lights: withThird(light(["brightness": nil]))), #"the third light needs "brightness""#),
        (shading(lights: withThird(light(["x": nil]))), #"the third light needs "x""#),
        (shading(lights: withThird(light(["y": nil]))), #"the third light needs "y""#),
        (shading(lights: withThird(light(["z": nil]))), #"the third light needs "z""#),
        (shading(lights: withThird(light(["hue": "1.01"]))), #""hue" of the third light must be in 0…1, got 1.01"#),
        (shading(lights: withThird(light(["brightness": "-1"]))), #""brightness" of the third light must be in 0…1, got -1"#),
        (shading(lights: withThird(light(["hue": "\"red\""]))), #""hue" of the third light must be a number, got a string"#),
        (shading(lights: withThird(light(["x": "1000.5"]))), #""x" of the third light must be in -1000…1000, got 1000.5"#),
        (shading(lights: withThird(light(["y": "-2000"]))), #""y" of the third light must be in -1000…1000, got -2000"#),
        (shading(lights: withThird(light(["z": "1e999"]))), #""z" of the third light must be a finite number"#),
        (shading(lights: withThird(light(["z": "null"]))), #""z" of the third light must be a number, got null"#),
        (shading(lights: withThird(light(["w": "1"]))), #"unknown field "w" in the third light of a "shading" event"#),
        (shading(#""shininess": 0.02, "ambient": 0.1"#), #"unknown field "ambient" in a "shading" event"#),
    ]

    @Test(arguments: errors)
    func badShadingNamesTheLineAndTheField(line: String, message: String) {
        do {
            _ = try ReplayParser.parse(header + "\n" + line + "\n")
            Issue.record("accepted: \(line)")
        } catch {
            #expect(error.line == 2 && error.message == message, "\(error)")
        }
    }

    @Test func theFirstBadLightIsTheOneNamed() {
        let lights = "[" + [light(), light(["hue": "2"]), light(["hue": "3"]), light()].joined(separator: ", ") + "]"
        #expect(throws: ReplayError(line: 2, message: #""hue" of the second light must be in 0…1, got 2"#, kind: .outOfRange)) {
            try ReplayParser.parse(header + "\n" + shading(lights: lights) + "\n")
        }
    }

    @Test func aBrushsLinesRestoreItsShadingOnlyWhereItIsNotTheDefault() throws {
        var brush = Brush()
        #expect(!Replay.lines(for: brush, t: 0).contains { $0.contains("shading") })
        let warm = try #require(Shading(shininess: 0.3, lights: Shading.mercurialPaint.lights.reversed()))
        brush.shading = warm
        let lines = Replay.lines(for: brush, t: 0)
        #expect(lines.last == Replay.line(for: Replay.TimedEvent(t: 0, event: .command(.shading(warm)))))
        // Played, those lines give back the same brush.
        let r = try ReplayParser.parse(([header] + lines).joined(separator: "\n") + "\n")
        var played = Brush()
        for e in r.events {
            switch e.event {
            case .command(.brush(let kind, let size, let color, let stabilizer)): played.apply(kind: kind, size: size, color: color, stabilizer: stabilizer)
            case .command(.shading(let s)): played.shading = s
            default: Issue.record("unexpected \(e.event)")
            }
        }
        #expect(played.shading == warm && played.tip == brush.tip && played.color == brush.color)
    }

    @Test func aShadingChangesNoPixelByItself() {
        #expect(!SessionEvent.command(.shading(.mercurialPaint)).changesThePicture)
    }
}

@Suite struct ShadingValueTests {
    @Test func mercurialPaintIsTheSceneKitScene() {
        let s = Shading.mercurialPaint
        #expect(s.shininess == 0.02 && s.exponent == 0.02 * 128)
        #expect(s.lights.map(\.hue) == [0.10, 0.48, 0.85, 0.18])
        #expect(s.lights.allSatisfy { $0.brightness == 1 })
        #expect(s.lights.map(\.position) == [SIMD3(0, 25, 0), SIMD3(25, -35, 0), SIMD3(-35, -20, -10), SIMD3(-35, 10, 35)])
        #expect(Brush().shading == s)
    }

    @Test func onlyValidShadingsCanBeMade() throws {
        let ok = try #require(Shading.Light(hue: 1, brightness: 0, x: -1000, y: 1000, z: 0))
        #expect(Shading.Light(hue: 1.5, brightness: 1, x: 0, y: 0, z: 0) == nil)
        #expect(Shading.Light(hue: 0.5, brightness: -0.1, x: 0, y: 0, z: 0) == nil)
        #expect(Shading.Light(hue: .nan, brightness: 1, x: 0, y: 0, z: 0) == nil)
        #expect(Shading.Light(hue: 0, brightness: 1, x: .infinity, y: 0, z: 0) == nil)
        #expect(Shading.Light(hue: 0, brightness: 1, x: 0, y: 0, z: 1000.001) == nil)
        #expect(Shading.Light(hue: 0, brightness: 1, x: 0, y: .nan, z: 0) == nil)
        #expect(Shading(shininess: 0.5, lights: [ok, ok, ok]) == nil)
        #expect(Shading(shininess: 0.5, lights: [ok, ok, ok, ok, ok]) == nil)
        #expect(Shading(shininess: 1.1, lights: [ok, ok, ok, ok]) == nil)
        #expect(Shading(shininess: .nan, lights: [ok, ok, ok, ok]) == nil)
        #expect(Shading(shininess: 1, lights: [ok, ok, ok, ok])?.exponent == 128)
    }
}
