import CText

/// A font fontconfig offers for the family: where its file is, and which characters it has.
struct FontCandidate {
    let family: String
    let path: String
    /// The face's index in its file (a .ttc holds several).
    let index: Int
    /// Its FcCharSet, owned by the `FontSet`'s font set.
    let charset: OpaquePointer
}

/// The fonts for one family, best first, as fontconfig sorts them for the pattern (the family
/// asked for, then what it falls back on), trimmed to those that add characters; and, for each
/// character, the first of them that has it. Only outline fonts: FreeType scales them to any size.
///
/// One thread (the `TextEngine`'s): it owns a font set, and a reference to fontconfig's
/// configuration (the process's own, shared: fontconfig locks it itself).
final class FontSet {
    private let config: OpaquePointer
    private let set: UnsafeMutablePointer<FcFontSet>
    /// Best first; `candidates[0]` is the family's own font (or fontconfig's closest).
    let candidates: [FontCandidate]
    /// The fonts whose files did not open: their characters go to the next font that has them.
    private var broken: Set<Int> = []
    /// Each character's font, as chosen (kept for the few thousand characters an app shows).
    private var choice: [Character: Int] = [:]
    private static let maxChoices = 8192

    /// The fonts fontconfig sorts for `family`, a fontconfig pattern ("sans-serif",
    /// "DejaVu Sans", "Noto Sans:bold").
    init(family: String) throws(TextError) {
        // fontconfig's current configuration, loaded once for the process (its fonts scanned
        // once), a reference of our own held while the set lives: a second engine costs a sort.
        guard FcInit() != FcFalse, let config = FcConfigReference(nil) else { throw .noConfiguration }
        guard let pattern = FcNameParse(family) else { FcConfigDestroy(config); throw .noFont(family: family) }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let set = FcFontSort(config, pattern, FcTrue, nil, &result) else {
            FcConfigDestroy(config)
            throw .noFont(family: family)
        }
        // One face per family, the best-matching one: the family's bold and italic faces add a
        // few characters of their own, which would otherwise be drawn bold in a regular line.
        var candidates: [FontCandidate] = []
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[i], let candidate = Self.candidate(font),
                  !candidates.contains(where: { $0.family == candidate.family }) else { continue }
            candidates.append(candidate)
        }
        guard !candidates.isEmpty else {
            FcFontSetDestroy(set); FcConfigDestroy(config)
            throw .noFont(family: family)
        }
        self.config = config
        self.set = set
        self.candidates = candidates
    }

    deinit {
        FcFontSetDestroy(set)
        FcConfigDestroy(config)
    }

    /// A font of the sorted set as a candidate: nil for bitmap-only fonts and patterns without
    /// a file or character set.
    private static func candidate(_ font: OpaquePointer) -> FontCandidate? {
        var outline: FcBool = FcFalse
        guard FcPatternGetBool(font, FC_OUTLINE, 0, &outline) == FcResultMatch, outline != FcFalse else { return nil }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        var charset: OpaquePointer?
        guard FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) == FcResultMatch, let charset else { return nil }
        var index: Int32 = 0
        if FcPatternGetInteger(font, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        var family: UnsafeMutablePointer<FcChar8>?
        let name = FcPatternGetString(font, FC_FAMILY, 0, &family) == FcResultMatch ? family.map { String(cString: $0) } : nil
        return FontCandidate(family: name ?? "", path: String(cString: file), index: Int(index), charset: charset)
    }

    /// True when font `i` has every character of `c` that shows (default-ignorable ones, such as
    /// joiners and variation selectors, need not be there).
    func covers(_ i: Int, _ c: Character) -> Bool {
        !broken.contains(i) && c.unicodeScalars.allSatisfy {
            $0.properties.isDefaultIgnorableCodePoint || FcCharSetHasChar(candidates[i].charset, $0.value) != FcFalse
        }
    }

    /// The font for `c`: the first that has all of it, else the first that has its first
    /// character (its base, when the rest are accents), else the first font (which shows its
    /// missing-glyph box).
    func font(for c: Character) -> Int {
        if let i = choice[c] { return i }
        var pick = candidates.indices.first { covers($0, c) }
        if pick == nil, let base = c.unicodeScalars.first {
            pick = candidates.indices.first { !broken.contains($0) && FcCharSetHasChar(candidates[$0].charset, base.value) != FcFalse }
        }
        let i = pick ?? candidates.indices.first { !broken.contains($0) } ?? 0
        if choice.count >= Self.maxChoices { choice.removeAll(keepingCapacity: true) }
        choice[c] = i
        return i
    }

    /// Font `i` did not open: no character goes to it again.
    func markBroken(_ i: Int) {
        broken.insert(i)
        choice.removeAll()
    }
}
