import CText

/// A stretch of a string shaped in one go: one font, one script, in UTF-8 offsets of the string.
struct TextItem: Equatable {
    var start: Int
    var length: Int
    /// The font's index in the `FontSet`.
    var font: Int
    var script: hb_script_t
}

/// Cuts a string into `TextItem`s: a new item where the font changes (a character the current
/// font lacks) or the script does (Latin to Devanagari: HarfBuzz shapes one script at a time).
/// Spaces, digits and punctuation (the Common script) and accents (Inherited) join the item they
/// stand in when its font has them, so "日本 語" is one item in the CJK font, not three.
/// Characters are grapheme clusters: a base and its accents always share a font.
///
/// Items are laid left to right in the string's order: there is no bidirectional reordering.
/// A right-to-left script's item (Arabic, Hebrew) is shaped right to left, but spaces and
/// punctuation at its ends stay outside it, in the line's left-to-right order, as the Unicode
/// bidi algorithm would leave them in a left-to-right line.
enum Itemizer {
    static func items(_ text: String, fonts: FontSet) -> [TextItem] {
        var items: [TextItem] = []
        var offset = 0
        // The UTF-8 length of the Common characters at the end of the last item.
        var neutralTail = 0
        for c in text {
            let length = c.utf8.count
            defer { offset += length }
            let script = script(of: c)
            let neutral = script == HB_SCRIPT_COMMON
            if var last = items.last {
                let font = neutral && fonts.covers(last.font, c) ? last.font : fonts.font(for: c)
                let joins = font == last.font
                    && (neutral || last.script == script || (last.script == HB_SCRIPT_COMMON && !isRightToLeft(script)))
                if joins {
                    last.length += length
                    if last.script == HB_SCRIPT_COMMON { last.script = script }
                    items[items.count - 1] = last
                    neutralTail = neutral ? neutralTail + length : 0
                    continue
                }
                splitNeutralTail(&items, neutralTail)
                items.append(TextItem(start: offset, length: length, font: font, script: script))
            } else {
                items.append(TextItem(start: offset, length: length, font: fonts.font(for: c), script: script))
            }
            neutralTail = neutral ? length : 0
        }
        splitNeutralTail(&items, neutralTail)
        return items
    }

    /// Moves the last item's trailing Common characters into an item of their own when it is
    /// right to left.
    private static func splitNeutralTail(_ items: inout [TextItem], _ tail: Int) {
        guard tail > 0, var last = items.last, last.length > tail, isRightToLeft(last.script) else { return }
        last.length -= tail
        items[items.count - 1] = last
        items.append(TextItem(start: last.start + last.length, length: tail, font: last.font, script: HB_SCRIPT_COMMON))
    }

    static func isRightToLeft(_ script: hb_script_t) -> Bool {
        hb_script_get_horizontal_direction(script) == HB_DIRECTION_RTL
    }

    /// The script of `c`'s first character that has one of its own; Common when none has
    /// (spaces, digits, punctuation; accents alone).
    static func script(of c: Character) -> hb_script_t {
        let funcs = hb_unicode_funcs_get_default()
        for s in c.unicodeScalars {
            let script = hb_unicode_script(funcs, s.value)
            if script != HB_SCRIPT_COMMON && script != HB_SCRIPT_INHERITED && script != HB_SCRIPT_UNKNOWN { return script }
        }
        return HB_SCRIPT_COMMON
    }
}
