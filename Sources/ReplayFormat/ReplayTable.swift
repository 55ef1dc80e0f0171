import Events
import Geometry
import Input
import Kernels
import Strokes

/// THE replay format, as one table: the header's shape and every event's (`LineShape`), each
/// field's name, kind, range or allowed values and whether it may be left out (`Field`). The
/// writer (`Replay.line(for:)`) and the parser (`ReplayParser`) know no line but through it, and
/// the pointer lines' fast path (`PointerLine`) is checked against it
/// (`ReplayParser.fastPathDisagreement`).
///
/// An event line is `{"t": T, "type": TYPE}` with, for a type of several shapes, `"action":
/// ACTION`, then its shape's fields in the table's order. Adding a field or an event is one
/// entry here, and the Swift value it maps to (see `events`).
public enum ReplayTable {
    /// The format version this program writes and reads.
    public static let version = 1

    /// Every event's time, seconds since the session started (the parser also checks it never
    /// decreases, but where `timeMayGoBack`).
    public static let time = Field("t", .number(0...Double.infinity, shown: .swift), .required(.missing))

    /// Every event's type: the `type` of one of `events`.
    public static let type = Field("type", .string(.any), .required(.missing))

    /// Where a view or a paste may put a corner, in pixels.
    public static let offsets = -1_000_000_000...1_000_000_000

    /// A layer's name: one line of text, not too long (what a document may hold, and so what a
    /// name read from an .ora is cut to).
    public static let layerNameBytes = 1...DocumentLimits.nameBytes

    /// The modifier keys a pointer sample records, as `mods` names them.
    public static let modifiers: [(name: String, keys: Modifiers)] = [("shift", .shift), ("control", .control)]

    /// The fields of `opened`, the picture a session opened (`OpenedPicture`).
    static let openedFields = [
        Field("path", .string(.path), .required(.missing)),
        Field("hash", .string(.any), .required(.missing)),
        Field("copy", .string(.fileName("a file")), .required(.missing)),
    ]

    /// Line 1.
    public static let header = HeaderShape("header", [
        Field("quicksilver", .version(version),
              .required(.message("the first line must be the header {\"quicksilver\": 1, \"width\": …, \"height\": …}"))),
        Field("width", .integer(Replay.Header.sizes), .required(.missing)),
        Field("height", .integer(Replay.Header.sizes), .required(.missing)),
        Field("seed", .integer(Int.min...Int.max), .defaulted(.integer(0))),
        Field("spray", .choice(["canvas", "stroke"], refused: .mustBe), .defaulted(.string("canvas"))),
        Field("background", .color(alpha: false), .defaulted(.color(.white))),
        Field("snapshot", .string(.fileName("a PNG file")), .optional),
        Field("history", .string(.fileName("a file")), .optional),
        Field("opened", .object(openedFields), .optional),
        Field("started", .string(.timestamp), .optional),
        Field("continues", .string(.path), .optional),
        Field("continuesBytes", .integer(0...Int.max), .optional),
        Field("undoMegabytes", .integer(Replay.Header.undoMegabyteRange), .defaulted(.integer(Replay.Header.defaultUndoMegabytes))),
    ], rules: .init(noun: "the header"), read: { r in
        guard let width = r.integer("width"), let height = r.integer("height"), let seed = r.integer("seed"),
              let background = r.color("background"), let undo = r.integer("undoMegabytes") else { return nil }
        return Replay.Header(size: Size(width: width, height: height), seed: Int64(seed), sprayFromStroke: r.string("spray") == "stroke",
                             background: background,
                             snapshot: r.string("snapshot"), started: r.string("started"), continues: r.string("continues"),
                             continuesBytes: r.integer("continuesBytes"), undoMegabytes: undo, history: r.string("history"),
                             opened: r.record("opened").flatMap { o in
                                 o.string("path").flatMap { p in o.string("hash").flatMap { h in o.string("copy").map { OpenedPicture(path: p, hash: h, copy: $0) } } }
                             })
    }, write: { h in
        ["quicksilver": .integer(version), "width": .integer(h.size.width), "height": .integer(h.size.height),
         "seed": .integer(Int(h.seed)), "spray": h.sprayFromStroke ? .string("stroke") : nil, "background": .color(h.background), "snapshot": h.snapshot.map { .string($0) },
         "history": h.history.map { .string($0) }, "opened": h.opened.map { .record(["path": .string($0.path), "hash": .string($0.hash), "copy": .string($0.copy)]) },
         "started": h.started.map { .string($0) }, "continues": h.continues.map { .string($0) },
         "continuesBytes": h.continuesBytes.map { .integer($0) }, "undoMegabytes": .integer(h.undoMegabytes)]
    })

