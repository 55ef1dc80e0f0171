import Brushes
import Testing

/// A .myb file is checked before libmypaint sees it, and refused in one line that says where: the
/// cases of libmypaint's own tests/brushes/bad (wrong types, no version, no settings, truncated,
/// empty, nothing libmypaint knows), and a few more.
@Suite struct BrushSettingsTests {
    /// A good brush: two settings, one with a pressure curve.
    static let good = """
        {
            "comment": "MyPaint brush file",
            "group": "",
            "settings": {
                "radius_logarithmic": {"base_value": 1.5, "inputs": {}},
                "opaque": {
                    "base_value": 0.8,
                    "inputs": {"pressure": [[0.0, 0.0], [1.0, 0.4]]}
                }
            },
            "version": 3
        }
        """

    static func parse(_ text: String, path: String = "test.myb") throws(BrushError) -> BrushSettings {
        try BrushSettings.parse(Array(text.utf8), path: path)
    }

    static func refusal(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func goodBrushReads() throws {
        let s = try Self.parse(Self.good)
        #expect(s.settings.map(\.name) == ["radius_logarithmic", "opaque"])
        #expect(s.settings[1].inputs == [BrushSettings.Input(name: "pressure", points: [.init(x: 0, y: 0), .init(x: 1, y: 0.4)])])
        #expect(s.ignored.isEmpty)
        #expect(s.json == #"{"version":3,"settings":{"radius_logarithmic":{"base_value":1.5,"inputs":{}},"opaque":{"base_value":0.8,"inputs":{"pressure":[[0,0],[1,0.4]]}}}}"#)
        #expect(try Self.parse(s.json) == s)
    }

    /// libmypaint's bad cases, each refused with the file and the line.
    static let badCases: [(text: String, message: String)] = [
        // bad_setting_types_1: inputs null
        (Self.good.replacingOccurrences(of: #""inputs": {}}"#, with: #""inputs": null}"#),
         #"test.myb:5: the "inputs" of "radius_logarithmic" are null, not an object"#),
        // bad_setting_types_2: a base value that is an array
        (Self.good.replacingOccurrences(of: "1.5", with: "[ false, false ]"),
         #"test.myb:5: the "base_value" of "radius_logarithmic" is an array, not a number"#),
        // bad_setting_types_3: an input that is null
        (Self.good.replacingOccurrences(of: "[[0.0, 0.0], [1.0, 0.4]]", with: "null"),
         #"test.myb:8: the "pressure" curve of "opaque" is null, not an array of points"#),
        // bad_setting_types_4: a setting that is a string
        (Self.good.replacingOccurrences(of: #"{"base_value": 1.5, "inputs": {}}"#, with: #""junk""#),
         #"test.myb:5: setting "radius_logarithmic" is a string, not an object"#),
        // empty
        ("", "test.myb:1: empty file, not a brush"),
        // entirely_unknown_settings (and its trailing comma)
        (#"{"settings": {"unknown_setting_1": {"base_value": 1.0, "inputs": {}}}, "version": 3}"#,
         #"test.myb:1: no setting libmypaint knows"#),
        (#"{"settings": {"opaque": {"base_value": 1.0, "inputs": {}},}, "version": 3}"#, "test.myb:1: a comma before '}'"),
        // missing_settings, missing_version
        (#"{"comment": "MyPaint brush file", "version": 3}"#, #"test.myb:1: no "settings""#),
        (Self.good.replacingOccurrences(of: #","# + "\n    \"version\": 3", with: ""),
         #"test.myb:1: no "version": not a version 3 .myb file (MyPaint 1.x brushes must be saved again by MyPaint 2)"#),
        // truncated
        (String(Self.good.prefix(170)), "test.myb:7: the file ends in the middle of the brush (truncated?)"),
        // And: another version, a key twice, curves libmypaint would abort on.
        (Self.good.replacingOccurrences(of: #""version": 3"#, with: #""version": 2"#),
         "test.myb:11: version 2: only version 3 .myb files are read"),
        (Self.good.replacingOccurrences(of: #""group": "","#, with: #""group": "", "group": "x","#), #"test.myb:3: "group" appears twice"#),
        (Self.good.replacingOccurrences(of: "[[0.0, 0.0], [1.0, 0.4]]", with: "[[0.0, 0.0]]"),
         #"test.myb:8: the "pressure" curve of "opaque" has 1 point: 0 or 2…64 are allowed"#),
        (Self.good.replacingOccurrences(of: "[[0.0, 0.0], [1.0, 0.4]]", with: "[[1.0, 0.0], [0.5, 0.4]]"),
         #"test.myb:8: the points of the "pressure" curve of "opaque" go back in x"#),
        (Self.good.replacingOccurrences(of: "1.5", with: "1e300"), #"test.myb:5: the "base_value" of "radius_logarithmic" is too large"#),
        ("[1, 2]", "test.myb:1: the brush is an array, not an object"),
    ]

    @Test func badBrushesRefused() {
        for (text, message) in Self.badCases { #expect(Self.refusal(text) == message) }
    }

    /// some_unknown_settings and some_unknown_inputs: read, the unknown names left out and noted.
    @Test func unknownNamesLeftOut() throws {
        let text = Self.good
            .replacingOccurrences(of: #""radius_logarithmic": {"#, with: #""unknown_setting_1": {"base_value": 1.0, "inputs": {}}, "radius_logarithmic": {"#)
            .replacingOccurrences(of: #""pressure": [[0.0, 0.0], [1.0, 0.4]]"#,
                                  with: #""pressurebad": [[0, 0], [1, 1]], "pressure": [[0.0, 0.0], [1.0, 0.4]]"#)
        let s = try Self.parse(text)
        #expect(s.settings.map(\.name) == ["radius_logarithmic", "opaque"])
        #expect(s.settings[1].inputs.map(\.name) == ["pressure"])
        #expect(s.ignored == [#"line 5: unknown setting "unknown_setting_1""#, #"line 8: unknown input "pressurebad" of "opaque""#])
    }

    /// libmypaint takes what was checked.
    @Test func libmypaintTakesIt() throws {
        let engine = try BrushEngine(settings: try Self.parse(Self.good))
        #expect(engine.baseValue("radius_logarithmic") == 1.5)
        #expect(engine.baseValue("opaque") == 0.8)
        // A setting the file leaves out keeps libmypaint's default (pigment mode on).
        #expect(engine.baseValue("paint_mode") == 1)
        #expect(engine.baseValue("no_such_setting") == nil)
    }
}
