import CMyPaint

/// A brush's settings as a version 3 .myb file gives them, checked: what libmypaint is handed.
///
/// libmypaint reads .myb files leniently (a setting of the wrong type is skipped with a warning on
/// stderr, an impossible curve stops the program on an assertion). Here a file is checked first,
/// and refused in one line that says where (`BrushError`) when it is not a brush libmypaint can
/// paint exactly: not JSON (truncated, trailing commas, a key twice), no `version` 3, no
/// `settings`, a setting that is not an object with a finite `base_value` and an `inputs` object,
/// an input curve that is not 0 or 2…64 [x, y] points with x never decreasing, or no setting
/// libmypaint knows. Settings and inputs libmypaint does not know (from a newer MyPaint) are
/// left out and named in `ignored`; the other top-level fields (comment, group, notes) too.
public struct BrushSettings: Sendable, Equatable {
    /// One setting: its base value and the curves that add to it by input.
    public struct Setting: Sendable, Equatable {
        /// libmypaint's name for it ("radius_logarithmic").
        public var name: String
        public var baseValue: Double
        public var inputs: [Input]
        public init(name: String, baseValue: Double, inputs: [Input]) { self.name = name; self.baseValue = baseValue; self.inputs = inputs }
    }

    /// One input's curve: points (x, y), x never decreasing.
    public struct Input: Sendable, Equatable {
        /// libmypaint's name for it ("pressure").
        public var name: String
        public var points: [Point]
        public init(name: String, points: [Point]) { self.name = name; self.points = points }
    }

    public struct Point: Sendable, Equatable {
        public var x: Double, y: Double
        public init(x: Double, y: Double) { self.x = x; self.y = y }
    }

    /// The settings, in file order.
    public var settings: [Setting]
    /// What was left out, one note each (`line 93: unknown input "pressurebad" of "smudge"`).
    public var ignored: [String]

    /// The most points a curve may have (libmypaint's limit).
    public static let maxPoints = 64

    /// Reads and checks a .myb file's bytes; `path` is what errors name.
    public static func parse(_ bytes: [UInt8], path: String) throws(BrushError) -> BrushSettings {
        let root: BrushJSON.Node
        do { root = try BrushJSON.parse(bytes) } catch { throw BrushError(path: path, line: error.line, message: error.message) }
        func fail(_ node: BrushJSON.Node, _ message: String) -> BrushError { BrushError(path: path, line: node.line, message: message) }
        guard case .object(let top) = root.value else { throw fail(root, "the brush is \(root.value.kindName), not an object") }
        guard let version = top.first(where: { $0.key == "version" })?.node else {
            throw fail(root, "no \"version\": not a version 3 .myb file (MyPaint 1.x brushes must be saved again by MyPaint 2)")
        }
        guard case .number(let v) = version.value else { throw fail(version, "\"version\" is \(version.value.kindName), not a number") }
        guard v == 3 else { throw fail(version, "version \(Self.format(v)): only version 3 .myb files are read") }
        guard let settingsNode = top.first(where: { $0.key == "settings" })?.node else { throw fail(root, "no \"settings\"") }
        guard case .object(let members) = settingsNode.value else {
            throw fail(settingsNode, "\"settings\" is \(settingsNode.value.kindName), not an object")
        }
        var settings: [Setting] = []
        var ignored: [String] = []
        for (name, node) in members {
            guard case .object(let fields) = node.value else {
                throw fail(node, "setting \"\(name)\" is \(node.value.kindName), not an object")
            }
            guard let base = fields.first(where: { $0.key == "base_value" })?.node else {
                throw fail(node, "setting \"\(name)\" has no \"base_value\"")
            }
            guard case .number(let baseValue) = base.value else {
                throw fail(base, "the \"base_value\" of \"\(name)\" is \(base.value.kindName), not a number")
            }
            guard Float(baseValue).isFinite else { throw fail(base, "the \"base_value\" of \"\(name)\" is too large") }
            guard let inputsNode = fields.first(where: { $0.key == "inputs" })?.node else {
                throw fail(node, "setting \"\(name)\" has no \"inputs\"")
            }
            guard case .object(let inputMembers) = inputsNode.value else {
                throw fail(inputsNode, "the \"inputs\" of \"\(name)\" are \(inputsNode.value.kindName), not an object")
            }
            var inputs: [Input] = []
            for (inputName, curve) in inputMembers {
                let points = try Self.curve(curve, setting: name, input: inputName, fail: fail)
                if Self.knownInput(inputName) {
                    inputs.append(Input(name: inputName, points: points))
                } else {
                    ignored.append("line \(curve.line): unknown input \"\(inputName)\" of \"\(name)\"")
                }
            }
            if Self.knownSetting(name) {
                settings.append(Setting(name: name, baseValue: baseValue, inputs: inputs))
            } else {
                ignored.append("line \(node.line): unknown setting \"\(name)\"")
            }
        }
        guard !settings.isEmpty else { throw fail(settingsNode, "no setting libmypaint knows") }
        return BrushSettings(settings: settings, ignored: ignored)
    }

    /// An input's curve: [[x, y], …], checked as libmypaint's mapping asserts.
    private static func curve(_ node: BrushJSON.Node, setting: String, input: String,
                              fail: (BrushJSON.Node, String) -> BrushError) throws(BrushError) -> [Point] {
        let what = "the \"\(input)\" curve of \"\(setting)\""
        guard case .array(let items) = node.value else { throw fail(node, "\(what) is \(node.value.kindName), not an array of points") }
        guard items.count != 1, items.count <= maxPoints else {
            throw fail(node, "\(what) has \(items.count) point\(items.count == 1 ? "" : "s"): 0 or 2…\(maxPoints) are allowed")
        }
        var points: [Point] = []
        for item in items {
            guard case .array(let xy) = item.value, xy.count == 2, case .number(let x) = xy[0].value, case .number(let y) = xy[1].value else {
                throw fail(item, "a point of \(what) is not [x, y], two numbers")
            }
            guard Float(x).isFinite, Float(y).isFinite else { throw fail(item, "a point of \(what) is too large") }
            if let last = points.last, Float(x) < Float(last.x) { throw fail(item, "the points of \(what) go back in x") }
            points.append(Point(x: x, y: y))
        }
        return points
    }

    static func knownSetting(_ name: String) -> Bool {
        mypaint_brush_setting_from_cname(name).rawValue < MYPAINT_BRUSH_SETTINGS_COUNT.rawValue
    }

    static func knownInput(_ name: String) -> Bool {
        mypaint_brush_input_from_cname(name).rawValue < MYPAINT_BRUSH_INPUTS_COUNT.rawValue
    }

    /// A number as JSON writes it: integers without a fraction, others in the shortest form
    /// that reads back as the same double.
    static func format(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }

    /// The settings as a version 3 .myb JSON document on one line: what libmypaint is handed, and
    /// what a journal can embed so that a replay never depends on installed files.
    public var json: String {
        let body = settings.map { s in
            let inputs = s.inputs.map { i in
                "\"\(i.name)\":[" + i.points.map { "[\(Self.format($0.x)),\(Self.format($0.y))]" }.joined(separator: ",") + "]"
            }.joined(separator: ",")
            return "\"\(s.name)\":{\"base_value\":\(Self.format(s.baseValue)),\"inputs\":{\(inputs)}}"
        }.joined(separator: ",")
        return "{\"version\":3,\"settings\":{\(body)}}"
    }
}