    /// Every event line's shape, pointer lines first (the writer looks for an event's in order).
    public static let events: [EventShape] = [
        pointer("down", .begins, { .pointerDown($0) }) { if case .pointerDown(let s) = $0 { s } else { nil } },
        pointer("move", .continues, { .pointerMove($0) }) { if case .pointerMove(let s) = $0 { s } else { nil } },
        pointer("up", .ends, { .pointerUp($0) }) { if case .pointerUp(let s) = $0 { s } else { nil } },
        // One of the four kinds and its size, or (kind "mypaint") a MyPaint brush by name, with its
        // settings embedded or not (`mypaintProblem` says which fields go with which).
        command("brush", [
            Field("kind", .choice(BrushKind.allCases.map(\.rawValue) + [mypaintKind], refused: .unknown("brush kind", list: .oneOf)), .optional),
            Field("name", .string(.line(bytes: 1...1024)), .optional),
            Field("size", .integer(BrushTip.sizes), .optional),
            Field("color", .color(alpha: true), .optional),
            Field("stabilizer", .number(0...1, shown: .swift), .optional),
            Field("settings", .anyObject, .optional),
        ], rules: .init(needsOneOf: true), check: mypaintProblem, read: { r in
            if r.string("kind") == mypaintKind {
                return r.string("name").map { .mypaint(MyPaintChoice(name: $0, color: r.color("color"), settings: r.json("settings"))) }
            }
            return .brush(kind: r.string("kind").flatMap(BrushKind.init(rawValue:)), size: r.integer("size"), color: r.color("color"),
                          stabilizer: r.number("stabilizer"))
        }, write: { c in
            if case .mypaint(let b) = c {
                return ["kind": .string(mypaintKind), "name": .string(b.name), "color": b.color.map { .color($0) },
                        "settings": b.settings.map { .json(JSON.canonicalObject($0) ?? $0) }]
            }
            guard case .brush(let kind, let size, let color, let stabilizer) = c else { return nil }
            return ["kind": kind.map { .string($0.rawValue) }, "size": size.map { .integer($0) }, "color": color.map { .color($0) },
                    "stabilizer": stabilizer.map { .number($0) }]
        }),
        command("shading", [
            Field("shininess", .number(Shading.shininessRange), .required(.needs())),
            Field("lights", .array(of: .object(lightFields), count: Shading.lightCount...Shading.lightCount, noun: "light",
                                   described: "an array of four lights"), .required(.needs(hint: ", an array of four lights"))),
        ], read: { r in
            guard let shininess = r.number("shininess"), let items = r.array("lights") else { return nil }
            var lights: [Shading.Light] = []
            for item in items {
                guard let l = item.record, let hue = l.number("hue"), let brightness = l.number("brightness"), let x = l.number("x"),
                      let y = l.number("y"), let z = l.number("z"),
                      let light = Shading.Light(hue: hue, brightness: brightness, x: x, y: y, z: z) else { return nil }
                lights.append(light)
            }
            return Shading(shininess: shininess, lights: lights).map { .shading($0) }
        }, write: { c in
            guard case .shading(let s) = c else { return nil }
            return ["shininess": .number(s.shininess), "lights": .array(s.lights.map { l in
                .record(["hue": .number(l.hue), "brightness": .number(l.brightness), "x": .number(l.x), "y": .number(l.y), "z": .number(l.z)])
            })]
        }),
        command("channel", [
            Field("channel", .choice(Channel.allCases.map(\.rawValue), refused: .mustBe),
                  .required(.needs(hint: " (" + Field.listed(Channel.allCases.map(\.rawValue), .or) + ")"))),
        ], read: { r in r.string("channel").flatMap(Channel.init(rawValue:)).map { .channel($0) } }, write: { c in
            if case .channel(let ch) = c { ["channel": .string(ch.rawValue)] } else { nil }
        }),
        plain("undo", .undo), plain("redo", .redo), plain("clear", .clear),
        command("invert", [Field("on", .bool, .optional)], read: { r in .invert(r.bool("on")) }, write: { c in
            if case .invert(let on) = c { ["on": on.map { .bool($0) }] } else { nil }
        }),
        command("pulse", [
            Field("on", .bool, .optional), Field("hue", .number(0...1, shown: .swift), .optional),
            Field("centre", .number(0...1, shown: .swift), .optional), Field("range", .number(0...1, shown: .swift), .optional),
        ], read: { r in .pulse(on: r.bool("on"), hue: r.number("hue"), centre: r.number("centre"), range: r.number("range")) }, write: { c in
            guard case .pulse(let on, let hue, let centre, let range) = c else { return nil }
            return ["on": on.map { .bool($0) }, "hue": hue.map { .number($0) }, "centre": centre.map { .number($0) },
                    "range": range.map { .number($0) }]
        }),
        layer("new", [Field("name", .string(.line(bytes: layerNameBytes)), .optional)], read: { r in .new(name: r.string("name")) }) { op in
            if case .new(let name) = op { ["name": name.map { .string($0) }] } else { nil }
        },
        layer("delete", read: { _ in .delete }) { op in op == .delete ? [:] : nil },
        layer("select", [Field("index", .integer(0...(LayerOp.maxLayers - 1)), .required(.needs(hint: " (0 is the bottom layer)")))],
              read: { r in r.integer("index").map { .select($0) } }) { op in
            if case .select(let i) = op { ["index": .integer(i)] } else { nil }
        },
        // A move is written as the direction it goes, and by how many places where more than
        // one (a drag in the layer panel).
        layer("up", [Field("by", .integer(1...LayerOp.maxLayers), .optional)], read: { r in .move(r.integer("by") ?? 1) }) { op in
            if case .move(let step) = op, step > 0 { ["by": step == 1 ? nil : .integer(step)] } else { nil }
        },
        layer("down", [Field("by", .integer(1...LayerOp.maxLayers), .optional)], read: { r in .move(-(r.integer("by") ?? 1)) }) { op in
            if case .move(let step) = op, step <= 0 { ["by": step >= -1 ? nil : .integer(-step)] } else { nil }
        },
        layer("merge", read: { _ in .mergeDown }) { op in op == .mergeDown ? [:] : nil },
        layer("set", [
            Field("visible", .bool, .optional),
            Field("opacity", .number(0...1, shown: .swift), .optional),
            Field("mode", .choice(BlendMode.allCases.map(\.rawValue), refused: .unknown("blend mode", list: .oneOf)), .optional),
            Field("name", .string(.line(bytes: layerNameBytes)), .optional),
            Field("isolated", .bool, .optional),
        ], rules: .init(needsOneOf: true), read: { r in
            .set(visible: r.bool("visible"), opacity: r.number("opacity"), mode: r.string("mode").flatMap(BlendMode.init(rawValue:)),
                 name: r.string("name"), isolated: r.bool("isolated"))
        }) { op in
            guard case .set(let visible, let opacity, let mode, let name, let isolated) = op else { return nil }
            return ["visible": visible.map { .bool($0) }, "opacity": opacity.map { .number($0) }, "mode": mode.map { .string($0.rawValue) },
                    "name": name.map { .string($0) }, "isolated": isolated.map { .bool($0) }]
        },
        layer("group", [Field("name", .string(.line(bytes: layerNameBytes)), .optional)], read: { r in .group(name: r.string("name")) }) { op in
            if case .group(let name) = op { ["name": name.map { .string($0) }] } else { nil }
        },
        layer("ungroup", read: { _ in .ungroup }) { op in op == .ungroup ? [:] : nil },
        layer("into", read: { _ in .into }) { op in op == .into ? [:] : nil },
        layer("out", read: { _ in .out }) { op in op == .out ? [:] : nil },
        command("paste", [
            Field("image", .string(.fileName("a PNG file")), .required(.needs(hint: ", a PNG file beside the replay"))),
            Field("x", .integer(offsets), .required(.needs())),
            Field("y", .integer(offsets), .required(.needs())),
        ], read: { r in
            guard let file = r.string("image"), let x = r.integer("x"), let y = r.integer("y") else { return nil }
            return .paste(PastedImage(file: file, x: x, y: y))
        }, write: { c in
            // The picture is in the file.
            if case .paste(let p) = c { ["image": .string(p.file), "x": .integer(p.x), "y": .integer(p.y)] } else { nil }
        }),
        // Mirror painting: the axes' x and y (the centre of a rotation), and a rotation's copies.
        command("symmetry", [
            Field("mode", .choice(Symmetry.Mode.allCases.map(\.rawValue), refused: .unknown("symmetry mode", list: .oneOf)),
                  .required(.needs(hint: " (" + Field.listed(Symmetry.Mode.allCases.map(\.rawValue), .or) + ")"))),
            Field("x", .number(Double(offsets.lowerBound)...Double(offsets.upperBound)), .defaulted(.number(0), alwaysWritten: true)),
            Field("y", .number(Double(offsets.lowerBound)...Double(offsets.upperBound)), .defaulted(.number(0), alwaysWritten: true)),
            Field("lines", .integer(Symmetry.lineRange), .defaulted(.integer(Symmetry.lineRange.lowerBound), alwaysWritten: true)),
        ], read: { r in
            guard let mode = r.string("mode").flatMap(Symmetry.Mode.init(rawValue:)), let x = r.number("x"), let y = r.number("y"),
                  let lines = r.integer("lines") else { return nil }
            return .symmetry(Symmetry(mode: mode, x: x, y: y, lines: lines))
        }, write: { c in
            guard case .symmetry(let s) = c else { return nil }
            return ["mode": .string(s.mode.rawValue), "x": .number(s.x), "y": .number(s.y), "lines": .integer(s.lines)]
        }),
        EventShape("view", [
            Field("zoom", .number(ViewTransform.zooms), .required(.needs())),
            Field("x", .integer(offsets), .defaulted(.integer(0), alwaysWritten: true)),
            Field("y", .integer(offsets), .defaulted(.integer(0), alwaysWritten: true)),
            // Degrees clockwise on screen, and the view flipped left to right (before the turn).
            Field("angle", .number(-360...360), .defaulted(.number(0))),
            Field("mirror", .bool, .defaulted(.bool(false))),
        ], read: { r in
            guard let zoom = r.number("zoom"), let x = r.integer("x"), let y = r.integer("y") else { return nil }
            return .view(ViewTransform(zoom: zoom, angle: r.number("angle") ?? 0, mirror: r.bool("mirror") ?? false, x: x, y: y))
        }, write: { e in
            guard case .view(let v) = e else { return nil }
            return ["zoom": .number(v.zoom), "x": .integer(v.x), "y": .integer(v.y), "angle": .number(v.angle), "mirror": .bool(v.mirror)]
        }),
        // The frame's size, its corner kept; with `x` and `y`, the frame put there outright (a
        // journal's opening, for a frame moved from the canvas's corner).
        EventShape("resize", [
            Field("width", .integer(Replay.Header.sizes), .required(.missing)),
            Field("height", .integer(Replay.Header.sizes), .required(.missing)),
            Field("x", .integer(offsets), .optional),
            Field("y", .integer(offsets), .optional),
        ], check: { r in
            (r["x"] == nil) == (r["y"] == nil) ? nil : refusal(.missingField, "\"x\" and \"y\" go together (the frame's corner)")
        }, read: { r in
            guard let width = r.integer("width"), let height = r.integer("height") else { return nil }
            if let x = r.integer("x"), let y = r.integer("y") { return .reframe(Rect(x: x, y: y, width: width, height: height)) }
            return .resize(Size(width: width, height: height))
        }, write: { e in
            switch e {
            case .resize(let size): ["width": .integer(size.width), "height": .integer(size.height)]
            case .reframe(let r): ["width": .integer(r.width), "height": .integer(r.height), "x": .integer(r.minX), "y": .integer(r.minY)]
            default: nil
            }
        }),
        // The frame fitted to the ink, or set to a rectangle: one undo step each.
        frame("fit", read: { _ in .fit }) { op in op == .fit ? [:] : nil },
        frame("set", [
            Field("x", .integer(offsets), .required(.needs())),
            Field("y", .integer(offsets), .required(.needs())),
            Field("width", .integer(Replay.Header.sizes), .required(.needs())),
            Field("height", .integer(Replay.Header.sizes), .required(.needs())),
        ], read: { r in
            guard let x = r.integer("x"), let y = r.integer("y"), let width = r.integer("width"), let height = r.integer("height") else { return nil }
            return .set(Rect(x: x, y: y, width: width, height: height))
        }) { op in
            guard case .set(let r) = op else { return nil }
            return ["x": .integer(r.minX), "y": .integer(r.minY), "width": .integer(r.width), "height": .integer(r.height)]
        },
        command("document", [
            Field("file", .string(.path), .required(.needs(hint: " (the document's file, absolute)"))),
            Field("edited", .bool, .defaulted(.bool(false))),
        ], read: { r in r.string("file").map { .document(file: $0, edited: r.bool("edited") ?? false) } }, write: { c in
            if case .document(let file, let edited) = c { ["file": .string(file), "edited": .bool(edited)] } else { nil }
        }),
        // The stroke the continued session left live ends here; its `t` counts from the new window's start.
        plain("continued", .continued, rules: .init(stroke: .cuts, timeMayGoBack: true)),
        plain("exit", .exit, rules: .init(endsTheFile: true, noun: "an \"exit\" event")),
    ]

