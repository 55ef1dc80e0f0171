/// Why text cannot be drawn in real fonts. The UI keeps its bitmap font as the last resort when
/// a `TextEngine` cannot be made; once made, an engine never fails to draw (a glyph FreeType
/// refuses is left out, a font file that will not open gives its characters to the next font).
public enum TextError: Error, Equatable, Sendable, CustomStringConvertible {
    /// fontconfig found no configuration to load (no fonts.conf, or it is broken).
    case noConfiguration
    /// No installed outline font matches the family, not even as a fallback.
    case noFont(family: String)
    /// FreeType itself could not start.
    case freeTypeUnavailable(code: Int32)
    /// The family's best font, `path` (face `index` in it), did not open in FreeType.
    case cannotOpen(path: String, index: Int, code: Int32)

    public var description: String {
        switch self {
        case .noConfiguration: "fontconfig has no configuration to load"
        case .noFont(let family): "no installed font for \"\(family)\""
        case .freeTypeUnavailable(let code): "FreeType did not start (error \(code))"
        case .cannotOpen(let path, let index, let code): "\(path): font \(index) did not open in FreeType (error \(code))"
        }
    }
}
