/// What a file says, as an error or a note may show it: on one line whatever it holds (a layer
/// name with `&#10;` in it is a name with a newline), and not too long (a 15 MiB name).
public enum ORAText {
    /// The most characters of a value shown; longer ones are cut, with "…".
    public static let shownCharacters = 40

    /// `text` in double quotes, escaped as JSON escapes a string (`\"`, `\\`, `\n`, `\r`, `\t`,
    /// `\u{…}` for any other control or line-breaking character), cut to `shownCharacters`.
    public static func quoted(_ text: String) -> String {
        "\"" + escaped(text, quotes: true, cut: shownCharacters) + "\""
    }

    /// `text` with its control and line-breaking characters escaped as `quoted` escapes them
    /// (nothing else: backslashes and quotes stay), cut to `characters`: for names said bare,
    /// like an archive entry's, and as the last word on a whole line.
    public static func oneLine(_ text: String, cut characters: Int = 200) -> String {
        escaped(text, quotes: false, cut: characters)
    }

    private static func escaped(_ text: String, quotes: Bool, cut: Int) -> String {
        var out = ""
        var shown = 0
        for scalar in text.unicodeScalars {
            if shown == cut { out += "…"; break }
            shown += 1
            switch scalar {
            case "\"" where quotes: out += "\\\""
            case "\\" where quotes: out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if needsEscape(scalar) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Control characters, line and paragraph separators, and the marks that reorder the text
    /// after them (bidi overrides and isolates), which would make a line say something else.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }
}