    /// A pointer sample's fields (`down`, `move` and `up` alike).
    public static let pointerFields = [
        Field("x", .number(Field.anyNumber), .required(.needs())),
        Field("y", .number(Field.anyNumber), .required(.needs())),
        Field("pressure", .number(0...1, shown: .swift), .defaulted(.number(BrushTip.nominalPressure), alwaysWritten: true)),
        Field("mods", .flags(modifiers.map(\.name)), .defaulted(.flags([]))),
        Field("xtilt", .number(-1...1), .defaulted(.number(0))),
        Field("ytilt", .number(-1...1), .defaulted(.number(0))),
    ]

    /// A brush event's `kind` for a MyPaint brush.
    public static let mypaintKind = "mypaint"

    /// What is wrong with a brush event's fields together: a MyPaint brush needs a name and
    /// has no size or stabilizer (its settings say how it paints); the four kinds have no name
    /// or settings.
    @Sendable static func mypaintProblem(_ r: Record) -> ReplayError? {
        if r.string("kind") == mypaintKind {
            if r["name"] == nil { return refusal(.missingField, "a MyPaint brush needs \"name\"") }
            for field in ["size", "stabilizer"] where r[field] != nil {
                return refusal(.unknownField, "\"\(field)\" is not for a MyPaint brush (its settings say how it paints)")
            }
        } else {
            for field in ["name", "settings"] where r[field] != nil {
                return refusal(.unknownField, "\"\(field)\" is only for a MyPaint brush (\"kind\": \"mypaint\")")
            }
        }
        return nil
    }

    /// A shading light's fields.
    public static let lightFields = [
        Field("hue", .number(Shading.Light.fractions), .required(.needs())),
        Field("brightness", .number(Shading.Light.fractions), .required(.needs())),
        Field("x", .number(Shading.Light.coordinates), .required(.needs())),
        Field("y", .number(Shading.Light.coordinates), .required(.needs())),
        Field("z", .number(Shading.Light.coordinates), .required(.needs())),
    ]
}

extension ReplayTable {
    /// The shapes of events of type `type`: one, several for a type with actions (`layer`),
    /// none for a type the format does not have.
    public static func shapes(ofType type: String) -> [EventShape] { byType[type] ?? [] }

    /// The `action` field of a type of several shapes: one of their actions, in the table's
    /// order. Nil for a type of one shape.
    public static func actionField(ofType type: String) -> Field? { actionFields[type] }

    /// The shape that writes `event`, and its fields; nil for an event no line holds (a
    /// `LayerOp.step`, which the session records as what it did).
    public static func shape(for event: SessionEvent) -> (shape: EventShape, record: Record)? {
        for shape in events {
            if let record = shape.record(of: event) { return (shape, record) }
        }
        return nil
    }

    private static let byType = Dictionary(grouping: events, by: \.type)

    private static let actionFields: [String: Field] = byType.compactMapValues { shapes in
        guard let type = shapes.first?.type, shapes.contains(where: { $0.action != nil }) else { return nil }
        return Field("action", .choice(shapes.compactMap(\.action), refused: .unknown("\(type) action", list: .or)), .required(.needs()))
    }

    /// A pointer line's shape.
    private static func pointer(_ type: String, _ role: EventShape.StrokeRole, _ make: @escaping @Sendable (StrokeSample) -> SessionEvent,
                                sample: @escaping @Sendable (SessionEvent) -> StrokeSample?) -> EventShape {
        EventShape(type, pointerFields, rules: .init(stroke: role), read: { r in
            guard let x = r.number("x"), let y = r.number("y"), let pressure = r.number("pressure"), let mods = r.flags("mods"),
                  let xtilt = r.number("xtilt"), let ytilt = r.number("ytilt") else { return nil }
            return make(StrokeSample(x: x, y: y, pressure: pressure, mods: modifiers(named: mods), xtilt: xtilt, ytilt: ytilt))
        }, write: { e in
            sample(e).map { s in
                ["x": .number(s.x), "y": .number(s.y), "pressure": .number(s.pressure), "mods": .flags(names(of: s.mods)),
                 "xtilt": .number(s.xtilt), "ytilt": .number(s.ytilt)]
            }
        })
    }

    /// A command's shape.
    private static func command(_ type: String, _ fields: [Field], rules: EventShape.Rules = .init(),
                                check: (@Sendable (Record) -> ReplayError?)? = nil,
                                read: @escaping @Sendable (Record) -> Command?, write: @escaping @Sendable (Command) -> Record?) -> EventShape {
        EventShape(type, fields, rules: rules, check: check, read: { read($0).map { .command($0) } }, write: { e in
            if case .command(let c) = e { write(c) } else { nil }
        })
    }

    /// The shape of a command without fields.
    private static func plain(_ type: String, _ command: Command, rules: EventShape.Rules = .init()) -> EventShape {
        EventShape(type, [], rules: rules, read: { _ in .command(command) }, write: { $0 == .command(command) ? [:] : nil })
    }

    /// A `layer` event's shape for one action.
    private static func layer(_ action: String, _ fields: [Field] = [], rules: EventShape.Rules = .init(),
                              read: @escaping @Sendable (Record) -> LayerOp?, write: @escaping @Sendable (LayerOp) -> Record?) -> EventShape {
        EventShape("layer", action: action, fields, rules: rules, read: { read($0).map { .command(.layer($0)) } }, write: { e in
            if case .command(.layer(let op)) = e { write(op) } else { nil }
        })
    }

    /// A `frame` event's shape for one action.
    private static func frame(_ action: String, _ fields: [Field] = [],
                              read: @escaping @Sendable (Record) -> FrameOp?, write: @escaping @Sendable (FrameOp) -> Record?) -> EventShape {
        EventShape("frame", action: action, fields, read: { read($0).map { .command(.frame($0)) } }, write: { e in
            if case .command(.frame(let op)) = e { write(op) } else { nil }
        })
    }

    /// The keys `mods` names.
    static func modifiers(named names: [String]) -> Modifiers {
        var keys: Modifiers = []
        for m in modifiers where names.contains(m.name) { keys.formUnion(m.keys) }
        return keys
    }

    /// How `mods` names `keys`, in the table's order.
    static func names(of keys: Modifiers) -> [String] { modifiers.filter { keys.contains($0.keys) }.map(\.name) }
}
